import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SessionMessage } from "@edge-web/shared";
import type { Env } from "../src/env.ts";
import { createMessageLog, type MessageLog } from "../src/session/message-log.ts";

const bindings = env as unknown as Env;
const message = (id: string, text = id): SessionMessage => ({ id, role: id.startsWith("u") ? "user" : "assistant", parts: [{ type: "text", text }] });
const texts = (messages: SessionMessage[]) => messages.map((m) => `${m.id}:${(m.parts[0] as unknown as { text: string }).text}`);

/** A message log in a fresh session object's storage. */
async function withLog(test: (log: MessageLog) => void) {
  const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance, state: DurableObjectState) => test(createMessageLog(state.storage.sql, 100)));
}

describe("message log", () => {
  it("lists from a stored message on, with pending states over it and pending new messages after it, but not an earlier message's newer state", async () => {
    await withLog((log) => {
      for (const id of ["u1", "a1", "u2", "a2"]) log.put(message(id));
      log.flush();
      log.put(message("a1", "a1 changed"));
      log.put(message("a2", "a2 changed"));
      log.put(message("u3"));
      expect(texts(log.list("u2"))).toEqual(["u2:u2", "a2:a2 changed", "u3:u3"]);
      expect(texts(log.list())).toEqual(["u1:u1", "a1:a1 changed", "u2:u2", "a2:a2 changed", "u3:u3"]);
      log.flush();
      expect(texts(log.list("a2"))).toEqual(["a2:a2 changed", "u3:u3"]);
    });
  });

  it("lists everything when the message to start from is not stored: gone, or not yet written", async () => {
    await withLog((log) => {
      for (const id of ["u1", "a1"]) log.put(message(id));
      log.flush();
      log.put(message("u2"));
      const all = ["u1:u1", "a1:a1", "u2:u2"];
      expect(texts(log.list("gone"))).toEqual(all);
      expect(texts(log.list("u2"))).toEqual(all);
    });
  });
});
