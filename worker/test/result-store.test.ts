import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { StoredResult } from "@edge-web/shared";
import type { Env } from "../src/env.ts";
import { createResultStore, type SessionResultStore } from "../src/session/result-store.ts";

const bindings = env as unknown as Env;
const page = (responseId: string): StoredResult => ({ kind: "fetch", responseId, results: [{ url: `https://example.test/${responseId}`, content: responseId, truncated: false }] });

/** A result store in a fresh session object's storage, and what that storage holds. */
async function withStore(test: (store: SessionResultStore, storedIds: () => string[], reopen: () => SessionResultStore) => void) {
  const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance, state: DurableObjectState) => {
    const sql = state.storage.sql;
    const storedIds = () => sql.exec<{ response_id: string }>("SELECT response_id FROM results ORDER BY seq").toArray().map((row) => row.response_id);
    test(createResultStore(sql), storedIds, () => createResultStore(sql));
  });
}

const visible = (store: SessionResultStore, ids: string[]) => ids.filter((id) => store.get(id) !== undefined);

describe("result store", () => {
  it("shows no more than the cap before a flush writes and trims: saved ones over it are gone at once", async () => {
    await withStore((store, storedIds) => {
      for (const id of ["r1", "r2", "r3"]) store.save(page(id), 2);
      expect(visible(store, ["r1", "r2", "r3"])).toEqual(["r2", "r3"]);
      expect(store.summaries().map((s) => s.responseId)).toEqual(["r3", "r2"]);
      expect(storedIds()).toEqual([]);
      store.flush();
      expect(storedIds()).toEqual(["r2", "r3"]);
      expect(visible(store, ["r1", "r2", "r3"])).toEqual(["r2", "r3"]);
    });
  });

  it("hides a stored result the next flush will trim, as soon as newer ones are saved", async () => {
    await withStore((store, storedIds) => {
      for (const id of ["r1", "r2", "r3"]) store.save(page(id), 3);
      store.flush();
      store.save(page("r4"), 3);
      expect(visible(store, ["r1", "r2", "r3", "r4"])).toEqual(["r2", "r3", "r4"]);
      expect(store.summaries().map((s) => s.responseId)).toEqual(["r4", "r3", "r2"]);
      // A lower cap applies to what reads see at once.
      store.save(page("r5"), 2);
      expect(visible(store, ["r1", "r2", "r3", "r4", "r5"])).toEqual(["r4", "r5"]);
      expect(store.summaries().map((s) => s.responseId)).toEqual(["r5", "r4"]);
      store.flush();
      expect(storedIds()).toEqual(["r4", "r5"]);
      expect(visible(store, ["r1", "r2", "r3", "r4", "r5"])).toEqual(["r4", "r5"]);
    });
  });

  it("reads everything stored when it opens after a restart, before anything is saved", async () => {
    await withStore((store, _storedIds, reopen) => {
      for (const id of ["r1", "r2"]) store.save(page(id), 5);
      store.flush();
      const reopened = reopen();
      expect(reopened.get("r1")).toEqual(page("r1"));
      expect(reopened.summaries().map((s) => s.responseId)).toEqual(["r2", "r1"]);
    });
  });
});
