/**
 * The SSE fan-out bench's followers, in a process of their own (`fork`ed by sse-fanout.ts) as a
 * session's followers are other clients than its caller: in the caller's process, reading 100
 * streams would hold up its own call's answer on its event loop and be counted as the service's.
 * `node sse-followers.ts STREAM_URL COUNT`; over IPC it answers how many frames have arrived.
 */
/** What the bench asks: the frames so far, to wait for a total, or to stop. */
export type FollowerRequest = { type: "count" } | { type: "await"; frames: number } | { type: "stop" };

/** Frames delivered so far, and when the last arrived (ms since the epoch). */
export interface FollowerReply {
  type: "count";
  delivered: number;
  lastAt: number;
}

const [url = "", count = "0"] = process.argv.slice(2);
const abort = new AbortController();
let delivered = 0;
/** When the last frame arrived, on the clock both processes share (ms since the epoch, sub-ms). */
let lastAt = 0;
const now = () => performance.timeOrigin + performance.now();

/** Counts frames (not keep-alives) arriving on one SSE stream until aborted. */
async function follow(): Promise<void> {
  const res = await fetch(url, { signal: abort.signal });
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
        if (buffer.startsWith("event:")) {
          delivered++;
          lastAt = now();
        }
        buffer = buffer.slice(end + 2);
      }
    }
  } catch {
    // aborted at the end of the run
  }
}

const streams = Array.from({ length: Number(count) }, follow);
const reply = (message: FollowerReply) => process.send!(message);

process.on("message", async (message: FollowerRequest) => {
  if (message.type === "count") return reply({ type: "count", delivered, lastAt });
  // Waits until `frames` have arrived in all, or nothing has for 3 s (a dropped follower).
  if (message.type === "await") {
    let last = { count: delivered, at: now() };
    while (delivered < message.frames && now() - last.at < 3_000) {
      await new Promise((r) => setTimeout(r, 5));
      if (delivered !== last.count) last = { count: delivered, at: now() };
    }
    return reply({ type: "count", delivered, lastAt });
  }
  abort.abort();
  await Promise.all(streams);
  process.disconnect();
});
