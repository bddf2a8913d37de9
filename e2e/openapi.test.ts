import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPdf } from "../sidecar/test/support/document-fixtures.ts";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { send, startOrigin, type Origin, routes } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const KEY = "sk-openapi-model-key-0123456789";
const PAGE = `<!doctype html><html><head><title>Described</title></head><body><article><h1>Described</h1><p>A page fetched to check answers against the OpenAPI document.</p></article></body></html>`;
const SEARXNG = JSON.stringify({ results: [{ title: "Described", url: "http://127.0.0.2/page.html", content: "A result." }] });

let stack: Stack;
let origin: Origin;
let model: FakeModelServer;
let doc: any;

beforeAll(async () => {
  const pdf = Buffer.from(await buildPdf({ pages: [{ heading: "Described", paragraphs: ["A document converted to check its answer."] }] }));
  origin = await startOrigin(
    "127.0.0.2",
    routes({ "/page.html": send(200, "text/html; charset=utf-8", PAGE), "/search": send(200, "application/json", SEARXNG), "/doc.pdf": send(200, "application/pdf", pdf) }),
  );
  model = await startFakeOpenAI({ apiKey: KEY, models: ["doc-model"] });
  stack = await startStack({
    WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], provider: "searxng", searxng: { enabled: true, baseUrl: origin.url } }),
    AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY } }, defaultModel: "doc-model" }),
  });
  doc = await (await fetch(`${stack.url}/openapi.json`)).json();
});

afterAll(async () => {
  await stack?.stop();
  await origin?.close();
  await model?.close();
});

