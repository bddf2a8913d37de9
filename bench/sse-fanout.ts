import type { BenchStack } from "./bench-stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";

/** Counts frames (not keep-alives) arriving on one SSE stream until aborted. */
async function follow(url: string, signal: AbortSignal, onFrame: () => void): Promise<void> {
  const res = await fetch(url, { signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        if (buffer.startsWith("event:")) onFrame();
        buffer = buffer.slice(end + 2);
      }
    }
  } catch {
    // aborted at the end of the run
  }
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

  const abort = new AbortController();
  let delivered = 0;
  const streams = Array.from({ length: subscribers }, () => follow(`${bench.stack.url}/api/sessions/${busy}/stream`, abort.signal, () => delivered++));
  // Wait until the session counts every subscriber, so none misses the first frames.
  const attached = async () => ((await (await fetch(`${bench.stack.url}/api/sessions/${busy}/state`)).json()) as { state: { subscribers: number } }).state.subscribers;
  const deadline = performance.now() + 30_000;
  while ((await attached()) < subscribers) {
    if (performance.now() > deadline) throw new Error("the subscribers did not all attach within 30 s");
    await new Promise((r) => setTimeout(r, 20));
  }
  /** Waits until `count` frames have arrived, or none has for 3 s (a dropped subscriber); answers when the last came. */
  const arrived = async (count: number) => {
    let last = { count: delivered, at: performance.now() };
    while (delivered < count && performance.now() - last.at < 3_000) {
      await new Promise((r) => setTimeout(r, 5));
      if (delivered !== last.count) last = { count: delivered, at: performance.now() };
    }
    return last.at;
  };
  const followed = percentiles(await timeEach(100, call(busy)));
  // A direct call's frames may come up to a batch window after its answer: the timed calls' come first.
  await arrived(subscribers * 4 * 100);

  const before = delivered;
  const expected = subscribers * 4 * calls;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < calls) await call(busy)();
    }),
  );
  const seconds = ((await arrived(before + expected)) - start) / 1000;
  abort.abort();
  await Promise.all(streams);
  return {
    case: "SSE fan-out",
    subscribers,
    calls,
    framesDelivered: delivered - before,
    framesPerSecond: Math.round((delivered - before) / seconds),
    toolCallP50Ms: { withoutSubscribers: alone.p50, with100Subscribers: followed.p50, addedByStream: +(followed.p50 - alone.p50).toFixed(2) },
    // The calls a batch's fan-out lands on.
    toolCallP95Ms: { withoutSubscribers: alone.p95, with100Subscribers: followed.p95 },
    complete: delivered - before >= expected,
  };
}
