import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UiMessageChunk } from "@edge-web/shared";
import type { Env } from "../src/env.ts";
import { createSessionStream } from "../src/session/session-stream.ts";
import { HeldSession } from "../src/session/held-session.ts";
import { sessionLimits } from "../src/session/session-stores.ts";

const bindings = env as unknown as Env;
const decoder = new TextDecoder();
/** Resolves on the runtime's next timer turn, after the timers already due. */
const nextTimer = () => new Promise<"nothing yet">((resolve) => setTimeout(() => resolve("nothing yet"), 0));

const START: UiMessageChunk = { type: "start", messageId: "msg_1" };
const FINISH: UiMessageChunk = { type: "finish" };

/** A session's stream in a fresh session object's storage, with one subscriber reading it. */
async function withSubscriber(test: (stream: ReturnType<typeof createSessionStream>, held: HeldSession, read: () => Promise<string>) => Promise<void>) {
  const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, async (_instance, state: DurableObjectState) => {
    const held = new HeldSession(state.storage.sql, sessionLimits(bindings));
    held.create({ sessionId: "s", owner: "open", source: "test" });
    const stream = createSessionStream(held, 100, () => {});
    const reader = stream.subscribe(held.stores!, new Headers(), 60_000).getReader();
    await test(stream, held, () => reader.read().then(({ value }) => decoder.decode(value)));
    await reader.cancel();
  });
}

describe("session stream", () => {
  it("sends a turn's frames as soon as it goes quiet", async () => {
    await withSubscriber(async (stream, held, read) => {
      const sink = stream.sink(held.stores!, () => Number.POSITIVE_INFINITY);
      const write = read();
      sink.chunk(START);
      sink.chunk(FINISH);
      const sent = await Promise.race([write, nextTimer()]);
      expect(sent).toContain('"type":"start"');
      expect(sent).toContain('"type":"finish"');
    });
  });

  it("holds a direct call's frames for the batch window, so calls in a row share a write", async () => {
    await withSubscriber(async (stream, held, read) => {
      const write = read();
      for (let call = 0; call < 2; call++) {
        const sink = stream.sink(held.stores!, () => Number.POSITIVE_INFINITY, true);
        sink.chunk(START);
        sink.chunk(FINISH);
        expect(await Promise.race([write, nextTimer()])).toBe("nothing yet");
      }
      // Nothing else sends them: they go together when the window ends.
      expect((await write).match(/"type":"finish"/g)).toHaveLength(2);
    });
  });
});
