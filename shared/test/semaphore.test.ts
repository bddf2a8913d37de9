import { describe, expect, it } from "vitest";
import { createSemaphore } from "../src/semaphore.ts";

/** A task that runs until the test releases it, counting its starts. */
function gate() {
  let release!: (value: string) => void;
  const done = new Promise<string>((resolve) => (release = resolve));
  const state = { started: 0, signal: undefined as AbortSignal | undefined };
  const task = (signal?: AbortSignal) => {
    state.started++;
    state.signal = signal;
    return done;
  };
  return { task, release, state };
}

/** One event-loop turn, so released waiters and their continuations run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createSemaphore", () => {
  it("runs a task and passes its value and signal through", async () => {
    const semaphore = createSemaphore({ maxConcurrent: 1, maxQueue: 1 });
    const signal = new AbortController().signal;
    const g = gate();
    const run = semaphore.run(g.task, { signal });
    expect(g.state).toEqual({ started: 1, signal });
    g.release("done");
    expect(await run).toEqual({ ok: true, value: "done" });
    expect(semaphore.stats()).toEqual({ active: 0, queued: 0 });
  });

  it("caps concurrency and starts waiters in arrival order as slots free", async () => {
    const semaphore = createSemaphore({ maxConcurrent: 2, maxQueue: 10 });
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g) => semaphore.run(g.task));
    expect(gates.map((g) => g.state.started)).toEqual([1, 1, 0, 0]);
    expect(semaphore.stats()).toEqual({ active: 2, queued: 2 });
    gates[1]!.release("b");
    await settle();
    expect(gates.map((g) => g.state.started)).toEqual([1, 1, 1, 0]);
    expect(semaphore.stats()).toEqual({ active: 2, queued: 1 });
    for (const g of gates) g.release("x");
    expect((await Promise.all(runs)).every((r) => r.ok)).toBe(true);
    expect(semaphore.stats()).toEqual({ active: 0, queued: 0 });
  });

  it("answers queue-full at once, and lets an admitted call's tasks wait past the bound", async () => {
    const semaphore = createSemaphore({ maxConcurrent: 1, maxQueue: 1 });
    const gates = [gate(), gate(), gate(), gate()];
    const first = semaphore.run(gates[0]!.task);
    const queued = semaphore.run(gates[1]!.task);
    // The first task never finishes before this answer, so the answer cannot have waited for a slot.
    expect(await semaphore.run(gates[2]!.task)).toMatchObject({ ok: false, error: { code: "queue-full" } });
    const admitted = semaphore.run(gates[3]!.task, { admitted: true });
    expect(semaphore.stats()).toEqual({ active: 1, queued: 2 });
    for (const g of gates) g.release("x");
    expect((await Promise.all([first, queued, admitted])).map((r) => r.ok)).toEqual([true, true, true]);
    expect(gates[2]!.state.started).toBe(0);
  });

  it("drops a waiter whose signal fires, never starting it, and refuses a task already cancelled", async () => {
    const semaphore = createSemaphore({ maxConcurrent: 1, maxQueue: 1 });
    const [first, waiting, next] = [gate(), gate(), gate()];
    const running = semaphore.run(first.task);
    const controller = new AbortController();
    const queued = semaphore.run(waiting.task, { signal: controller.signal });
    controller.abort();
    expect(await queued).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(semaphore.stats()).toEqual({ active: 1, queued: 0 });
    expect(await semaphore.run(next.task, { signal: controller.signal })).toMatchObject({ ok: false, error: { code: "aborted" } });
    const later = semaphore.run(next.task);
    first.release("x");
    await settle();
    expect([waiting.state.started, next.state.started]).toEqual([0, 1]);
    next.release("x");
    await Promise.all([running, later]);
    expect(semaphore.stats()).toEqual({ active: 0, queued: 0 });
  });
});
