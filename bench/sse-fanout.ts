import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { BenchStack } from "./bench-stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";
import type { FollowerReply, FollowerRequest } from "./sse-followers.ts";

/** Asks the followers' process one thing and waits for its answer. */
function ask(followers: ChildProcess, request: FollowerRequest): Promise<FollowerReply> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`the followers' process exited (${code})`));
    followers.once("exit", exited);
    followers.once("message", (reply: FollowerReply) => {
      followers.off("exit", exited);
      resolve(reply);
    });
    followers.send(request);
  });
}

/**
 * Frames per second delivered to `subscribers` followers of one session while tool calls run
 * `parallel` at a time, and the p50 a tool call takes with and without those followers.
 */
export async function benchSseFanout(bench: BenchStack, subscribers = 100, calls = 400, parallel = 4) {
  const quiet = await bench.newSession();
  const busy = await bench.newSession();
  const call = (sessionId: string) => async () => {
    const res = await bench.post(`/api/sessions/${sessionId}/tools/get_search_content`, { responseId: "none" });
    await res.arrayBuffer();
  };
  await timeEach(20, call(quiet));
  const alone = percentiles(await timeEach(100, call(quiet)));

  // The followers are other clients than the caller: a process of their own (bench/sse-followers.ts).
  const followers = fork(join(import.meta.dirname, "sse-followers.ts"), [`${bench.stack.url}/api/sessions/${busy}/stream`, String(subscribers)]);
  try {
    // Wait until the session counts every subscriber, so none misses the first frames.
    const attached = async () => ((await (await fetch(`${bench.stack.url}/api/sessions/${busy}/state`)).json()) as { state: { subscribers: number } }).state.subscribers;
    const deadline = performance.now() + 30_000;
    while ((await attached()) < subscribers) {
      if (performance.now() > deadline) throw new Error("the subscribers did not all attach within 30 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    const followed = percentiles(await timeEach(100, call(busy)));

    // The frames of the calls just timed arrive first.
    const before = (await ask(followers, { type: "await", frames: subscribers * 4 * 100 })).delivered;
    const expected = subscribers * 4 * calls;
    const start = performance.timeOrigin + performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next++ < calls) await call(busy)();
      }),
    );
    const done = await ask(followers, { type: "await", frames: before + expected });
    const delivered = done.delivered - before;
    return {
      case: "SSE fan-out (followers in a process of their own)",
      subscribers,
      calls,
      framesDelivered: delivered,
      framesPerSecond: Math.round(delivered / ((done.lastAt - start) / 1000)),
      toolCallP50Ms: { withoutSubscribers: alone.p50, with100Subscribers: followed.p50, addedByStream: +(followed.p50 - alone.p50).toFixed(2) },
      complete: delivered >= expected,
    };
  } finally {
    if (followers.exitCode === null) {
      const exited = new Promise((r) => followers.once("exit", r));
      followers.send({ type: "stop" } satisfies FollowerRequest);
      await exited;
    }
  }
}
