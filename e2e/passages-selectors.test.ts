import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { passagePageRoutes } from "../test-support/passage-routes.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const KEY = "sk-e2e-passages-key-0123456789";
const TIDAL = "/passages/tidal-plant.html";
const QUESTION = "What happens to the turbines when porpoises are nearby?";
const ANSWER = "programmed to stop automatically whenever a porpoise is heard";
const SCRIPTS = "<script>var a = 1;</script>".repeat(4);
/** Its script writes what the selectors name: only a browser sees it. */
const SCRIPTED = `<!doctype html><html><head><title>Scripted page</title>${SCRIPTS}</head><body><div id="root"></div><script>
document.getElementById("root").innerHTML = "<article><h1>Scripted page</h1><p>An introduction a script wrote, long enough to read as the article's first paragraph.</p><div id='answer'><p>The script wrote the answer: high water at 14:20.</p><p class='banner'>Accept our cookies to continue.</p></div></article>";
</script></body></html>`;

const FETCH_PARAMS = ["query", "maxPassages", "maxChars", "includeSelectors", "excludeSelectors"];

describe("passages, maxChars and selectors over npm start's stack", () => {
  let origin: Origin;
  let model: FakeModelServer;
  let stack: Stack;

  beforeAll(async () => {
    origin = await startOrigin("127.0.0.2", routes({ ...passagePageRoutes(), "/scripted.html": send(200, "text/html; charset=utf-8", SCRIPTED) }));
    model = await startFakeOpenAI({ apiKey: KEY, models: ["passages-model"] });
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY } }, defaultModel: "passages-model" }),
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await model?.close();
    await origin?.close();
  });

  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);
  const session = async () => (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId as string;

  it("answers passages over HTTP and MCP, and cuts the content to maxChars with a note to read on", async () => {
    const id = await session();
    const http = await api("POST", `/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}${TIDAL}`, query: QUESTION, maxChars: 1_000 });
    expect(http.status).toBe(200);
    const [page] = http.body.results;
    expect(page.passages[0]).toMatchObject({ heading: "Worries on the quay", text: expect.stringContaining(ANSWER) });
    expect(page.content.length).toBeLessThanOrEqual(1_000);
    expect(page).toMatchObject({ truncated: true, totalChars: expect.any(Number), nextOffset: page.content.length });
    const rest = await api("POST", `/api/sessions/${id}/tools/get_search_content`, { responseId: http.body.responseId, urlIndex: 0, offset: page.nextOffset });
    expect(page.content.length + rest.body.result.content.length).toBe(page.totalChars);
    const passage = await api("POST", `/api/sessions/${id}/tools/get_search_content`, {
      responseId: http.body.responseId,
      urlIndex: 0,
      offset: page.passages[0].offset,
      maxChars: page.passages[0].end - page.passages[0].offset,
    });
    expect(passage.body.result.content).toBe(page.passages[0].text);

    const client = new Client({ name: "e2e-passages", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    const { tools } = await client.listTools();
    const fetchTool = tools.find((tool) => tool.name === "fetch_content")!;
    const properties = fetchTool.inputSchema.properties as Record<string, any>;
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(FETCH_PARAMS));
    expect(properties.query).toMatchObject({ type: "string", maxLength: 500 });
    expect(properties.maxPassages).toMatchObject({ type: "integer", minimum: 1, maximum: 10 });
    expect(properties.includeSelectors).toMatchObject({ type: "array", maxItems: 20 });
    const called = (await client.callTool({ name: "fetch_content", arguments: { url: `${origin.url}${TIDAL}`, query: QUESTION, maxPassages: 1, maxChars: 400 } })) as any;
    expect(called.isError).toBeFalsy();
    const [mcpPage] = called.structuredContent.results;
    expect(mcpPage.passages).toHaveLength(1);
    expect(mcpPage.passages[0].text).toContain(ANSWER);
    // A client that reads text only gets the passage, where it lies, and how to read on past the cut.
    const text = called.content.map((part: { text?: string }) => part.text ?? "").join("\n");
    expect(text).toContain(`### Passage 1 — Worries on the quay (characters ${mcpPage.passages[0].offset}-${mcpPage.passages[0].end}`);
    expect(text).toContain(mcpPage.passages[0].text);
    expect(text).toContain(mcpPage.note);
    await client.close();
  });

  it("lists the new parameters in the OpenAPI document, maxPassages only with a query", async () => {
    const doc = (await (await fetch(`${stack.url}/openapi.json`)).json()) as any;
    const body = doc.paths["/api/sessions/{id}/tools/fetch_content"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(FETCH_PARAMS));
    expect(body.dependentSchemas.maxPassages).toEqual({ anyOf: [{ required: ["query"] }] });
    const page = doc.paths["/api/sessions/{id}/tools/fetch_content"].post.responses["200"].content["application/json"].schema;
    expect(JSON.stringify(page)).toContain('"passages"');
  });

  it("gives the agent's model the same tool, and its call's passages", async () => {
    model.script.script({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}${TIDAL}`, query: QUESTION, maxChars: 500 } }] }, { text: ["They stop."] });
    const id = await session();
    expect((await api("POST", `/api/sessions/${id}/messages`, { message: "What do the turbines do for porpoises?" })).status).toBe(200);
    await waitFor(() => model.script.requests.length >= 2 && model.script.requests[1]!.completed, "the model's second call");
    const [first, second] = model.script.requests;
    const tool = first!.body.tools.find((t: any) => t.function.name === "fetch_content");
    expect(Object.keys(tool.function.parameters.properties)).toEqual(expect.arrayContaining(FETCH_PARAMS));
    const result = second!.body.messages.find((m: any) => m.role === "tool").content as string;
    expect(result).toContain(ANSWER);
  });

  it("applies selectors to a rendered page", async () => {
    const id = await session();
    const res = await api("POST", `/api/sessions/${id}/tools/fetch_content`, {
      url: `${origin.url}/scripted.html`,
      render: "always",
      includeSelectors: ["#answer", "#nowhere"],
      excludeSelectors: [".banner"],
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({
      content: "The script wrote the answer: high water at 14:20.",
      metadata: { rendered: true, extraction: "selectors" },
      parseWarning: 'includeSelectors: "#nowhere" matched nothing on this page',
    });
  });

  it("refuses bad input with 400 INVALID_INPUT naming the field, and fetches nothing", async () => {
    const id = await session();
    const cases: Array<[object, string[]]> = [
      [{ query: "turbines", maxPassages: 0 }, ["maxPassages"]],
      [{ query: "turbines", maxPassages: 11 }, ["maxPassages"]],
      [{ query: "q".repeat(501) }, ["query"]],
      [{ includeSelectors: ["main", "div["] }, ["includeSelectors.1"]],
      [{ excludeSelectors: Array.from({ length: 21 }, (_, i) => `.ad-${i}`) }, ["excludeSelectors"]],
    ];
    for (const [params, fields] of cases) {
      const path = `${TIDAL}?bad=${crypto.randomUUID()}`;
      const res = await api("POST", `/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}${path}`, ...params });
      expect(res.status, JSON.stringify(params).slice(0, 80)).toBe(400);
      expect(res.body.error).toMatchObject({ code: "INVALID_INPUT", fields });
      expect(origin.requests.some((request) => request.url === path)).toBe(false);
    }
  });
});
