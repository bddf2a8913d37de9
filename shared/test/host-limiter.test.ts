import { describe, expect, it } from "vitest";
import { createHostLimiter } from "../src/host-limiter.ts";

/** A task that runs until the test settles it, recording that it started. */
function gate<T = string>() {
  let release!: (value: T) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<T>((resolve, fail) => {
    release = resolve;
    reject = fail;
  });
  const state = { started: 0, signal: undefined as AbortSignal | undefined };
  const task = (signal?: AbortSignal) => {
    state.started++;
    state.signal = signal;
    return done;
  };
  return { task, release, reject, state };
}

/** One event-loop turn, so released waiters and their continuations run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createHostLimiter", () => {
  it("runs a task and passes its value and signal through", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 2, maxPerHost: 1, maxQueue: 1 });
    const signal = new AbortController().signal;
    const g = gate();
    const run = limiter.run("a.test", g.task, { signal });
    expect(g.state).toEqual({ started: 1, signal });
    g.release("done");
    expect(await run).toEqual({ ok: true, value: "done" });
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });

  it("caps concurrency per host while other hosts proceed", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 10, maxPerHost: 2, maxQueue: 10 });
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.slice(0, 3).map((g) => limiter.run("a.test", g.task));
    const other = limiter.run("b.test", gates[3]!.task);
    expect(gates.map((g) => g.state.started)).toEqual([1, 1, 0, 1]);
    expect(limiter.stats()).toEqual({ active: 3, queued: 1 });
    gates[0]!.release("0");
    await settle();
    expect(gates[2]!.state.started).toBe(1);
    for (const g of gates) g.release("x");
    expect((await Promise.all([...runs, other])).every((r) => r.ok)).toBe(true);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });

  it("caps concurrency globally and starts waiters in FIFO order", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 2, maxPerHost: 5, maxQueue: 10 });
    const order: string[] = [];
    const gates = ["a", "b", "c", "d"].map(() => gate());
    const runs = ["a", "b", "c", "d"].map((host, i) =>
      limiter.run(`${host}.test`, (signal) => {
        order.push(host);
        return gates[i]!.task(signal);
      }),
    );
    expect(order).toEqual(["a", "b"]);
    expect(limiter.stats()).toEqual({ active: 2, queued: 2 });
    gates[1]!.release("b");
    await settle();
    expect(order).toEqual(["a", "b", "c"]);
    gates[0]!.release("a");
    await settle();
    expect(order).toEqual(["a", "b", "c", "d"]);
    for (const g of gates) g.release("x");
    await Promise.all(runs);
  });

  it("does not let a waiter for a saturated host hold up another host", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 3, maxPerHost: 1, maxQueue: 10 });
    const [a1, a2, b1] = [gate(), gate(), gate()];
    const runs = [limiter.run("a.test", a1.task), limiter.run("a.test", a2.task), limiter.run("b.test", b1.task)];
    expect([a1.state.started, a2.state.started, b1.state.started]).toEqual([1, 0, 1]);
    for (const g of [a1, a2, b1]) g.release("x");
    await Promise.all(runs);
  });

  it("answers queue-full at once, without waiting", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 1, maxPerHost: 1, maxQueue: 1 });
    const [first, queued, rejected] = [gate(), gate(), gate()];
    const runs = [limiter.run("a.test", first.task), limiter.run("a.test", queued.task)];
    // The first task never finishes before this answer, so the answer cannot have waited for a slot.
    expect(await limiter.run("a.test", rejected.task)).toMatchObject({ ok: false, error: { code: "queue-full" } });
    expect(await limiter.run("b.test", rejected.task)).toMatchObject({ ok: false, error: { code: "queue-full" } });
    expect(rejected.state.started).toBe(0);
    first.release("x");
    queued.release("x");
    await Promise.all(runs);
  });

  it("lets an admitted call's tasks wait past the queue bound, while new calls are still refused", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 1, maxPerHost: 1, maxQueue: 1 });
    const gates = [gate(), gate(), gate(), gate()];
    const first = limiter.run("a.test", gates[0]!.task);
    const own = gates.slice(1, 3).map((g) => limiter.run("a.test", g.task, { admitted: true }));
    expect(limiter.stats()).toEqual({ active: 1, queued: 2 });
    expect(await limiter.run("a.test", gates[3]!.task)).toMatchObject({ ok: false, error: { code: "queue-full" } });
    for (const g of gates) g.release("x");
    expect((await Promise.all([first, ...own])).map((r) => r.ok)).toEqual([true, true, true]);
    expect(gates[3]!.state.started).toBe(0);
  });

  it("removes a queued task whose signal aborts, and never starts it", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 1, maxPerHost: 1, maxQueue: 1 });
    const [first, waiting, next] = [gate(), gate(), gate()];
    const running = limiter.run("a.test", first.task);
    const controller = new AbortController();
    const queued = limiter.run("a.test", waiting.task, { signal: controller.signal });
    expect(limiter.stats()).toEqual({ active: 1, queued: 1 });
    controller.abort();
    expect(await queued).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(limiter.stats()).toEqual({ active: 1, queued: 0 });
    const later = limiter.run("a.test", next.task); // the freed queue place is usable
    first.release("x");
    await settle();
    expect([waiting.state.started, next.state.started]).toEqual([0, 1]);
    next.release("y");
    expect(await later).toEqual({ ok: true, value: "y" });
    await running;
  });

  it("refuses a task whose signal already fired", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 1, maxPerHost: 1, maxQueue: 1 });
    const g = gate();
    expect(await limiter.run("a.test", g.task, { signal: AbortSignal.abort() })).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(g.state.started).toBe(0);
  });

  it("releases slots when tasks fail, and passes the failure on", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 1, maxPerHost: 1, maxQueue: 5 });
    const [failing, waiting] = [gate(), gate()];
    const first = limiter.run("a.test", failing.task);
    const second = limiter.run("a.test", waiting.task);
    failing.reject(new Error("boom"));
    await expect(first).rejects.toThrow("boom");
    await settle();
    expect(waiting.state.started).toBe(1);
    waiting.release("ok");
    expect(await second).toEqual({ ok: true, value: "ok" });
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
    await expect(limiter.run("a.test", () => Promise.reject(new Error("again")))).rejects.toThrow("again");
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });

  it("starts every task exactly once under churn", async () => {
    const limiter = createHostLimiter({ maxConcurrent: 3, maxPerHost: 2, maxQueue: 100 });
    const starts = new Map<number, number>();
    const perHost = new Map<string, number>();
    let peak = 0;
    let hostPeak = 0;
    const runs = Array.from({ length: 60 }, (_, i) =>
      limiter.run(`h${i % 2}.test`, async () => {
        const host = `h${i % 2}`;
        starts.set(i, (starts.get(i) ?? 0) + 1);
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        peak = Math.max(peak, limiter.stats().active);
        hostPeak = Math.max(hostPeak, perHost.get(host)!);
        await settle();
        perHost.set(host, perHost.get(host)! - 1);
        if (i % 7 === 0) throw new Error("fail");
        return i;
      }),
    );
    const results = await Promise.allSettled(runs);
    expect([...starts.values()].every((n) => n === 1)).toBe(true);
    expect(starts.size).toBe(60);
    expect(peak).toBe(3);
    expect(hostPeak).toBe(2);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(9);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
  });
  it("gives a freed slot to the next in line, or with fair to the host that has waited without one", async () => {
    for (const fair of [false, true]) {
      const limiter = createHostLimiter({ maxConcurrent: 1, maxPerHost: 1, maxQueue: 10, fair });
      const order: string[] = [];
      const first = gate();
      const runs = [limiter.run("a.test", first.task)];
      for (const name of ["a2", "a3", "b1"]) {
        runs.push(
          limiter.run(`${name[0]}.test`, async () => {
            order.push(name);
            return name;
          }),
        );
      }
      first.release("a1");
      await Promise.all(runs);
      // In arrival order a's pages go first; taking turns, b's one page goes before a's second.
      expect(order).toEqual(fair ? ["b1", "a2", "a3"] : ["a2", "a3", "b1"]);
      expect(limiter.stats()).toEqual({ active: 0, queued: 0 });
    }
  });
});
