import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { Env } from "../src/env.ts";

const app = createApp();
const bindings = env as unknown as Env;
type Answer = { error: { code: string | number; message: string } };

const send = (url: string, init: RequestInit = {}, overrides: Partial<Env> = {}) => app.request(url, init, { ...bindings, ...overrides });
const createSession = (url: string, headers: Record<string, string>, overrides: Partial<Env> = {}) =>
  send(url, { method: "POST", headers, body: '{"source":"origin-test"}' }, overrides);
const JSON_TYPE = { "content-type": "application/json" };
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const mcp = (url: string, body: string, headers: Record<string, string> = {}, overrides: Partial<Env> = {}) =>
  send(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body }, overrides);
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const CALL = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_search_content", arguments: { responseId: "none" } } });

describe("an open server refuses pages of other sites", () => {
  it("answers 403 to an Origin it does not serve, whatever the content type", async () => {
    for (const origin of ["https://evil.example", "http://127.0.0.1:9999", "https://127.0.0.1:8787", "null"]) {
      const refused = await createSession("http://127.0.0.1:8787/api/sessions", { origin, "content-type": "text/plain" });
      expect(refused.status, origin).toBe(403);
      const body = (await refused.json()) as Answer;
      expect(body.error.code).toBe("FORBIDDEN");
      expect(body.error.message).toMatch(/API_CORS_ORIGINS/);
    }
    // A read is refused too: an open server has nothing to show to another site.
    expect((await send("http://127.0.0.1:8787/api/config/models", { headers: { origin: "https://evil.example" } })).status).toBe(403);
  });

  it("serves its own origin, the names in SERVED_HOSTNAMES on the addressed port, and no Origin at all", async () => {
    expect((await createSession("http://127.0.0.1:8787/api/sessions", { ...JSON_TYPE, origin: "http://127.0.0.1:8787" })).status).toBe(201);
    expect((await createSession("http://127.0.0.1:8787/api/sessions", JSON_TYPE)).status).toBe(201);
    const named = { SERVED_HOSTNAMES: "tools.example.org" };
    for (const origin of ["http://tools.example.org", "https://tools.example.org"]) {
      expect((await createSession("http://tools.example.org/api/sessions", { ...JSON_TYPE, origin }, named)).status, origin).toBe(201);
    }
    expect((await createSession("http://127.0.0.1:8787/api/sessions", { ...JSON_TYPE, origin: "https://tools.example.org:8787" }, named)).status).toBe(201);
    expect((await createSession("http://127.0.0.1:8787/api/sessions", { ...JSON_TYPE, origin: "https://tools.example.org" }, named)).status).toBe(403);
  });

  it("leaves the Origin to CORS once API tokens are set", async () => {
    const secured = { API_TOKENS: "tok-origin-0123456789" };
    const res = await createSession("http://127.0.0.1:8787/api/sessions", { ...JSON_TYPE, origin: "https://evil.example", authorization: "Bearer tok-origin-0123456789" }, secured);
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("JSON routes take JSON only", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", "text/json"])("answers 415 to a body sent as %s", async (type) => {
    const res = await createSession("http://127.0.0.1/api/sessions", { "content-type": type });
    expect(res.status).toBe(415);
    const body = (await res.json()) as Answer;
    expect(body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(body.error.message).toMatch(/Content-Type: application\/json/);
  });

  it("answers 415 to a body without a content type, on tool and config routes too", async () => {
    expect((await send("http://127.0.0.1/api/sessions", { method: "POST", body: '{"source":"x"}' })).status).toBe(415);
    const created = (await (await createSession("http://127.0.0.1/api/sessions", JSON_TYPE)).json()) as { sessionId: string };
    const tool = await send(`http://127.0.0.1/api/sessions/${created.sessionId}/tools/get_search_content`, { method: "POST", headers: { "content-type": "text/plain" }, body: '{"responseId":"x"}' });
    expect(tool.status).toBe(415);
    const config = await send("http://127.0.0.1/api/config/settings", { method: "PUT", headers: { "content-type": "text/plain" }, body: '{"values":{}}' });
    expect(config.status).toBe(415);
  });

  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON ; charset=UTF-8", "application/merge-patch+json"])("accepts %s", async (type) => {
    expect((await createSession("http://127.0.0.1/api/sessions", { "content-type": type })).status).toBe(201);
  });

  it("accepts an empty body with no content type (abort), and a body with a UTF-8 BOM", async () => {
    const created = (await (await createSession("http://127.0.0.1/api/sessions", JSON_TYPE)).json()) as { sessionId: string };
    expect((await send(`http://127.0.0.1/api/sessions/${created.sessionId}/abort`, { method: "POST" })).status).toBe(200);
    const bom = await send("http://127.0.0.1/api/sessions", { method: "POST", headers: JSON_TYPE, body: '\uFEFF{"source":"bom"}' });
    expect(bom.status).toBe(201);
  });
});

