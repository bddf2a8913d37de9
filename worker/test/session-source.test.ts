import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { Env } from "../src/env.ts";
import { sessionSourceKey, sessionSourceRoute } from "../src/routes/session-source-route.ts";

const app = createApp({ routes: [sessionSourceRoute] });
const bindings = env as unknown as Env;

async function post(body: string) {
  const res = await app.request("/api/session-source", { method: "POST", headers: { "content-type": "application/json" }, body }, bindings);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("POST /api/session-source", () => {
  it("records the mapping in KV and answers 204 with no body", async () => {
    const id = crypto.randomUUID();
    const res = await post(JSON.stringify({ id, source: "/home/me/agent/session.jsonl" }));
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("x-pi-protocol-version")).toBe("0.1.0");
    expect(await bindings.CACHE.get(sessionSourceKey(id))).toBe("/home/me/agent/session.jsonl");
    expect(sessionSourceKey(id)).toBe(`session-source:${id}`);
  });

  it("still answers 204 when the mapping cannot be recorded", async () => {
    // KV keys are limited to 512 bytes, so this write fails.
    const id = "x".repeat(600);
    await expect(bindings.CACHE.put(sessionSourceKey(id), "s")).rejects.toThrow();
    const res = await post(JSON.stringify({ id, source: "s" }));
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
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
});
