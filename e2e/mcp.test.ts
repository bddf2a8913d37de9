import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPdf } from "../sidecar/test/support/document-fixtures.ts";
import { send, startOrigin, type Origin, routes } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const ALICE = "alice-mcp-token-0123456789";
const BOB = "bob-mcp-token-0123456789";
const PAGE = `<!doctype html><html><head><title>MCP page</title></head><body><article><h1>Read over MCP</h1>
<p>This paragraph reached an MCP client as Markdown, fetched from a loopback origin.</p></article></body></html>`;
const SEARXNG = JSON.stringify({
  results: [{ title: "MCP page", url: "http://127.0.0.2/page.html", content: "A page found by the fake search engine." }],
});

let stack: Stack;
let origin: Origin;

beforeAll(async () => {
  const pdf = Buffer.from(await buildPdf({ pages: [{ heading: "Converted over MCP", paragraphs: ["A PDF read by an MCP client."] }] }));
  origin = await startOrigin(
    "127.0.0.2",
    routes({ "/page.html": send(200, "text/html; charset=utf-8", PAGE), "/search": send(200, "application/json", SEARXNG), "/doc.pdf": send(200, "application/pdf", pdf) }),
  );
  stack = await startStack({
    API_TOKENS: `${ALICE},${BOB}`,
    WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], provider: "searxng", searxng: { enabled: true, baseUrl: origin.url } }),
  });
});

afterAll(async () => {
  await stack?.stop();
  await origin?.close();
});

const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function modern(token: string) {
  const client = new ModernClient({ name: "e2e-modern", version: "1.0.0" });
  await client.connect(new ModernTransport(new URL(`${stack.url}/mcp`), { requestInit: auth(token) }));
  return client;
}

async function legacy(token: string) {
  const client = new LegacyClient({ name: "e2e-legacy", version: "1.0.0" });
  await client.connect(new LegacyTransport(new URL(`${stack.url}/mcp`), { requestInit: auth(token) }));
  return client;
}

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: any; _meta?: any };
const text = (result: ToolResult) => result.content.map((c) => c.text ?? "").join("\n");

