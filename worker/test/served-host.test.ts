import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { Env } from "../src/env.ts";

const app = createApp();
const bindings = env as unknown as Env;

const createSession = (url: string, overrides: Partial<Env> = {}, headers: Record<string, string> = {}) =>
  app.request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"source":"host-test"}' }, { ...bindings, ...overrides });

const mcpList = (url: string, headers: Record<string, string>, overrides: Partial<Env> = {}) =>
  app.request(
    url,
    { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) },
    { ...bindings, ...overrides },
  );

describe("an open server (no API tokens) answers only requests addressed to this machine", () => {
  it("serves loopback names and refuses other hosts, as a rebound page would send them", async () => {
    for (const host of ["localhost", "127.0.0.1", "127.3.4.5", "[::1]", "app.localhost"]) {
      expect((await createSession(`http://${host}/api/sessions`)).status, host).toBe(201);
    }
    for (const host of ["evil.example", "127.0.0.1.evil.example", "10.0.0.5", "localhost.evil.example"]) {
      const refused = await createSession(`http://${host}/api/sessions`);
      expect(refused.status, host).toBe(403);
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/SERVED_HOSTNAMES/) });
    }
  });

  it("serves the names in SERVED_HOSTNAMES, and any host once API tokens are set", async () => {
    expect((await createSession("http://tools.example.org/api/sessions", { SERVED_HOSTNAMES: "other.test, tools.example.org" })).status).toBe(201);
    expect((await createSession("http://tools.example.org/api/sessions", { API_TOKENS: "tok-0123456789" }, { authorization: "Bearer tok-0123456789" })).status).toBe(201);
  });

  it("refuses MCP from a rebound page whose Host and Origin agree, and from pages of other hosts", async () => {
    const rebound = await mcpList("http://evil.example:8787/mcp", { origin: "http://evil.example:8787" });
    expect(rebound.status).toBe(403);
    const foreign = await mcpList("http://127.0.0.1:8787/mcp", { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    const sameOrigin = await mcpList("http://127.0.0.1:8787/mcp", { origin: "http://127.0.0.1:8787" });
    expect(sameOrigin.status).toBe(200);
  });

  it("refuses MCP bodies over the JSON body limit", async () => {
    const huge = await app.request(
      "http://127.0.0.1/mcp",
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fetch_content", arguments: { url: "x".repeat(1_100_000) } } }),
      },
      bindings,
    );
    expect(huge.status).toBe(413);
  });

  it("refuses JSON-RPC batches on /mcp", async () => {
    const batch = await app.request(
      "http://127.0.0.1/mcp",
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: ` [${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })},${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}]`,
      },
      bindings,
    );
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });
});