describe("API_CORS_ORIGINS", () => {
  const cors = { API_CORS_ORIGINS: "https://app.example.com, http://localhost:5173", API_TOKENS: "tok-cors-0123456789" };
  const auth = { authorization: "Bearer tok-cors-0123456789" };

  it("answers a listed origin's preflight with 204 and what it may send", async () => {
    for (const path of ["/api/sessions", "/mcp"]) {
      const res = await send(`http://tools.example.org${path}`, { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } }, cors);
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
      const allowed = res.headers.get("access-control-allow-headers")!.split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["authorization", "content-type", "last-event-id", "x-pi-protocol-version"]));
      expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
      expect(res.headers.get("vary")).toMatch(/Origin/i);
    }
  });

  it("adds CORS headers to a listed origin's answers, errors included", async () => {
    const created = await createSession("http://tools.example.org/api/sessions", { ...JSON_TYPE, ...auth, origin: "http://localhost:5173" }, cors);
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(created.headers.get("vary")).toMatch(/Origin/i);
    expect(created.headers.get("access-control-expose-headers")).toMatch(/x-pi-protocol-version/i);
    const refused = await createSession("http://tools.example.org/api/sessions", { ...JSON_TYPE, origin: "https://app.example.com" }, cors);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const listed = await mcp("http://tools.example.org/mcp", LIST, { ...auth, origin: "https://app.example.com" }, cors);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
  });

  it("gives origins not listed no CORS headers", async () => {
    for (const origin of ["https://evil.example", "https://app.example.com:8443", "http://app.example.com"]) {
      const preflight = await send("http://tools.example.org/api/sessions", { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST" } }, cors);
      expect(preflight.headers.get("access-control-allow-origin"), origin).toBeNull();
      expect(preflight.status).not.toBe(204);
      const res = await createSession("http://tools.example.org/api/sessions", { ...JSON_TYPE, ...auth, origin }, cors);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("access-control-allow-methods")).toBeNull();
    }
  });

  it("lets a listed origin call an open server", async () => {
    const res = await createSession("http://127.0.0.1:8787/api/sessions", { ...JSON_TYPE, origin: "https://app.example.com" }, { API_CORS_ORIGINS: "https://app.example.com" });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
  });

  it("answers 500 naming the variable when an entry is not an origin", async () => {
    for (const bad of ["app.example.com", "https://app.example.com/path", "ftp://files.example"]) {
      const res = await createSession("http://127.0.0.1/api/sessions", JSON_TYPE, { API_CORS_ORIGINS: bad });
      expect(res.status, bad).toBe(500);
      const body = (await res.json()) as Answer;
      expect(body.error).toMatchObject({ code: "INTERNAL_ERROR", message: expect.stringMatching(/API_CORS_ORIGINS/) });
    }
  });
});

describe("MCP's Origin check and batches", () => {
  it("compares scheme, host and port", async () => {
    for (const origin of ["http://127.0.0.1:9999", "https://127.0.0.1:8787", "http://localhost:8787", "null"]) {
      const refused = await mcp("http://127.0.0.1:8787/mcp", LIST, { origin });
      expect(refused.status, origin).toBe(403);
      expect(((await refused.json()) as Answer).error.code).toBe(-32000);
    }
    expect((await mcp("http://127.0.0.1:8787/mcp", LIST, { origin: "http://127.0.0.1:8787" })).status).toBe(200);
    const secured = { API_TOKENS: "tok-mcp-0123456789" };
    const foreign = await mcp("http://tools.example.org/mcp", LIST, { origin: "https://evil.example", authorization: "Bearer tok-mcp-0123456789" }, secured);
    expect(foreign.status).toBe(403);
  });

  it.each([
    ["a batch", `[${CALL(1)},${CALL(2)}]`],
    ["a batch after a BOM", `\uFEFF[${CALL(1)},${CALL(2)},${CALL(3)}]`],
    ["a batch after a BOM and whitespace", `\uFEFF \n[${CALL(1)}]`],
    ["an empty batch", "[]"],
  ])("refuses %s with NO_BATCHES", async (_label, body) => {
    const res = await mcp("http://127.0.0.1/mcp", body);
    expect(res.status).toBe(400);
    const answer = (await res.json()) as Answer;
    expect(answer.error).toMatchObject({ code: -32600, message: expect.stringMatching(/one JSON-RPC request per HTTP request/) });
  });

  it("still serves one request after a BOM, and answers a parse error to a body that is not JSON", async () => {
    expect((await mcp("http://127.0.0.1/mcp", `\uFEFF${LIST}`)).status).toBe(200);
    const broken = await mcp("http://127.0.0.1/mcp", "{nope");
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as Answer).error.code).toBe(-32700);
  });
});
