import { describe, expect, it } from "vitest";
import { createStreamHub } from "../src/session/stream-hub.ts";

const decoder = new TextDecoder();
/** Resolves on the runtime's next timer turn, after the timers already due. */
const nextTimer = () => new Promise<"nothing yet">((resolve) => setTimeout(() => resolve("nothing yet"), 0));

/** The subscriber's next write, decoded. */
const nextWrite = (reader: ReadableStreamDefaultReader<Uint8Array>) => reader.read().then(({ value }) => decoder.decode(value));

describe("stream hub", () => {
  const hub = () => createStreamHub({ maxPending: 100, overflowText: () => "overflow\n\n" });

  it("holds frames back to send them together, and sends them at once with a burst's last frame", async () => {
    const streams = hub();
    const reader = streams.subscribe([], 60_000).getReader();
    const write = nextWrite(reader);
    streams.broadcast("a\n\n");
    expect(await Promise.race([write, nextTimer()])).toBe("nothing yet");
    streams.broadcast("b\n\n");
    streams.broadcast("c\n\n", true);
    expect(await Promise.race([write, nextTimer()])).toBe("a\n\nb\n\nc\n\n");
    await reader.cancel();
  });

  it("sends held frames when the window ends, with no burst's last frame to send them", async () => {
    const streams = hub();
    const reader = streams.subscribe([], 60_000).getReader();
    const write = nextWrite(reader);
    streams.broadcast("a\n\n");
    streams.broadcast("b\n\n");
    expect(await Promise.race([write, nextTimer()])).toBe("nothing yet");
    // Nothing else sends them: they go when the window ends.
    expect(await write).toBe("a\n\nb\n\n");
    await reader.cancel();
  });

  it("lets frames sent right after a burst's last join its write", async () => {
    const streams = hub();
    const reader = streams.subscribe([], 60_000).getReader();
    const write = nextWrite(reader);
    streams.broadcast("end\n\n", true);
    streams.broadcast("after\n\n");
    expect(await Promise.race([write, nextTimer()])).toBe("end\n\nafter\n\n");
    await reader.cancel();
  });
});
