import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { createApp } from "../src/app.ts";
import { dropConfigLease, loadSettings } from "../src/config/load-settings.ts";
import { hideProviders, parseHiddenProviders } from "../src/agent/model/model-catalog.ts";
import type { Env } from "../src/env.ts";
import { configRoutes } from "../src/routes/config-routes.ts";
import { secretClear, secretKeep, secretSet } from "../../test-support/pi-protocol/secret.ts";

const app = createApp({ routes: [configRoutes] });
const testEnv = env as unknown as Env;
const origin = inject("originUrl");

/** Calls the app with the config routes mounted; a string body is sent as is. */
async function call(method: string, path: string, body?: unknown, overrides: Partial<Env> = {}, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { "content-type": "application/json", ...headers } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await app.request(path, init, { ...testEnv, ...overrides });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

const put = (domain: string, values: unknown, overrides: Partial<Env> = {}, headers: Record<string, string> = {}) =>
  call("PUT", `/api/config/${domain}`, { values }, overrides, headers);
const get = (domain: string, overrides: Partial<Env> = {}, headers: Record<string, string> = {}) =>
  call("GET", `/api/config/${domain}`, undefined, overrides, headers);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function settings(overrides: Partial<Env> = {}) {
  const loaded = await loadSettings({ ...testEnv, ...overrides });
  if (!loaded.ok) throw new Error(`loadSettings failed: ${loaded.error.message}`);
  return loaded.value;
}

const BRAVE_KEY = "BSA-0123456789abcdef";
const TAVILY_KEY = "tvly-fedcba9876543210";

// The ConfigObject is a singleton whose storage lives as long as this file: start every test empty.
beforeEach(async () => {
  await reset();
  // The wiped storage did not go through the config API, so this isolate's lease on it must go too.
  dropConfigLease();
});

describe("settings domain", () => {
  it("shows defaults under the WEB_CONFIG layer, with a form schema derived from the web config schema", async () => {
    const res = await get("settings");
    expect(res.status).toBe(200);
    expect(res.body.protocolVersion).toBe("0.1.0");
    // vitest.config.ts sets WEB_CONFIG {"allowHosts":["127.0.0.2"],"timeoutMs":2000}.
    expect(res.body.values.timeoutMs).toBe(2_000);
    expect(res.body.values.maxResults).toBe(5);
    expect(res.body.values.cache).toEqual({ enabled: true, maxEntries: 50, ttlMs: 300_000 });
    expect(res.body.values.brave).toEqual({ enabled: false, baseUrl: "https://api.search.brave.com/res/v1/web/search", apiKeyEnv: "BRAVE_SEARCH_API_KEY" });
    for (const key of ["allowPrivateNetwork", "allowHosts", "deniedDomains", "allowedDomains"]) {
      expect(res.body.values).not.toHaveProperty(key);
      expect(res.body.formSchema).not.toHaveProperty(key);
    }
    const form = res.body.formSchema;
    expect(Object.keys(form).sort()).toEqual(Object.keys(res.body.values).sort());
    expect(form.timeoutMs).toMatchObject({ kind: "number", default: 10_000 });
    expect(form.provider).toMatchObject({ kind: "enum", default: "ddgs" });
    expect(form.provider.options).toEqual(["auto", "ddgs", "brave", "tavily", "serper", "openserp", "searxng"]);
    expect(form.debug).toMatchObject({ kind: "enum", options: [false, "minimal", "verbose", "trace"], default: false });
    expect(form.jinaTriggers).toMatchObject({ kind: "stringList", options: ["short-html", "js-heavy-html"] });
    expect(form.maxUrlsPerCall).toMatchObject({ kind: "number", default: 20 });
    expect(Object.keys(form.connectionPool.fields)).toEqual(["maxSockets", "timeout"]);
    expect(form.cache.kind).toBe("object");
    expect(form.cache.fields.ttlMs).toMatchObject({ kind: "number", default: 300_000, label: "TTL (ms)" });
    expect(form.brave.fields).toMatchObject({ enabled: { kind: "boolean", default: false }, apiKeyEnv: { kind: "string", default: "BRAVE_SEARCH_API_KEY" } });
    expect(form.searxng.fields.baseUrl).toMatchObject({ kind: "string", default: "" });
  });

  it("merges PUTs into what is stored: objects deeply, arrays replaced, null back to the lower layer", async () => {
    const first = await put("settings", { maxResults: 8, cache: { ttlMs: 120_000 }, providerPriority: ["brave", "ddgs"] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, protocolVersion: "0.1.0" });

    expect(await put("settings", { cache: { enabled: false }, providerPriority: ["tavily"], timeoutMs: 4_000 })).toMatchObject({ status: 200 });
    const merged = (await get("settings")).body.values;
    expect(merged.maxResults).toBe(8);
    expect(merged.cache).toEqual({ enabled: false, maxEntries: 50, ttlMs: 120_000 });
    expect(merged.providerPriority).toEqual(["tavily"]);
    expect(merged.timeoutMs).toBe(4_000);

    expect((await put("settings", { timeoutMs: null, cache: { ttlMs: null } })).status).toBe(200);
    const reverted = (await get("settings")).body.values;
    expect(reverted.timeoutMs).toBe(2_000);
    expect(reverted.cache).toEqual({ enabled: false, maxEntries: 50, ttlMs: 300_000 });
    expect(reverted.maxResults).toBe(8);
  });

  it("a change is visible to the next loadSettings call, over WEB_CONFIG", async () => {
    expect((await settings()).config.maxResults).toBe(5);
    await put("settings", { maxResults: 9, concurrency: { maxConcurrent: 2 } });
    const next = await settings();
    expect(next.config.maxResults).toBe(9);
    expect(next.config.concurrency).toEqual({ maxConcurrent: 2, maxQueueSize: 10 });
    expect(next.config.timeoutMs).toBe(2_000);

    await put("settings", { timeoutMs: 4_500 });
    // Stored settings win over WEB_CONFIG, whatever it says.
    expect((await settings({ WEB_CONFIG: JSON.stringify({ timeoutMs: 3_000, maxContentChars: 1_234 }) })).config).toMatchObject({
      timeoutMs: 4_500,
      maxContentChars: 1_234,
      maxResults: 9,
    });
  });

  it("resolves the config once per change: calls share one frozen object until a write", async () => {
    const first = await settings();
    const second = await settings();
    expect(second.config).toBe(first.config);
    expect(Object.isFrozen(first.config) && Object.isFrozen(first.config.cache)).toBe(true);
    expect(() => {
      (first.config.cache as { enabled: boolean }).enabled = false;
    }).toThrow(TypeError);
    // Writes wait out the leases readers hold, so the next read sees the change.
    await put("settings", { maxResults: 7 });
    const third = await settings();
    expect(third.config).not.toBe(first.config);
    expect(third.config.maxResults).toBe(7);
    expect(first.config.maxResults).toBe(5);
  });

  it("refuses wrong types and ranges with 422 and the field paths, storing nothing", async () => {
    const ttl = await put("settings", { cache: { ttlMs: 1_000 } });
    expect(ttl.status).toBe(422);
    expect(ttl.body.error.code).toBe("SCHEMA_VALIDATION_FAILED");
    expect(ttl.body.error.fields).toEqual(["cache.ttlMs"]);
    expect(ttl.body.protocolVersion).toBe("0.1.0");

    const several = await put("settings", { timeoutMs: "fast", maxResults: 0, provider: "bing", cache: 5 });
    expect(several.status).toBe(422);
    expect(several.body.error.fields).toEqual(["provider", "timeoutMs", "maxResults", "cache"]);

    const values = (await get("settings")).body.values;
    expect(values.cache.ttlMs).toBe(300_000);
    expect(values.timeoutMs).toBe(2_000);
  });

  it("refuses unknown keys with 422 and their paths, pointing keys of another domain there", async () => {
    const typo = await put("settings", { maxResult: 3, cache: { ttl: 60_000, enabled: true } });
    expect(typo.status).toBe(422);
    expect(typo.body.error.fields).toEqual(["maxResult", "cache.ttl"]);

    const elsewhere = await put("settings", { allowHosts: ["10.0.0.1"] });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.fields).toEqual(["allowHosts"]);
    expect(elsewhere.body.error.message).toContain("/api/config/sandbox");
    expect((await settings()).config.allowHosts).toEqual(["127.0.0.2"]);
  });

  it("applies writes that race each other without losing any", async () => {
    const writes: Array<[string, number]> = [
      ["maxResults", 7],
      ["timeoutMs", 3_333],
      ["maxContentChars", 4_444],
      ["maxStoredResults", 55],
      ["jinaTimeoutMs", 6_666],
    ];
    const answers = await Promise.all(writes.map(([key, value]) => put("settings", { [key]: value })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const values = (await get("settings")).body.values;
    for (const [key, value] of writes) expect(values[key]).toBe(value);
  });
});

describe("sandbox domain", () => {
  it("round-trips the network policy, with deniedDomains and allowedDomains defaulting to []", async () => {
    const before = await get("sandbox");
    expect(before.status).toBe(200);
    expect(before.body.values).toEqual({ allowPrivateNetwork: false, allowHosts: ["127.0.0.2"], deniedDomains: [], allowedDomains: [], askBeforeFetch: false });
    expect(before.body.formSchema).toEqual({
      allowPrivateNetwork: { kind: "boolean", label: "Allow private network", default: false },
      allowHosts: { kind: "stringList", label: "Allow hosts", default: [] },
      deniedDomains: { kind: "stringList", label: "Denied domains", default: [] },
      allowedDomains: { kind: "stringList", label: "Allowed domains", default: [] },
      askBeforeFetch: { kind: "boolean", label: "Ask before fetch", default: false },
    });

    expect((await put("sandbox", { deniedDomains: [" Example.COM. "], allowHosts: ["127.0.0.3"] })).status).toBe(200);
    expect((await put("sandbox", { allowedDomains: ["docs.test"] })).status).toBe(200);
    expect((await get("sandbox")).body.values).toEqual({
      allowPrivateNetwork: false,
      allowHosts: ["127.0.0.3"],
      deniedDomains: ["example.com"],
      allowedDomains: ["docs.test"],
      askBeforeFetch: false,
    });
    // Stored sandbox is the top layer of what tool calls run with.
    expect((await settings()).config).toMatchObject({ allowHosts: ["127.0.0.3"], deniedDomains: ["example.com"], allowedDomains: ["docs.test"] });
  });

  it("refuses entries that are not domain names with their paths", async () => {
    const res = await put("sandbox", { deniedDomains: ["ok.test", "https://example.com/"], allowedDomains: [""], allowPrivateNetwork: "yes" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual(["allowPrivateNetwork", "deniedDomains.1", "allowedDomains.0"]);
  });

  it("a denied domain stored here blocks the next tool call in a running session", async () => {
    const created = await call("POST", "/api/sessions", { source: "config-test" });
    expect(created.status).toBe(201);
    const fetchIt = () => call("POST", `/api/sessions/${created.body.sessionId}/tools/fetch_content`, { url: `${origin}/notes.txt` });

    expect((await fetchIt()).status).toBe(200);
    expect((await put("sandbox", { deniedDomains: [new URL(origin).hostname] })).status).toBe(200);
    const blocked = await fetchIt();
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe("CONTENT_FETCH_FAILED");
    expect(blocked.body.error.message).toContain("denied list");

    // With allowedDomains set, an IP literal passes only while allowHosts (here from WEB_CONFIG) lists it.
    expect((await put("sandbox", { deniedDomains: [], allowedDomains: ["example.test"] })).status).toBe(200);
    expect((await fetchIt()).status).toBe(200);
    expect((await put("sandbox", { allowHosts: [] })).status).toBe(200);
    const notADomain = await fetchIt();
    expect(notADomain.status).toBe(403);
    expect(notADomain.body.error.message).toContain("is an IP address, not a domain");
  });
});

describe("auth domain", () => {
  it("masks stored keys, never answers them in clear, and tool calls get them in clear", async () => {
    const empty = await get("auth");
    expect(empty.status).toBe(200);
    expect(empty.body.values).toEqual({ brave: {}, tavily: {}, serper: {}, openserp: {}, modelProviders: {} });
    expect(empty.body.formSchema.brave).toMatchObject({ kind: "object", fields: { apiKey: { kind: "secret" } } });
    expect(Object.keys(empty.body.formSchema)).toEqual(["brave", "tavily", "serper", "openserp", "modelProviders"]);
    expect(empty.body.formSchema.modelProviders).toMatchObject({ kind: "record", fields: { api: { kind: "enum" }, apiKey: { kind: "secret" }, models: { kind: "objectList" } } });

    expect((await put("auth", { brave: { apiKey: BRAVE_KEY }, serper: { apiKey: "short" } })).status).toBe(200);
    const masked = await get("auth");
    expect(masked.body.values).toEqual({ brave: { apiKey: "BSA***" }, tavily: {}, serper: { apiKey: "***" }, openserp: {}, modelProviders: {} });
    expect(masked.text).not.toContain(BRAVE_KEY);
    expect(masked.text).not.toContain("short");
    expect((await settings()).providerKeys).toEqual({ brave: BRAVE_KEY, serper: "short" });
  });

  it("keeps a secret written back as its mask, clears it with an empty string", async () => {
    await put("auth", { brave: { apiKey: BRAVE_KEY }, serper: { apiKey: "short" } });
    const shown = (await get("auth")).body.values;
    // A settings UI sends back everything it showed, with one change.
    const writeBack = await put("auth", { ...shown, tavily: { apiKey: TAVILY_KEY } });
    expect(writeBack.status).toBe(200);
    expect((await settings()).providerKeys).toEqual({ brave: BRAVE_KEY, tavily: TAVILY_KEY, serper: "short" });

    expect((await put("auth", { brave: { apiKey: "" } })).status).toBe(200);
    expect((await get("auth")).body.values.brave).toEqual({});
    expect((await settings()).providerKeys).toEqual({ tavily: TAVILY_KEY, serper: "short" });
  });

  it("masks model providers' keys too, keeps one written back as its mask, refuses a wrong mask on its path", async () => {
    const MODEL_KEY = "sk-model-provider-0123456789";
    const provider = { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", apiKey: MODEL_KEY, models: [{ id: "m" }] };
    expect((await put("auth", { modelProviders: { local: provider } })).status).toBe(200);
    const shown = await get("auth");
    expect(shown.body.values.modelProviders.local).toMatchObject({ apiKey: "sk-***", baseURL: provider.baseURL });
    expect(shown.text).not.toContain(MODEL_KEY);
    expect((await put("auth", shown.body.values)).status).toBe(200);
    expect((await settings()).agent.modelProviders.local?.apiKey).toBe(MODEL_KEY);
    const wrong = await put("auth", { modelProviders: { local: { ...provider, apiKey: "XYZ***" } } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.fields).toEqual(["modelProviders.local.apiKey"]);
  });

  it("refuses a masked value that is not the current secret's mask", async () => {
    await put("auth", { brave: { apiKey: BRAVE_KEY } });
    const res = await put("auth", { brave: { apiKey: "XYZ***" }, tavily: { apiKey: "***" } });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual(["brave.apiKey", "tavily.apiKey"]);
    expect((await settings()).providerKeys).toEqual({ brave: BRAVE_KEY });
  });

  it("shows worker secrets masked, and stored keys override them", async () => {
    const withSecret = { BRAVE_SEARCH_API_KEY: "env-brave-0123456789" } as Partial<Env>;
    expect((await get("auth", withSecret)).body.values.brave).toEqual({ apiKey: "env***" });
    expect((await settings(withSecret)).providerKeys.brave).toBe("env-brave-0123456789");

    // Writing the shown mask back stores nothing: the worker secret still applies.
    expect((await put("auth", { brave: { apiKey: "env***" } }, withSecret)).status).toBe(200);
    expect((await settings(withSecret)).providerKeys.brave).toBe("env-brave-0123456789");

    await put("auth", { brave: { apiKey: BRAVE_KEY } }, withSecret);
    expect((await get("auth", withSecret)).body.values.brave).toEqual({ apiKey: "BSA***" });
    expect((await settings(withSecret)).providerKeys.brave).toBe(BRAVE_KEY);
  });

  it("takes pi-web's secret writes too: set stores, keep keeps, clear clears, on search keys and model providers' keys", async () => {
    expect((await put("auth", { brave: { apiKey: secretSet(BRAVE_KEY) }, serper: { apiKey: secretSet("short") } })).status).toBe(200);
    expect((await settings()).providerKeys).toEqual({ brave: BRAVE_KEY, serper: "short" });
    // Reads stay the masks.
    expect((await get("auth")).body.values).toMatchObject({ brave: { apiKey: "BSA***" }, serper: { apiKey: "***" } });

    expect((await put("auth", { brave: { apiKey: secretKeep() }, serper: { apiKey: secretClear() }, tavily: { apiKey: secretSet(TAVILY_KEY) } })).status).toBe(200);
    expect((await settings()).providerKeys).toEqual({ brave: BRAVE_KEY, tavily: TAVILY_KEY });
    expect((await get("auth")).body.values.serper).toEqual({});

    const provider = { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", models: [{ id: "m" }] };
    expect((await put("auth", { modelProviders: { local: { ...provider, apiKey: secretSet("sk-model-provider-0123456789") } } })).status).toBe(200);
    expect((await put("auth", { modelProviders: { local: { ...provider, models: [{ id: "n" }], apiKey: secretKeep() } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.local).toMatchObject({ apiKey: "sk-model-provider-0123456789", models: [{ id: "n" }] });
    expect((await put("auth", { modelProviders: { local: { ...provider, apiKey: secretClear() } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.local?.apiKey).toBeUndefined();
  });

  it("keeps a worker secret on a keep, as on its mask written back", async () => {
    const withSecret = { BRAVE_SEARCH_API_KEY: "env-brave-0123456789" } as Partial<Env>;
    expect((await put("auth", { brave: { apiKey: secretKeep() } }, withSecret)).status).toBe(200);
    expect((await settings(withSecret)).providerKeys.brave).toBe("env-brave-0123456789");
  });

  it("refuses a secret write that is not one of pi-web's three, and one where no secret goes, naming the field", async () => {
    for (const write of [{ __secret: true, action: "set" }, { __secret: true, action: "rotate", value: "x" }, { __secret: true, action: "set", value: 42 }, { __secret: false, action: "keep" }]) {
      const res = await put("auth", { brave: { apiKey: write } });
      expect(res.status, JSON.stringify(write)).toBe(422);
      expect(res.body.error).toMatchObject({ code: "SCHEMA_VALIDATION_FAILED", fields: ["brave.apiKey"] });
    }
    const misplaced = await put("settings", { brave: { baseUrl: secretSet("https://search.example/") } });
    expect(misplaced.status).toBe(422);
    expect(misplaced.body.error.fields).toEqual(["brave.baseUrl"]);
    expect((await settings()).providerKeys).toEqual({});
  });

  it("refuses non-string keys and unknown providers with their paths", async () => {
    const res = await put("auth", { brave: { apiKey: 42 }, bing: { apiKey: "x" }, tavily: { key: "x" } });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual(["bing", "tavily.key"]);
    const typed = await put("auth", { brave: { apiKey: 42 } });
    expect(typed.status).toBe(422);
    expect(typed.body.error.fields).toEqual(["brave.apiKey"]);
  });
});

describe("errors", () => {
  it("400 INVALID_JSON for an unparseable body", async () => {
    const res = await call("PUT", "/api/config/settings", "{not json");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_JSON");
  });

  it.each([
    ["an empty body", ""],
    ["an array", [1]],
    ["no values", { maxResults: 3 }],
    ["values not an object", { values: [1, 2] }],
    ["values null", { values: null }],
  ])("400 VALIDATION_FAILED for %s", async (_, body) => {
    const res = await call("PUT", "/api/config/settings", body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.protocolVersion).toBe("0.1.0");
  });

  it("404 DOMAIN_NOT_FOUND for an unknown domain", async () => {
    for (const res of [await get("secrets"), await put("secrets", { a: 1 }), await put("models", {})]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("DOMAIN_NOT_FOUND");
    }
  });

  it("405 for other methods", async () => {
    const res = await call("DELETE", "/api/config/settings");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, PUT");
    expect(res.body.error.code).toBe("METHOD_NOT_ALLOWED");
  });

  it("an invalid WEB_CONFIG is INTERNAL_ERROR for reads and for tool settings", async () => {
    const broken = { WEB_CONFIG: JSON.stringify({ timeoutMs: -1 }) };
    const res = await get("settings", broken);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("INTERNAL_ERROR");
    const loaded = await loadSettings({ ...testEnv, ...broken });
    expect(loaded.ok).toBe(false);
    expect(!loaded.ok && loaded.error.code).toBe("INTERNAL_ERROR");
  });
});

describe("who may read and write", () => {
  const tokens = { API_TOKENS: "user-token", ADMIN_TOKEN: "admin-token" };

  it("with ADMIN_TOKEN set, only the admin may read or write; token holders get 403", async () => {
    const asUser = await put("settings", { maxResults: 6 }, tokens, bearer("user-token"));
    expect(asUser.status).toBe(403);
    expect(asUser.body.error.code).toBe("FORBIDDEN");
    expect(asUser.body.error.message).toContain("ADMIN_TOKEN");
    expect((await put("auth", { brave: { apiKey: BRAVE_KEY } }, tokens, bearer("user-token"))).status).toBe(403);
    expect((await put("settings", { maxResults: 6 }, tokens)).status).toBe(401);
    for (const domain of ["auth", "settings", "sandbox"]) expect((await get(domain, tokens, bearer("user-token"))).status).toBe(403);

    expect((await put("settings", { maxResults: 6 }, tokens, bearer("admin-token"))).status).toBe(200);
    expect((await put("auth", { brave: { apiKey: BRAVE_KEY } }, tokens, bearer("admin-token"))).status).toBe(200);
    const read = await get("auth", tokens, bearer("admin-token"));
    expect(read.status).toBe(200);
    expect(read.body.values.brave).toEqual({ apiKey: "BSA***" });
    expect((await get("settings", tokens, bearer("admin-token"))).body.values.maxResults).toBe(6);
  });

  it("with only ADMIN_TOKEN set, the open principal may neither read nor write", async () => {
    const adminOnly = { ADMIN_TOKEN: "admin-token" };
    expect((await put("settings", { maxResults: 6 }, adminOnly)).status).toBe(403);
    expect((await get("settings", adminOnly)).status).toBe(403);
    expect((await put("settings", { maxResults: 6 }, adminOnly, bearer("admin-token"))).status).toBe(200);
  });

  it("with API_TOKENS but no ADMIN_TOKEN, configuration is refused with 403 saying to set ADMIN_TOKEN", async () => {
    const usersOnly = { API_TOKENS: "user-token" };
    for (const res of [await put("settings", { maxResults: 6 }, usersOnly, bearer("user-token")), await get("auth", usersOnly, bearer("user-token"))]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("set ADMIN_TOKEN") });
    }
    expect((await put("settings", { maxResults: 7 }, usersOnly, bearer("wrong"))).status).toBe(401);
    expect((await settings()).config.maxResults).toBe(5);
  });

  it("the model list stays open to token holders with ids and names only, never a provider's URL", async () => {
    const agent = {
      AGENT_CONFIG: JSON.stringify({ modelProviders: { corp: { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", apiKey: "sk-corp-0123456789", models: [{ id: "m1", name: "Model one", contextWindow: 8000, cost: { input: 1, output: 2 } }] } } }),
    };
    const asUser = await get("models", { ...tokens, ...agent }, bearer("user-token"));
    expect(asUser.status).toBe(200);
    expect(asUser.body.models).toEqual([{ id: "m1", provider: "corp", name: "Model one" }]);
    const asAdmin = await get("models", { ...tokens, ...agent }, bearer("admin-token"));
    expect(asAdmin.body.models[0]).toMatchObject({ id: "m1", contextWindow: 8000 });
    for (const res of [asUser, asAdmin]) {
      expect(res.text).not.toContain("127.0.0.2");
      expect(res.text).not.toContain("sk-corp");
    }
  });
});

describe("GET /api/config/models", () => {
  it("answers the (empty) catalog, winning over /api/config/:domain", async () => {
    const res = await get("models", { PI_WEB_HIDE_PROVIDERS: "openai" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ providers: [], models: [], protocolVersion: "0.1.0" });
  });

  it("PI_WEB_HIDE_PROVIDERS removes providers and their models, case-sensitively", () => {
    const catalog = {
      providers: ["openai", "anthropic", "Mistral", "google"],
      models: [
        { id: "gpt-x", provider: "openai" },
        { id: "claude-x", provider: "anthropic" },
        { id: "mistral-x", provider: "Mistral" },
        { id: "gemini-x", provider: "google" },
      ],
    };
    expect(hideProviders(catalog, " openai, Anthropic ,mistral,,")).toEqual({
      providers: ["anthropic", "Mistral", "google"],
      models: [
        { id: "claude-x", provider: "anthropic" },
        { id: "mistral-x", provider: "Mistral" },
        { id: "gemini-x", provider: "google" },
      ],
    });
    expect(hideProviders(catalog, "anthropic,Mistral,google").providers).toEqual(["openai"]);
    expect(hideProviders(catalog, undefined)).toEqual(catalog);
    expect(hideProviders(catalog, "")).toEqual(catalog);
    expect([...parseHiddenProviders(" a ,b,, a")]).toEqual(["a", "b"]);
  });
});
