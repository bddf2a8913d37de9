import { createConfig, lintFromString } from "@redocly/openapi-core";
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
    // The codes stay canonical, the statuses follow the fault: CONTENT_FETCH_FAILED under each status it may take.
    for (const status of ["403", "404", "410", "415", "429", "502", "503"]) {
      expect(doc.paths["/api/sessions/{id}/tools/fetch_content"].post.responses[status].content["application/json"].schema.allOf[1].properties.error.properties.code.enum, status).toContain("CONTENT_FETCH_FAILED");
    }
  });

  it("says what this server requires: no token on an open server, explicitly", () => {
    expect(doc.security).toEqual([]);
    expect(doc.components.securitySchemes).toBeUndefined();
    expect(doc.info.description).toMatch(/requires no token/);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) expect(op.responses["401"]?.description ?? "", `${method} ${path}`).not.toContain("UNAUTHORIZED");
    }
  });

  it("reads as meant to Redocly's recommended rules: no operation without security, no undefined scheme", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: `${stack.url}/openapi.json`, config });
    expect(problems.filter(({ ruleId }) => ruleId === "security-defined").map(({ message, location }) => `${location[0]?.pointer}: ${message}`)).toEqual([]);
  });

  it("states request schemas as strictly as they are checked", () => {
    const body = (path: string) => doc.paths[path].post.requestBody.content["application/json"].schema;
    expect(body("/api/sessions/{id}/tools/fetch_content").anyOf).toEqual([{ required: ["url"] }, { required: ["urls"] }]);
    expect(body("/api/sessions/{id}/tools/web_search").anyOf).toEqual([{ required: ["query"] }, { required: ["queries"] }]);
    expect(body("/api/sessions/{id}/tools/convert_content").oneOf).toEqual([{ required: ["url"] }, { required: ["attachmentId"] }]);
    for (const method of ["get", "put"]) {
      const domain = doc.paths["/api/config/{domain}"][method].parameters.find((p: any) => p.name === "domain");
      expect(domain.schema.enum, method).toEqual(["auth", "settings", "sandbox"]);
    }
    expect(Object.keys(doc.paths["/api/attachments/{id}/raw"].get.responses["200"].content)).toEqual(["*/*"]);
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
    await call("post", `${s}/compact`, { json: {}, expect: 200 });
    await call("post", `${s}/compact`, { json: { instructions: 5 }, expect: 400 });
    await call("post", `${s}/abort`, { expect: 200 });
    await call("get", `${s}/fork-messages`, { expect: 200 });
    await call("post", `${s}/fork`, { json: { entryId: "missing" }, expect: 404 });
    await call("get", `${s}/completion/triggers`, { expect: 200 });
    await call("get", `${s}/completion?trigger=@&query=`, { expect: 200 });
    await call("get", `${s}/completion?trigger=/&q=fe`, { expect: 200 });
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
    await call("post", `${s}/map`, { json: { url: `${origin.url}/page.html`, sources: "links" }, expect: 200 });
    await call("post", `${s}/map`, { json: { url: `${origin.url}/`, limit: 0 }, expect: 400 });
    const crawl = await call("post", `${s}/crawls`, { json: { url: `${origin.url}/page.html`, limit: 1, sources: "links" }, expect: 202 });
    await call("post", `${s}/crawls`, { json: { url: "http://127.0.0.1:9/" }, expect: 403 });
    await call("post", `${s}/crawls`, { json: { url: `${origin.url}/`, maxDepth: 6 }, expect: 400 });
    await call("get", `${s}/crawls/${crawl.crawlId}`, { expect: 200 });
    await call("get", `${s}/crawls/00000000-0000-4000-8000-000000000000`, { expect: 404 });
    await call("delete", `${s}/crawls/${crawl.crawlId}`, { expect: 200 });
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

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rnd = () => number;
const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;

/** A value the document's schema accepts; keys with a meaning get realistic values (`known`). */
function sample(schema: any, key: string, rnd: Rnd, known: Record<string, unknown>): unknown {
  if (key in known) return known[key];
  if (schema.enum) return pick(rnd, schema.enum);
  if (schema.const !== undefined) return schema.const;
  if (!schema.type && (schema.anyOf ?? schema.oneOf)) return sample(pick(rnd, schema.anyOf ?? schema.oneOf), key, rnd, known);
  switch (schema.type) {
    case "object": {
      const rule: { required: string[] }[] | undefined = schema.anyOf ?? schema.oneOf;
      const ruled = new Set(rule?.flatMap((r) => r.required));
      const required = new Set<string>([...(schema.required ?? []), ...(rule ? pick(rnd, rule).required : [])]);
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries<any>(schema.properties ?? {})) {
        if (required.has(name) || (!ruled.has(name) && rnd() < 0.5)) out[name] = sample(sub, name, rnd, known);
      }
      return out;
    }
    case "array":
      return [sample(schema.items ?? {}, key, rnd, known)];
    case "string":
      return `value-${Math.floor(rnd() * 1000)}`;
    case "number":
    case "integer":
      return Math.max(schema.minimum ?? 1, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case "boolean":
      return rnd() < 0.5;
    default:
      return "x";
  }
}

/** A body the document's schema refuses: a missing required key, a wrong type, or not an object at all. */
function broken(schema: any, valid: Record<string, unknown>, rnd: Rnd): unknown {
  const required: string[] = schema.required ?? [];
  const props = Object.keys(schema.properties ?? {});
  const kinds = ["not-object", ...(required.length > 0 || schema.anyOf || schema.oneOf ? ["missing"] : []), ...(props.length > 0 ? ["wrong-type"] : [])];
  switch (pick(rnd, kinds)) {
    case "missing":
      return Object.fromEntries(Object.entries(valid).filter(([name]) => !required.includes(name) && !(schema.anyOf ?? schema.oneOf ?? []).some((r: any) => r.required.includes(name))));
    case "wrong-type": {
      const name = pick(rnd, props);
      const type = schema.properties[name].type;
      return { ...valid, [name]: type === "string" ? 12345 : type === "array" ? "not-an-array" : type === "object" ? [1] : "not-a-scalar" };
    }
    default:
      return pick(rnd, [[], "text", null, 7]);
  }
}

describe("answers without a body", () => {
  it("every 204 route answers without Content-Encoding, to a client that accepts gzip", async () => {
    const created = await fetch(`${stack.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ source: "e2e" }) });
    const { sessionId } = (await created.json()) as { sessionId: string };
    const bodies: Record<string, unknown> = { "/api/session-source": { id: sessionId, source: "e2e" } };
    const routes = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).filter(([, op]) => op.responses["204"]).map(([method]) => ({ path, method })));
    expect(routes.length).toBeGreaterThan(0);
    for (const { path, method } of routes) {
      const res = await fetch(`${stack.url}${path}`, {
        method: method.toUpperCase(),
        headers: { "content-type": "application/json", "accept-encoding": "gzip, br" },
        body: JSON.stringify(bodies[path] ?? {}),
      });
      expect({ path, status: res.status, encoding: res.headers.get("content-encoding") }).toEqual({ path, status: 204, encoding: null });
    }
  });
});

describe("answers to requests generated from the document", () => {
  it("have a documented status on every route, valid or not, and no undocumented 5xx", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const resolve = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    // Values that name things of this server's state (a configured model, an uploaded file) are real ones: refusing others is not about shape.
    const known = {
      ...{ url: `${origin.url}/page.html`, urls: [`${origin.url}/page.html`], query: "described", queries: ["described"], pages: "1", message: "hello", source: "fuzz" },
      ...{ provider: "local", modelId: "doc-model", attachmentIds: [] },
    };
    const problems: string[] = [];
    const seed = Number(process.env.OPENAPI_FUZZ_SEED ?? 20261201);
    const rnd = seeded(seed);
    let sent = 0;
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (template === "/mcp") continue; // MCP's own protocol answers (JSON-RPC) are checked in mcp.test.ts.
        for (let round = 0; round < 6; round++) {
          const { sessionId } = await (await fetch(`${stack.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ source: "fuzz" }) })).json() as { sessionId: string };
          const invalid = round % 2 === 1;
          const path = template.replace(/\{(\w+)\}/g, (_all: string, name: string): string => {
            const values = operation.parameters.find((p: any) => p.name === name)?.schema.enum;
            if (invalid && rnd() < 0.3) return pick(rnd, ["nope", "00000000-0000-4000-8000-000000000000", "%20"]);
            return values ? pick(rnd, values) : name === "id" && template.startsWith("/api/sessions/") ? sessionId : "att_none";
          });
          const jsonBody = operation.requestBody?.content["application/json"]?.schema;
          let body: string | undefined;
          let documentValid = true;
          if (jsonBody) {
            const valid = sample(jsonBody, "", rnd, known) as Record<string, unknown>;
            const value = invalid ? broken(jsonBody, valid, rnd) : valid;
            documentValid = ajv.validate(resolve(jsonBody), value) as boolean;
            body = invalid && rnd() < 0.2 ? "{not json" : JSON.stringify(value);
            if (body === "{not json") documentValid = false;
          }
          const res = await fetch(`${stack.url}${path}`, { method: method.toUpperCase(), ...(body !== undefined && { headers: { "content-type": "application/json" }, body }) });
          sent++;
          const text = res.headers.get("content-type")?.includes("text/event-stream") ? (await res.body?.cancel(), "") : await res.text();
          const where = `${method.toUpperCase()} ${path} ${body ?? ""} → ${res.status} ${text.slice(0, 200)}`;
          const described = operation.responses[String(res.status)];
          if (!described) problems.push(`undocumented status: ${where}`);
          else if (res.status >= 500 && !described.description) problems.push(`undescribed 5xx: ${where}`);
          // A body the document accepts must not be refused for its shape (the document is as strict as the checks).
          const answer = text.startsWith("{") ? JSON.parse(text) : undefined;
          const shapeRefusal = ["VALIDATION_FAILED", "INVALID_JSON", "SCHEMA_VALIDATION_FAILED"].includes(answer?.error?.code) || (answer?.error?.code === "INVALID_INPUT" && answer.error.fields);
          if (documentValid && jsonBody && shapeRefusal) problems.push(`document accepts what validation refuses: ${where}`);
          // A body the document refuses must not succeed.
          if (!documentValid && res.status < 300) problems.push(`document refuses what the server accepts: ${where}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(150);
    expect(problems, `seed ${seed}`).toEqual([]);
  }, 180_000);
});
