import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UiMessageChunk } from "@edge-web/shared";
import type { Env } from "../src/env.ts";
import { createSessionStream } from "../src/session/session-stream.ts";
import { SessionSlot } from "../src/session/session-slot.ts";
import { sessionLimits } from "../src/session/session-stores.ts";

const bindings = env as unknown as Env;
const decoder = new TextDecoder();
/** Resolves on the runtime's next timer turn, after the timers already due. */
const nextTimer = () => new Promise<"nothing yet">((resolve) => setTimeout(() => resolve("nothing yet"), 0));
const after = (ms: number) => new Promise<"nothing yet">((resolve) => setTimeout(() => resolve("nothing yet"), ms));

const START: UiMessageChunk = { type: "start", messageId: "msg_1" };
const FINISH: UiMessageChunk = { type: "finish" };

/** A session's stream in a fresh session object's storage, with one subscriber reading it. */
async function withSubscriber(test: (stream: ReturnType<typeof createSessionStream>, slot: SessionSlot, read: () => Promise<string>) => Promise<void>) {
  const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, async (_instance, state: DurableObjectState) => {
    const slot = new SessionSlot(state.storage.sql, sessionLimits(bindings));
    slot.create({ sessionId: "s", owner: "open", source: "test" });
    const stream = createSessionStream(slot, 100, () => {});
    const reader = stream.subscribe(slot.stores!, new Headers(), 60_000).getReader();
    await test(stream, slot, () => reader.read().then(({ value }) => decoder.decode(value)));
    await reader.cancel();
  });
}

describe("session stream", () => {
  it("sends a turn's frames as soon as it goes quiet", async () => {
    await withSubscriber(async (stream, slot, read) => {
      const sink = stream.sink(slot.stores!, () => Number.POSITIVE_INFINITY);
      const write = read();
      sink.chunk(START);
      sink.chunk(FINISH);
      const sent = await Promise.race([write, nextTimer()]);
      expect(sent).toContain('"type":"start"');
      expect(sent).toContain('"type":"finish"');
    });
  });

  it("holds a direct call's frames for the batch window, so calls in a row share a write", async () => {
    await withSubscriber(async (stream, slot, read) => {
      const write = read();
      for (let call = 0; call < 2; call++) {
        const sink = stream.sink(slot.stores!, () => Number.POSITIVE_INFINITY, true);
        sink.chunk(START);
        sink.chunk(FINISH);
        expect(await Promise.race([write, nextTimer()])).toBe("nothing yet");
      }
      const sent = await Promise.race([write, after(200)]);
      expect(sent.match(/"type":"finish"/g)).toHaveLength(2);
    });
  });
});
