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

  it("names the same messages as list, with a revision that changes only when a message is put again", async () => {
    await withLog((log) => {
      for (const id of ["u1", "a1", "u2"]) log.put(message(id));
      log.flush();
      const before = log.revisions("a1");
      expect(before.map((m) => m.id)).toEqual(log.list("a1").map((m) => m.id));
      log.flush();
      expect(log.revisions("a1")).toEqual(before);
      log.put(message("a1", "a1 changed"));
      log.put(message("a2"));
      const after = log.revisions("a1");
      expect(after.map((m) => m.id)).toEqual(["a1", "u2", "a2"]);
      expect(after[0]!.revision).not.toBe(before[0]!.revision);
      expect(after[1]).toEqual(before[1]);
      expect(new Set(after.map((m) => m.revision)).size).toBe(3);
    });
  });

  it("reads messages by id in the order asked, pending states first, leaving out ids it does not hold", async () => {
    await withLog((log) => {
      for (const id of ["u1", "a1", "u2"]) log.put(message(id));
      log.flush();
      log.put(message("a1", "a1 changed"));
      log.put(message("u3"));
      expect(texts(log.read(["u3", "gone", "a1", "u1"]))).toEqual(["u3:u3", "a1:a1 changed", "u1:u1"]);
      expect(log.read([])).toEqual([]);
    });
  });

  it("reads a whole view's stored messages in one go, more than a statement may bind as values", async () => {
    await withLog((log) => {
      const ids = Array.from({ length: 100 }, (_, i) => `${i % 2 === 0 ? "u" : "a"}${i}`);
      for (const id of ids) log.put(message(id));
      log.flush();
      const wanted = [...ids, "gone"].reverse();
      expect(texts(log.read(wanted))).toEqual(ids.map((id) => `${id}:${id}`).reverse());
    });
  });

  it("gives a message put after a truncation a revision it never gave before, so nothing made from the old one is taken for it", async () => {
    await withLog((log) => {
      for (const id of ["u1", "a1"]) log.put(message(id));
      const first = log.revisions().find((m) => m.id === "a1")!.revision;
      log.truncateFrom("a1");
      log.put(message("a1", "a1 again"));
      const second = log.revisions().find((m) => m.id === "a1")!.revision;
      expect(second).not.toBe(first);
      expect(second).not.toBe(0);
      expect(texts(log.read(["a1"]))).toEqual(["a1:a1 again"]);
    });
  });

  it("remembers revisions for no more than twice its capacity of messages: one put before that reads as not put, never as a revision given again", async () => {
    const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(crypto.randomUUID()));
    await runInDurableObject(stub, (_instance, state: DurableObjectState) => {
      const log = createMessageLog(state.storage.sql, 2);
      for (const id of ["u1", "a1", "u2", "a2"]) log.put(message(id));
      const before = new Map(log.revisions().map((m) => [m.id, m.revision]));
      expect(before.get("a2")).toBe(4);
      // The fifth message put empties the map first: a2 is no longer remembered.
      log.put(message("u3"));
      const after = new Map(log.revisions().map((m) => [m.id, m.revision]));
      expect([...after]).toEqual([
        ["a2", 0],
        ["u3", 5],
      ]);
    });
  });
});
