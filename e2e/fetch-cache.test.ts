import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheOriginRoutes, type PageLog } from "../test-support/cache-origin.ts";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, startOrigin, type Origin } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const KEY = "sk-e2e-fetch-cache-key-0123456789";

describe("the fetch cache over npm start's stack", () => {
  let origin: Origin;
  let model: FakeModelServer;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-fetch-cache-"));

  beforeAll(async () => {
    origin = await startOrigin("127.0.0.46", routes(cacheOriginRoutes()));
    model = await startFakeOpenAI({ apiKey: KEY, models: ["e2e-model"] });
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.46"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY } }, defaultModel: "e2e-model" }),
      PERSIST_DIR: persist,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await model?.close();
    await origin?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);
  const newSession = async () => (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId as string;
  const fetchContent = async (id: string, params: object) => (await api("POST", `/api/sessions/${id}/tools/fetch_content`, params)).body;
  const own = (path: string) => `${origin.url}/cache/${path}?k=${crypto.randomUUID()}`;
  const logOf = async (url: string) => (await (await fetch(`${origin.url}/cache/log?page=${encodeURIComponent(url.slice(origin.url.length))}`)).json()) as PageLog;

  it("reads a page from its origin once for every session; the answers say when and whether from the cache", async () => {
    const url = own("changing");
    const first = (await fetchContent(await newSession(), { url })).results[0];
    expect(first).toMatchObject({ content: "Read 1 of this page.", fromCache: false, fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const id = await newSession();
    expect((await fetchContent(id, { url })).results[0]).toEqual({ ...first, fromCache: true });
    expect((await fetchContent(id, { url, maxAge: 0 })).results[0]).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
    expect((await logOf(url)).full).toBe(2);
    expect((await api("GET", `/api/sessions/${id}/stats`)).body.stats.web.fetchCache).toEqual({ hits: 1, misses: 1, revalidated: 0 });
  });

  it("revalidates a copy with its ETag through the sidecar: a 304 keeps the content and refreshes fetchedAt", async () => {
    const id = await newSession();
    const url = own("validated");
    const first = (await fetchContent(id, { url })).results[0];
    const again = (await fetchContent(id, { url, maxAge: 0 })).results[0];
    expect(again).toMatchObject({ content: first.content, fromCache: true });
    expect(Date.parse(again.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(first.fetchedAt));
    expect(await logOf(url)).toMatchObject({ full: 1, notModified: 1, conditional: [{ ifNoneMatch: '"v1"' }] });
    expect((await api("GET", `/api/sessions/${id}/stats`)).body.stats.web.fetchCache).toEqual({ hits: 0, misses: 1, revalidated: 1 });
  });

  it("keeps no page sent with Cache-Control no-store", async () => {
    const id = await newSession();
    const url = own("no-store");
    await fetchContent(id, { url });
    expect((await fetchContent(id, { url })).results[0]).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
  });

  it("refuses a negative maxAge with the field named, over HTTP and MCP, before anything is fetched", async () => {
    const url = own("changing");
    const res = await api("POST", `/api/sessions/${await newSession()}/tools/fetch_content`, { url, maxAge: -1 });
    expect(res).toMatchObject({ status: 400, body: { error: { code: "INVALID_INPUT", fields: ["maxAge"] } } });
    const client = new Client({ name: "e2e-fetch-cache", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    const refused = (await client.callTool({ name: "web_search", arguments: { query: "x", maxAge: -1 } })) as { isError?: boolean; content: Array<{ text?: string }> };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/^INVALID_INPUT: .*maxAge/);
    await client.close();
    expect((await logOf(url)).full).toBe(0);
  });

  it("has maxAge, fetchedAt and fromCache in OpenAPI, MCP's schemas and the agent's tool definitions", async () => {
    const doc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as any;
    const tool = (name: string) => doc.paths[`/api/sessions/{id}/tools/${name}`].post;
    for (const name of ["fetch_content", "web_search"]) {
      expect(tool(name).requestBody.content["application/json"].schema.properties.maxAge, name).toMatchObject({ type: "integer", minimum: 0 });
    }
    const page = tool("fetch_content").responses["200"].content["application/json"].schema;
    expect(JSON.stringify(page)).toContain('"fetchedAt"');
    expect(JSON.stringify(page)).toContain('"fromCache"');

    const client = new Client({ name: "e2e-fetch-cache", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    const { tools } = await client.listTools();
    const listed = (name: string) => tools.find((t) => t.name === name)!;
    expect(listed("fetch_content").inputSchema.properties).toHaveProperty("maxAge");
    expect(listed("web_search").inputSchema.properties).toHaveProperty("maxAge");
    expect((listed("fetch_content").outputSchema as any).properties.results.items.required).toEqual(expect.arrayContaining(["fetchedAt", "fromCache"]));
    const url = own("changing");
    await client.callTool({ name: "fetch_content", arguments: { url } });
    const called = (await client.callTool({ name: "fetch_content", arguments: { url } })) as { structuredContent: any; content: Array<{ text?: string }> };
    expect(called.structuredContent.results[0]).toMatchObject({ content: "Read 1 of this page.", fromCache: true });
    // Clients that read text only are told too.
    expect(called.content[0]!.text).toContain(`<${url}> — read ${called.structuredContent.results[0].fetchedAt} (cached copy)`);
    await client.close();

    // The agent offers the model the same parameter, and a call with it reads the origin again.
    model.script.script({ toolCalls: [{ name: "fetch_content", arguments: { url, maxAge: 0 } }] }, { text: ["Read anew."] });
    const id = await newSession();
    expect((await api("POST", `/api/sessions/${id}/messages`, { message: "Read it fresh." })).status).toBe(200);
    await waitFor(() => model.script.requests.length >= 2, "the turn's second model call");
    const offered = model.script.requests[0]!.body.tools.find((t: any) => t.function.name === "fetch_content");
    expect(offered.function.parameters.properties).toHaveProperty("maxAge");
    const toolMessage = model.script.requests[1]!.body.messages.find((m: any) => m.role === "tool");
    expect(JSON.parse(toolMessage.content).results[0]).toMatchObject({ content: "Read 2 of this page.", fromCache: false });
  });
});
