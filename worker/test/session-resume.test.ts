import { describe, expect, it } from "vitest";
import type { Env } from "../src/env.ts";
import { call } from "./helpers.ts";

const secured: Partial<Env> = { API_TOKENS: "token-alice, token-bob", ADMIN_TOKEN: "token-admin" };
const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const create = (token: string, body: object) => call("POST", "/api/sessions", { source: "resume-test", ...body }, secured, as(token));
const history = async (id: string, token: string) => (await call("GET", `/api/sessions/${id}/messages?format=ui`, undefined, secured, as(token))).body.messages as unknown[];

/** A session of `token` with one direct call in its history. */
async function usedSession(token: string): Promise<string> {
  const id = (await create(token, {})).body.sessionId as string;
  await call("POST", `/api/sessions/${id}/tools/get_search_content`, { responseId: "nothing-stored" }, secured, as(token));
  expect(await history(id, token)).toHaveLength(1);
  return id;
}

describe("POST /api/sessions with resumeId", () => {
  it("answers the caller's own session, reused with its history", async () => {
    const id = await usedSession("token-alice");
    const resumed = await create("token-alice", { resumeId: id });
    expect(resumed).toMatchObject({ status: 201, body: { sessionId: id } });
    expect(await history(id, "token-alice")).toHaveLength(1);
    // The id's case does not make it another session.
    expect((await create("token-alice", { resumeId: id.toUpperCase() })).body.sessionId).toBe(id);
  });

  it("answers a new, empty session for an unknown id, a malformed one or another caller's session, which stays untouched", async () => {
    const alices = await usedSession("token-alice");
    for (const [token, resumeId] of [["token-bob", alices], ["token-admin", alices], ["token-alice", crypto.randomUUID()], ["token-alice", "not-a-session"], ["token-alice", ""]] as const) {
      const created = await create(token, { resumeId });
      expect(created.status, `${token} ${resumeId}`).toBe(201);
      const id = created.body.sessionId as string;
      expect(id, `${token} ${resumeId}`).not.toBe(alices);
      expect(id).not.toBe(resumeId);
      expect(await history(id, token)).toEqual([]);
    }
    expect(await history(alices, "token-alice")).toHaveLength(1);
  });

  it("answers a new session for a deleted one", async () => {
    const id = await usedSession("token-alice");
    expect((await call("DELETE", `/api/sessions/${id}`, undefined, secured, as("token-alice"))).status).toBe(200);
    const created = await create("token-alice", { resumeId: id });
    expect(created.status).toBe(201);
    expect(created.body.sessionId).not.toBe(id);
  });

  it("refuses a resumeId that is not a string, as any field of the wrong type", async () => {
    const res = await create("token-alice", { resumeId: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", fields: ["resumeId"] });
  });
});
