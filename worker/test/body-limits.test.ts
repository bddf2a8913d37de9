import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { MULTIPART_ALLOWANCE_BYTES } from "../src/attachments/read-limited-form.ts";
import type { Env } from "../src/env.ts";
import { MAX_JSON_BODY_BYTES } from "../src/http/read-json-body.ts";
import { API_ROUTES } from "../src/openapi/api-route-table.ts";

const app = createApp();
const bindings: Env = { ...(env as unknown as Env), ATTACHMENT_SECRET: "test-attachment-secret-0123456789", ATTACHMENT_MAX_BYTES: "1024" };
const CHUNK = 65_536;
const MULTIPART = "multipart/form-data; boundary=XBOUNDARYX";
const encoder = new TextEncoder();

/** Where the body ends if nobody stops it: far over every cap, yet small enough that a route that buffers fails instead of hanging. */
const BODY_END = 8 * 1_048_576;

/** A chunked body (no Content-Length) that a route has to stop; counts what the server pulled and whether it cancelled. */
function endlessBody(head: string) {
  const seen = { bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.bytes >= BODY_END) return controller.close();
        const chunk = seen.bytes === 0 ? encoder.encode(head) : new Uint8Array(CHUNK).fill(0x61);
        seen.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

async function newSession(): Promise<string> {
  const res = await app.request("/api/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: '{"source":"limits"}' }, bindings);
  expect(res.status).toBe(201);
  return ((await res.json()) as { sessionId: string }).sessionId;
}

/** Every route of the table that takes a body (POST and PUT), with its parameters filled in. */
const bodyRoutes = API_ROUTES.filter((route) => route.method === "post" || route.method === "put");

describe("every route that takes a body caps it while it streams", () => {
  it("covers the routes that take a body", () => {
    const paths = bodyRoutes.map((r) => r.path);
    for (const path of ["/api/sessions", "/api/sessions/:id/tools/fetch_content", "/api/sessions/:id/messages", "/api/sessions/:id/abort", "/api/config/:domain", "/api/sessions/:id/attachments", "/api/session-source", "/mcp"]) {
      expect(paths).toContain(path);
    }
  });

  it.each(bodyRoutes.map((r) => [r.method.toUpperCase(), r.path] as const))("%s %s refuses an endless chunked body with 413 and keeps serving", async (method, pattern) => {
    const sessionId = await newSession();
    const path = pattern.replace(":id", sessionId).replace(":domain", "settings");
    const multipart = pattern.endsWith("/attachments");
    const head = multipart ? '--XBOUNDARYX\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n' : '{"id":"' + sessionId + '","source":"';
    const { stream, seen } = endlessBody(head);
    const headers: Record<string, string> = { "content-type": multipart ? MULTIPART : "application/json", accept: "application/json, text/event-stream" };
    const res = await app.request(path, { method, headers, body: stream, duplex: "half" } as RequestInit, bindings);
    expect(res.status).toBe(413);
    const text = await res.text();
    expect(text).toMatch(/bytes|Payload Too Large|larger|over/i);
    expect(seen.cancelled).toBe(true);
    const cap = multipart ? 1024 + MULTIPART_ALLOWANCE_BYTES : MAX_JSON_BODY_BYTES;
    expect(seen.bytes).toBeLessThanOrEqual(cap + 4 * CHUNK);
    // The server keeps serving, the same session included.
    const after = await app.request(`/api/sessions/${sessionId}/state`, {}, bindings);
    expect(after.status).toBe(200);
  });
});

describe("every JSON route refuses a body nested too deep", () => {
  // 50,000 nested objects (250 KB): JSON.parse reads them, and what walks a value whole may overflow the stack.
  const nested = `${'{"a":'.repeat(50_000)}"x"${"}".repeat(50_000)}`;
  const jsonRoutes = bodyRoutes.filter((route) => !route.path.endsWith("/attachments"));

  it.each(jsonRoutes.map((r) => [r.method.toUpperCase(), r.path] as const))("%s %s answers 400 and keeps serving", async (method, pattern) => {
    const sessionId = await newSession();
    const path = pattern.replace(":id", sessionId).replace(":domain", "settings");
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const res = await app.request(path, { method, headers, body: nested }, bindings);
    expect(res.status).toBe(400);
    const after = await app.request(`/api/sessions/${sessionId}/state`, {}, bindings);
    expect(after.status).toBe(200);
  });
});
