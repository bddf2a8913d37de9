import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { Env } from "../src/env.ts";
import { MAX_JSON_BODY_BYTES } from "../src/http/read-json-body.ts";
import { sessionSourceKey } from "../src/routes/session-source-route.ts";

const app = createApp();
const bindings = env as unknown as Env;
const secured: Partial<Env> = { API_TOKENS: "token-alice-0123, token-bob-0123", ADMIN_TOKEN: "token-admin-0123" };
const as = (token: string) => ({ authorization: `Bearer ${token}` });

async function post(body: BodyInit, overrides: Partial<Env> = {}, headers: Record<string, string> = {}) {
  const init = { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit;
  const res = await app.request("/api/session-source", init, { ...bindings, ...overrides });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function newSession(overrides: Partial<Env> = {}, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.request("/api/sessions", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"source":"t"}' }, { ...bindings, ...overrides });
  expect(res.status).toBe(201);
  return ((await res.json()) as { sessionId: string }).sessionId;
}

describe("POST /api/session-source", () => {
  it("records the mapping in KV and answers 204 with no body", async () => {
    const id = await newSession();
    const res = await post(JSON.stringify({ id, source: "/home/me/agent/session.jsonl" }));
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("x-pi-protocol-version")).toBe("0.1.0");
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBe("/home/me/agent/session.jsonl");
    expect(sessionSourceKey(id)).toBe(`session-source:${id}`);
  });

  it("still answers 204 when the mapping cannot be recorded", async () => {
    const id = await newSession();
    // A KV namespace whose writes fail, as a KV outage would make them.
    const failing = { ...bindings.CACHE, put: () => Promise.reject(new Error("KV unavailable")) } as unknown as KVNamespace;
    const res = await post(JSON.stringify({ id, source: "s" }), { CACHE: failing });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBeNull();
  });

  it.each([
    ["not JSON", "{nope"],
    ["an empty body", ""],
    ["a numeric id", JSON.stringify({ id: 1, source: "s" })],
    ["a missing source", JSON.stringify({ id: "a" })],
    ["null", "null"],
    ["an array", '["a", "b"]'],
  ])("answers 400 in plain text to %s", async (_label, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/id and source must be strings|body must be JSON/);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(res.headers.get("x-pi-protocol-version")).toBe("0.1.0");
  });

  it("answers 413 in plain text to a chunked body over the limit, without reading it all, and keeps serving", async () => {
    const id = await newSession();
    const seen = { bytes: 0, cancelled: false };
    const head = new TextEncoder().encode(`{"id":"${id}","source":"`);
    const chunked = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (seen.bytes > 64 * 1_048_576) return controller.close();
          const chunk = seen.bytes === 0 ? head : new Uint8Array(65_536).fill(0x61);
          seen.bytes += chunk.byteLength;
          controller.enqueue(chunk);
        },
        cancel() {
          seen.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const res = await post(chunked);
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toContain(String(MAX_JSON_BODY_BYTES));
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThan(MAX_JSON_BODY_BYTES + 4 * 65_536);
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBeNull();
    expect((await post(JSON.stringify({ id, source: "after" }))).status).toBe(204);
  });

  it("answers 415 in plain text to a body that is not sent as JSON", async () => {
    const id = await newSession();
    const res = await post(JSON.stringify({ id, source: "s" }), {}, { "content-type": "text/plain" });
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/Content-Type: application\/json/);
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBeNull();
  });

  it("answers an unknown session id as the session routes do, and writes nothing", async () => {
    for (const id of [crypto.randomUUID(), "not-a-session", "x".repeat(600)]) {
      const res = await post(JSON.stringify({ id, source: "s" }));
      expect(res.status, id).toBe(404);
      expect(JSON.parse(res.text).error.code).toBe("SESSION_NOT_FOUND");
      expect(await bindings.CACHE.get(sessionSourceKey(id.slice(0, 400)))).toBeNull();
    }
  });

  it("lets only a caller that may use the session write its source", async () => {
    const id = await newSession(secured, as("token-alice-0123"));
    const bob = await post(JSON.stringify({ id, source: "/bob" }), secured, as("token-bob-0123"));
    expect(bob.status).toBe(403);
    expect(JSON.parse(bob.text).error.code).toBe("FORBIDDEN");
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBeNull();
    expect((await post(JSON.stringify({ id, source: "/x" }), secured)).status).toBe(401);
    expect((await post(JSON.stringify({ id, source: "/alice" }), secured, as("token-alice-0123"))).status).toBe(204);
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBe("/alice");
    expect((await post(JSON.stringify({ id, source: "/admin" }), secured, as("token-admin-0123"))).status).toBe(204);
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBe("/admin");
  });
});