describe("MCP at /mcp", () => {
  for (const [era, connect] of [
    ["2026-07-28 client (v2 SDK)", modern],
    ["2025-11-25 client (v1 SDK)", legacy],
  ] as const) {
    it(`lists the four tools with their schemas to a ${era}`, async () => {
      const client = await connect(ALICE);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["convert_content", "crawl", "crawl_status", "fetch_content", "get_search_content", "map", "web_search"]);
      const fetchTool = tools.find((t) => t.name === "fetch_content")!;
      expect(fetchTool.description).toMatch(/Markdown/);
      expect(Object.keys(fetchTool.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["url", "urls", "preferReader"]));
      expect(fetchTool.outputSchema?.properties).toHaveProperty("results");
      const getTool = tools.find((t) => t.name === "get_search_content")!;
      expect(getTool.inputSchema.required).toEqual(["responseId"]);
      const params = getTool.inputSchema.properties as Record<string, { type?: string; description?: string }>;
      for (const name of ["offset", "maxChars", "find", "resultIndex"]) expect(params[name]?.description, name).toBeTruthy();
      expect(params.offset).toMatchObject({ type: "integer", minimum: 0, description: expect.stringMatching(/nextOffset/) });
      expect(params.maxChars).toMatchObject({ type: "integer", minimum: 1 });
      expect(params.find).toMatchObject({ type: "string", description: expect.stringMatching(/\/pattern\/flags/) });
      expect(getTool.outputSchema).toMatchObject({ type: "object" });
      expect(Object.keys(getTool.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(["result", "offset", "end", "totalChars", "nextOffset", "passages", "matchCount", "capped"]));
      await client.close();
    });

    it(`runs fetch_content, then get_search_content on its responseId, in the caller's session (${era})`, async () => {
      const client = await connect(ALICE);
      const fetched = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}/page.html` } })) as ToolResult;
      expect(fetched.isError).toBeFalsy();
      const result = fetched.structuredContent.results[0];
      expect(result.content).toContain("This paragraph reached an MCP client as Markdown");
      expect(text(fetched)).toContain("# Read over MCP");
      expect(text(fetched)).toContain(`responseId: ${fetched.structuredContent.responseId}`);
      const sessionId = fetched._meta?.sessionId as string;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

      const again = (await client.callTool({ name: "get_search_content", arguments: { responseId: fetched.structuredContent.responseId, urlIndex: 0 } })) as ToolResult;
      expect(again.isError).toBeFalsy();
      expect(again.structuredContent.result.content).toBe(result.content);
      expect(again._meta?.sessionId).toBe(sessionId);

      // The SDK checks structured answers against the advertised outputSchema, so these also hold to it.
      const responseId = fetched.structuredContent.responseId;
      const window = (await client.callTool({ name: "get_search_content", arguments: { responseId, urlIndex: 0, maxChars: 20 } })) as ToolResult;
      expect(window.isError).toBeFalsy();
      expect(window.structuredContent).toMatchObject({ offset: 0, totalChars: result.content.length, nextOffset: window.structuredContent.end });
      expect(window.structuredContent.result.content).toBe(result.content.slice(0, window.structuredContent.end));
      expect(text(window)).toContain(`nextOffset: ${window.structuredContent.end}`);
      const found = (await client.callTool({ name: "get_search_content", arguments: { responseId, find: "mcp client" } })) as ToolResult;
      expect(found.isError).toBeFalsy();
      const offset = result.content.indexOf("MCP client");
      expect(found.structuredContent).toMatchObject({ matchCount: 1, passages: [{ urlIndex: 0, matches: [{ offset, length: 10 }] }] });
      expect(text(found)).toContain('1 match(es) for "mcp client"');
      const refused = (await client.callTool({ name: "get_search_content", arguments: { responseId, urlIndex: 0, offset: -1 } })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^INVALID_INPUT: .*offset/);
      await client.close();
    });
  }

  it("runs web_search through the configured provider", async () => {
    const client = await modern(ALICE);
    const searched = (await client.callTool({ name: "web_search", arguments: { query: "mcp page" } })) as ToolResult;
    expect(searched.isError).toBeFalsy();
    expect(searched.structuredContent.queries[0].results[0]).toMatchObject({ title: "MCP page", url: "http://127.0.0.2/page.html" });
    expect(text(searched)).toContain("[MCP page](http://127.0.0.2/page.html)");
    await client.close();
  });

  it("runs convert_content on a PDF", async () => {
    const client = await modern(ALICE);
    const converted = (await client.callTool({ name: "convert_content", arguments: { url: `${origin.url}/doc.pdf` } })) as ToolResult;
    expect(converted.isError).toBeFalsy();
    expect(converted.structuredContent).toMatchObject({ provider: "unpdf", metadata: { pages: { total: 1, included: 1 } } });
    expect(text(converted)).toContain("A PDF read by an MCP client.");
    const refused = (await client.callTool({ name: "convert_content", arguments: { url: "ftp://127.0.0.2/doc.pdf" } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^UNSUPPORTED_PROTOCOL: /);
    await client.close();
  });

  it("shows MCP calls in the caller's session stats and stream, and keeps callers apart", async () => {
    const client = await modern(ALICE);
    const fetched = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}/page.html` } })) as ToolResult;
    const sessionId = fetched._meta.sessionId as string;
    await client.close();

    const stats = (await (await fetch(`${stack.url}/api/sessions/${sessionId}/stats`, auth(ALICE))).json()) as any;
    expect(stats.stats.toolCalls).toBeGreaterThanOrEqual(1);

    const stream = await fetch(`${stack.url}/api/sessions/${sessionId}/stream`, { headers: { ...auth(ALICE).headers, "last-event-id": "0" } });
    expect(stream.status).toBe(200);
    const reader = sseReader(stream.body!);
    let sawCall = false;
    for (let frame = await reader.next(); frame && !sawCall; frame = await reader.next()) {
      const chunk = frame.data?.kind === "uiMessageChunk" ? frame.data.chunk : undefined;
      sawCall = chunk?.type === "tool-input-available" && chunk.toolName === "fetch_content";
    }
    await reader.cancel();
    expect(sawCall).toBe(true);

    // Bob's calls run in Bob's session: Alice's responseId is not his to read, and her session is not his.
    const bob = await modern(BOB);
    const read = (await bob.callTool({ name: "get_search_content", arguments: { responseId: fetched.structuredContent.responseId } })) as ToolResult;
    expect(read.isError).toBe(true);
    expect(text(read)).toMatch(/^NOT_FOUND: /);
    expect((await fetch(`${stack.url}/api/sessions/${sessionId}/stats`, auth(BOB))).status).toBe(403);
    await bob.close();
  });

  it("moves the caller to a new session when theirs was deleted", async () => {
    const client = await modern(ALICE);
    const first = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}/page.html` } })) as ToolResult;
    const deleted = await fetch(`${stack.url}/api/sessions/${first._meta.sessionId}`, { method: "DELETE", ...auth(ALICE) });
    expect(deleted.status).toBe(200);
    const second = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}/page.html` } })) as ToolResult;
    expect(second.isError).toBeFalsy();
    expect(second._meta.sessionId).not.toBe(first._meta.sessionId);
    const stats = (await (await fetch(`${stack.url}/api/sessions/${second._meta.sessionId}/stats`, auth(ALICE))).json()) as any;
    expect(stats.stats.toolCalls).toBe(1);
    await client.close();
  });

  it("answers failures as isError with the canonical code", async () => {
    const client = await modern(ALICE);
    const invalid = (await client.callTool({ name: "fetch_content", arguments: { urls: "not-a-list" } })) as ToolResult;
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^INVALID_INPUT: .*urls/);
    const blocked = (await client.callTool({ name: "fetch_content", arguments: { url: "http://127.0.0.1:9/private" } })) as ToolResult;
    expect(blocked.isError).toBe(true);
    expect(text(blocked)).toMatch(/^CONTENT_FETCH_FAILED: /);
    // The service keeps serving after failures.
    const fine = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}/page.html` } })) as ToolResult;
    expect(fine.isError).toBeFalsy();
    await client.close();
  });

  it("refuses callers without a valid token and pages from other origins", async () => {
    await expect(modern("wrong-token")).rejects.toThrow();
    const noToken = await fetch(`${stack.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await noToken.json()) as any).error.code).toBe("UNAUTHORIZED");

    const foreign = await fetch(`${stack.url}/mcp`, {
      method: "POST",
      headers: { ...auth(ALICE).headers, origin: "https://attacker.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(foreign.status).toBe(403);
  });
});