/** Ajv over the document's own schemas, so `#/components/...` references resolve. */
function answerChecker() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  const checked = new Set<string>();
  const operationOf = (method: string, path: string) => {
    const pathname = new URL(path, stack.url).pathname;
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
      if (pattern.test(pathname) && item[method]) return { template, operation: item[method] };
    }
    throw new Error(`no operation in the document for ${method.toUpperCase()} ${pathname}`);
  };
  return {
    checked,
    /** Calls the API and checks the answer's status and body against the document. */
    async call(method: string, path: string, init: { json?: unknown; form?: FormData; expect: number }): Promise<any> {
      const { template, operation } = operationOf(method, path);
      const res = await fetch(`${stack.url}${path}`, {
        method: method.toUpperCase(),
        ...(init.json !== undefined && { headers: { "content-type": "application/json" }, body: JSON.stringify(init.json) }),
        ...(init.form && { body: init.form }),
      });
      expect(res.status, `${method} ${path}`).toBe(init.expect);
      const described = operation.responses[String(res.status)];
      expect(described, `${method} ${template} documents ${res.status}`).toBeDefined();
      const schema = described.content?.["application/json"]?.schema;
      const body = res.headers.get("content-type")?.includes("application/json") ? await res.json() : await res.text();
      if (schema) {
        const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
        const valid = ajv.validate(resolved, body);
        expect(valid, `${method} ${template} ${res.status}: ${ajv.errorsText(ajv.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
      }
      checked.add(`${method} ${template} ${res.status}`);
      return body;
    },
  };
}

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document covering the API", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0].url).toBe("/");
    for (const path of ["/api/sessions", "/api/sessions/{id}/tools/fetch_content", "/api/sessions/{id}/stream", "/api/sessions/{id}/messages", "/api/config/{domain}", "/api/sessions/{id}/attachments", "/healthz", "/mcp"]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(Object.keys(doc.paths["/api/sessions/{id}/stream"].get.responses["200"].content)).toEqual(["text/event-stream"]);
    const fetchBody = doc.paths["/api/sessions/{id}/tools/fetch_content"].post.requestBody.content["application/json"].schema;
    expect(fetchBody.properties.urls).toMatchObject({ type: "array", items: { type: "string" } });
    expect(doc.paths["/api/sessions/{id}/tools/fetch_content"].post.responses["504"].content["application/json"].schema.allOf[1].properties.error.properties.code.enum).toContain("CONTENT_FETCH_TIMEOUT");
  });

  it("describes what the running service answers, successes and errors alike", async () => {
    const { call, checked } = answerChecker();
    await call("get", "/healthz", { expect: 200 });
    const { sessionId } = await call("post", "/api/sessions", { json: { source: "openapi-test" }, expect: 201 });
    await call("post", "/api/sessions", { json: { cwd: "/" }, expect: 400 });
    const s = `/api/sessions/${sessionId}`;
    const fetched = await call("post", `${s}/tools/fetch_content`, { json: { url: `${origin.url}/page.html` }, expect: 200 });
    await call("post", `${s}/tools/fetch_content`, { json: { urls: "x" }, expect: 400 });
    await call("post", `${s}/tools/fetch_content`, { json: { url: "http://127.0.0.1:9/" }, expect: 403 });
    await call("post", `${s}/tools/web_search`, { json: { query: "described" }, expect: 200 });
    await call("post", `${s}/tools/get_search_content`, { json: { responseId: fetched.responseId, urlIndex: 0 }, expect: 200 });
    await call("post", `${s}/tools/get_search_content`, { json: { responseId: fetched.responseId }, expect: 200 });
    await call("post", `${s}/tools/get_search_content`, { json: { responseId: "nope" }, expect: 404 });
    await call("post", `${s}/tools/convert_content`, { json: { url: `${origin.url}/doc.pdf` }, expect: 200 });
    await call("post", `${s}/tools/convert_content`, { json: { url: "ftp://127.0.0.2/doc.pdf" }, expect: 400 });
    await call("post", `${s}/tools/convert_content`, { json: { url: "http://127.0.0.1:9/doc.pdf" }, expect: 403 });
    await call("post", `${s}/tools/convert_content`, { json: { attachmentId: "att_none" }, expect: 404 });
    await call("get", `${s}/state`, { expect: 200 });
    await call("get", `${s}/stats`, { expect: 200 });
    await call("get", `${s}/messages`, { expect: 200 });
    await call("get", `${s}/commands`, { expect: 200 });
    await call("get", `${s}/models`, { expect: 200 });
    await call("get", `/api/sessions/00000000-0000-4000-8000-000000000000/state`, { expect: 404 });
    await call("post", `${s}/thinking`, { json: { level: "high" }, expect: 200 });
    await call("post", `${s}/thinking`, { json: { level: "enormous" }, expect: 400 });
    await call("post", `${s}/model`, { json: { provider: "local", modelId: "doc-model" }, expect: 200 });
    await call("post", `${s}/messages`, { json: { message: "/fetch " + `${origin.url}/page.html` }, expect: 200 });
    await call("post", `${s}/abort`, { expect: 200 });
    await call("get", `${s}/fork-messages`, { expect: 200 });
    await call("post", `${s}/fork`, { json: { entryId: "missing" }, expect: 404 });
    await call("get", `${s}/completion/triggers`, { expect: 200 });
    await call("get", `${s}/completion?trigger=@&query=`, { expect: 200 });
    await call("get", `${s}/completion`, { expect: 400 });
    await call("post", `${s}/ui-rpc`, { json: { correlationId: "c1", method: "results.list" }, expect: 200 });
    await call("post", `${s}/ui-response`, { json: { id: "ui_unknown", confirmed: true }, expect: 409 });
    const form = new FormData();
    form.set("file", new File(["hello"], "hello.txt", { type: "text/plain" }));
    const uploaded = await call("post", `${s}/attachments`, { form, expect: 200 });
    await call("post", `${s}/attachments`, { form: new FormData(), expect: 400 });
    await call("get", new URL(uploaded.displayUrl, stack.url).pathname + new URL(uploaded.displayUrl, stack.url).search, { expect: 200 });
    await call("get", `/api/attachments/${uploaded.attachment.id}/raw?exp=1&sig=forged`, { expect: 401 });
    await call("post", "/api/session-source", { json: { id: sessionId, source: "doc" }, expect: 204 });
    await call("get", "/api/config/models", { expect: 200 });
    await call("get", "/api/config/settings", { expect: 200 });
    await call("get", "/api/config/nope", { expect: 404 });
    await call("put", "/api/config/sandbox", { json: { values: { askBeforeFetch: false } }, expect: 200 });
    await call("put", "/api/config/sandbox", { json: { values: [] }, expect: 400 });
    await call("delete", s, { expect: 200 });
    await call("get", `${s}/stats`, { expect: 404 });
    // Every operation was checked against a real answer, except those whose answers are not JSON documents.
    const exercised = new Set([...checked].map((key) => key.split(" ").slice(0, 2).join(" ")));
    const operations = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(operations.filter((op) => !exercised.has(op)).sort()).toEqual([
      "get /api/sessions/{id}/stream",
      "get /openapi.json",
      "post /api/sessions/{id}/follow_up",
      "post /api/sessions/{id}/steer",
      "post /mcp",
    ]);
  });
});
