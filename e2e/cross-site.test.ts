import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../test-support/stack.ts";

const APP = "https://app.example.com";
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_search_content", arguments: { responseId: "none" } } });

let stack: Stack;

beforeAll(async () => {
  // Open (no tokens), as a developer runs it on their machine, with one other site's app allowed.
  stack = await startStack({ API_CORS_ORIGINS: APP });
});

afterAll(async () => {
  await stack?.stop();
});

/**
 * POSTs `head` and then up to `total` bytes with Transfer-Encoding: chunked (no Content-Length),
 * stopping once the server answers. Chunks are paced (each after the last is flushed): a server
 * that answers early closes with unread data, and a client still blasting would see only the reset.
 */
function postChunked(url: string, head: string, total: number): Promise<{ status: number; text: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d)).on("end", () => resolve({ status: res.statusCode ?? 0, text, sent }));
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(65_536, 0x61);
    const write = () => {
      if (answered) return;
      if (sent >= total) return void req.end();
      sent += chunk.byteLength;
      req.write(chunk, () => setTimeout(write, 1));
    };
    req.write(head, write);
  });
}

const post = (path: string, headers: Record<string, string>, body: string) => fetch(`${stack.url}${path}`, { method: "POST", headers, body });

describe("an open server under npm start and pages of other sites", () => {
  it("refuses a simple cross-site request (no preflight) with 403, and a body not sent as JSON with 415", async () => {
    const crossSite = await post("/api/sessions", { origin: "https://evil.example", "content-type": "text/plain" }, '{"source":"evil"}');
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as any).error.code).toBe("FORBIDDEN");
    expect(crossSite.headers.get("access-control-allow-origin")).toBeNull();
    const otherPort = await post("/api/sessions", { origin: "http://127.0.0.1:9", "content-type": "application/json" }, '{"source":"evil"}');
    expect(otherPort.status).toBe(403);

    const plain = await post("/api/sessions", { "content-type": "text/plain" }, '{"source":"curl"}');
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as any).error).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", message: expect.stringMatching(/Content-Type: application\/json/) });
    expect((await post("/api/sessions", { "content-type": "application/json" }, '{"source":"curl"}')).status).toBe(201);
  });

  it("gives the origin in API_CORS_ORIGINS a preflight answer and CORS headers", async () => {
    const preflight = await fetch(`${stack.url}/api/sessions`, {
      method: "OPTIONS",
      headers: { origin: APP, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(APP);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/);
    const created = await post("/api/sessions", { origin: APP, "content-type": "application/json" }, '{"source":"app"}');
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe(APP);
    expect(created.headers.get("access-control-expose-headers")).toMatch(/x-pi-protocol-version/i);
  });

  it("refuses an MCP batch hidden behind a UTF-8 BOM, and pages of the same host on another port", async () => {
    const batch = await post("/mcp", MCP_HEADERS, `\uFEFF${JSON.stringify([call(1), call(2), call(3)])}`);
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as any).error.code).toBe(-32600);
    const otherPort = await post("/mcp", { ...MCP_HEADERS, origin: "http://127.0.0.1:9" }, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(otherPort.status).toBe(403);
    const single = await post("/mcp", MCP_HEADERS, `\uFEFF${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}`);
    expect(single.status).toBe(200);
  });

  it("refuses a chunked session-source body over 1 MiB with 413 and keeps answering", async () => {
    const session = (await (await post("/api/sessions", { "content-type": "application/json" }, '{"source":"e2e"}')).json()) as any;
    const total = 256 * 1_048_576;
    const refused = await postChunked(`${stack.url}/api/session-source`, `{"id":"${session.sessionId}","source":"`, total);
    expect(refused.status).toBe(413);
    expect(refused.text).toMatch(/over 1048576 bytes/);
    // Refused while it streamed: the server answered long before the body was all sent.
    expect(refused.sent).toBeLessThan(total);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    const recorded = await post("/api/session-source", { "content-type": "application/json" }, JSON.stringify({ id: session.sessionId, source: "/agent" }));
    expect(recorded.status).toBe(204);
    const unknown = await post("/api/session-source", { "content-type": "application/json" }, JSON.stringify({ id: crypto.randomUUID(), source: "/agent" }));
    expect(unknown.status).toBe(404);
  });
});
