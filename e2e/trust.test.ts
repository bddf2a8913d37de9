import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { send, startOrigin, type Origin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const USER = "user-token-e2e-0123456789";
const ADMIN = "admin-token-e2e-0123456789";
const BRAVE_KEY = "env-brave-e2e-0123456789";
const MODEL_KEY = "sk-operator-e2e-0123456789";

/** An ordinary API token holder trying to read the deployment's secrets, as the trust-boundary findings did. */
describe("trust boundaries over npm start", () => {
  let attacker: Origin;
  let model: FakeModelServer;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-trust-"));

  beforeAll(async () => {
    attacker = await startOrigin("127.0.0.9", send(200, "application/json", '{"results":[],"data":[]}'));
    model = await startFakeOpenAI({ apiKey: MODEL_KEY, models: ["corp-model"], host: "127.0.0.4" });
    stack = await startStack({
      PERSIST_DIR: persist,
      API_TOKENS: USER,
      ADMIN_TOKEN: ADMIN,
      BRAVE_SEARCH_API_KEY: BRAVE_KEY,
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { corp: { api: "openai-compatible", baseURL: model.baseURL, apiKey: MODEL_KEY } } }),
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await attacker?.close();
    await model?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const request = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const putConfig = (domain: string, token: string, values: unknown) => request("PUT", `/api/config/${domain}`, token, { values });

  it("a token holder can neither read nor write configuration", async () => {
    const write = await putConfig("settings", USER, { provider: "brave", brave: { enabled: true, baseUrl: `${attacker.url}/search`, apiKeyEnv: "API_TOKENS" } });
    expect(write.status).toBe(403);
    expect((await request("GET", "/api/config/auth", USER)).status).toBe(403);
    const models = await request("GET", "/api/config/models", USER);
    expect(models.status).toBe(200);
    expect(models.body.models).toEqual([{ id: "corp-model", provider: "corp", name: "corp-model" }]);
    expect(models.text).not.toContain("127.0.0.4");
  });

  it("the admin cannot send a binding to a provider, nor an operator's key to another URL", async () => {
    const binding = await putConfig("settings", ADMIN, { brave: { apiKeyEnv: "API_TOKENS" } });
    expect(binding.status).toBe(422);
    expect(binding.body.error.fields).toEqual(["brave.apiKeyEnv"]);
    const redirect = await putConfig("auth", ADMIN, { modelProviders: { corp: { api: "openai-compatible", baseURL: `${attacker.url}/v1` } } });
    expect(redirect.status).toBe(422);
    expect(redirect.body.error.fields).toEqual(["modelProviders.corp.baseURL"]);
  });

  it("provider URLs written through the API must pass the network policy", async () => {
    for (const [domain, values, field] of [
      ["settings", { searxng: { enabled: true, baseUrl: `${attacker.url}/` } }, "searxng.baseUrl"],
      ["settings", { brave: { baseUrl: "http://[::ffff:127.0.0.9]/search" } }, "brave.baseUrl"],
      ["auth", { modelProviders: { inside: { api: "openai-compatible", baseURL: "http://169.254.169.254/v1" } } }, "modelProviders.inside.baseURL"],
    ] as const) {
      const res = await putConfig(domain, ADMIN, values);
      expect(res.status, field).toBe(422);
      expect(res.body.error.fields).toEqual([field]);
    }
  });

  it("an environment key never follows a URL the admin set, even one the policy lets through", async () => {
    expect((await putConfig("sandbox", ADMIN, { allowHosts: ["127.0.0.2", "127.0.0.9"] })).status).toBe(200);
    expect((await putConfig("settings", ADMIN, { provider: "brave", brave: { enabled: true, baseUrl: `${attacker.url}/search` } })).status).toBe(200);
    const session = await request("POST", "/api/sessions", USER, { source: "trust" });
    const search = await request("POST", `/api/sessions/${session.body.sessionId}/tools/web_search`, USER, { query: "secrets" });
    expect(search.status).not.toBe(200);
    expect(search.body.error.code).toBe("PROVIDER_AUTH_FAILED");
    expect(JSON.stringify(attacker.requests)).not.toContain(BRAVE_KEY);
    expect(attacker.requests).toEqual([]);
  });

  /** The text and error chunks of the session's next turn. */
  async function turn(provider: string, message: string) {
    const session = (await request("POST", "/api/sessions", USER, { source: "trust" })).body.sessionId as string;
    const stream = await fetch(`${stack.url}/api/sessions/${session}/stream`, { headers: { authorization: `Bearer ${USER}` } });
    const reader = sseReader(stream.body!);
    expect((await request("POST", `/api/sessions/${session}/model`, USER, { provider, modelId: "corp-model" })).status).toBe(200);
    expect((await request("POST", `/api/sessions/${session}/messages`, USER, { message })).status).toBe(200);
    const seen: Array<{ type: string; delta?: string; errorText?: string }> = [];
    for (let frame = await reader.next(); frame; frame = await reader.next()) {
      const chunk = frame.data?.chunk;
      if (!chunk) continue;
      seen.push(chunk);
      if (chunk.type === "finish") break;
    }
    await reader.cancel();
    return seen;
  }

  it("a model provider set through the API is called through the sidecar's relay, under the policy", async () => {
    expect((await putConfig("sandbox", ADMIN, { allowHosts: ["127.0.0.2", "127.0.0.4"] })).status).toBe(200);
    const provider = { api: "openai-compatible", baseURL: model.baseURL, apiKey: MODEL_KEY, models: [{ id: "corp-model" }] };
    expect((await putConfig("auth", ADMIN, { modelProviders: { relayed: provider } })).status).toBe(200);
    model.script.script({ text: ["Relayed ", "answer."] });
    const allowed = await turn("relayed", "hello");
    expect(allowed.filter((c) => c.type === "text-delta").map((c) => c.delta).join("")).toBe("Relayed answer.");
    expect(model.script.requests.at(-1)?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);

    // Once the policy no longer lets it through, the turn says so and nothing reaches the model.
    const completions = () => model.script.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
    const before = completions();
    expect((await putConfig("sandbox", ADMIN, { allowHosts: ["127.0.0.2"] })).status).toBe(200);
    const refused = await turn("relayed", "again");
    expect(refused.find((c) => c.type === "error")?.errorText).toMatch(/network policy/);
    expect(completions()).toBe(before);
  });
});
