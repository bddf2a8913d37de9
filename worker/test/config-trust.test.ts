import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { dropConfigLease, loadSettings } from "../src/config/load-settings.ts";
import { FORM_SCHEMAS } from "../src/config/config-values.ts";
import type { FormSchema } from "../src/config/form-schema.ts";
import type { Env } from "../src/env.ts";
import { call } from "./helpers.ts";
import { secretKeep, secretSet } from "../../test-support/pi-protocol/secret.ts";

const attacker = inject("attackerUrl");
const origin = inject("originUrl");
const bindings = env as unknown as Env;

/** Every secret this deployment holds; none may ever reach the attacker's server. */
const SECRETS = {
  API_TOKENS: "user-token-0123456789",
  ADMIN_TOKEN: "admin-token-0123456789",
  ATTACHMENT_SECRET: "attachment-secret-0123456789",
  BRAVE_SEARCH_API_KEY: "env-brave-key-0123456789",
  TAVILY_API_KEY: "env-tavily-key-0123456789",
  SERPER_API_KEY: "env-serper-key-0123456789",
  OPENSERP_API_KEY: "env-openserp-key-0123456789",
  AGENT_CONFIG: JSON.stringify({ modelProviders: { corp: { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", apiKey: "sk-operator-model-key-0123456789" } } }),
};
const SECRET_VALUES = [...Object.values(SECRETS), "sk-operator-model-key-0123456789", bindings.SIDECAR_TOKEN ?? "", "user-token-0123456789", "admin-token-0123456789"];
const admin = { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}` };

const put = (domain: string, values: unknown, overrides: Partial<Env> = SECRETS) => call("PUT", `/api/config/${domain}`, { values }, overrides, admin);
const received = async () => (await (await fetch(`${attacker}/__received`)).json()) as Array<{ url: string; headers: Record<string, unknown>; body: string }>;

async function settings(overrides: Partial<Env> = SECRETS) {
  const loaded = await loadSettings({ ...bindings, ...overrides });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

const newSession = async () => (await call("POST", "/api/sessions", { source: "trust" }, SECRETS, admin)).body.sessionId as string;

beforeEach(async () => {
  await reset();
  dropConfigLease();
  await fetch(`${attacker}/__reset`);
});

/** Lets configured URLs reach the attacker's server, so what a call sends there is seen. */
const reachAttacker = () => put("sandbox", { allowHosts: ["127.0.0.2", "127.0.0.9"] });

describe("apiKeyEnv", () => {
  it("names only provider-key variables: every other binding is 422 naming the field", async () => {
    for (const name of ["API_TOKENS", "ADMIN_TOKEN", "SIDECAR_TOKEN", "SIDECAR_URL", "ATTACHMENT_SECRET", "AGENT_CONFIG", "WEB_CONFIG", "brave_api_key", "API_KEY", ""]) {
      const res = await put("settings", { brave: { apiKeyEnv: name } });
      expect(res.status, name).toBe(422);
      expect(res.body.error.fields).toEqual(["brave.apiKeyEnv"]);
    }
    expect((await put("settings", { tavily: { apiKeyEnv: "MY_TAVILY_API_KEY" } })).status).toBe(200);
  });
});

describe("a key goes only to the URL it was set with", () => {
  it("an environment key is not sent to a base URL written through the config API", async () => {
    await reachAttacker();
    expect((await put("settings", { provider: "brave", brave: { enabled: true, baseUrl: `${attacker}/search` } })).status).toBe(200);
    expect((await settings()).providerKeys.brave).toBeUndefined();
    const session = await newSession();
    const res = await call("POST", `/api/sessions/${session}/tools/web_search`, { query: "secrets" }, SECRETS, admin);
    expect(res.status).not.toBe(200);
    expect(await received()).toEqual([]);
    // The operator's own URL for it does get the key.
    expect((await put("settings", { brave: { baseUrl: null } })).status).toBe(200);
    const operator = { ...SECRETS, WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], brave: { baseUrl: `${attacker}/operator` } }) };
    expect((await settings(operator)).providerKeys.brave).toBe(SECRETS.BRAVE_SEARCH_API_KEY);
  });

  it("an apiKeyEnv pointing at another provider's variable does not carry it to a configured URL", async () => {
    await reachAttacker();
    expect((await put("settings", { serper: { enabled: true, baseUrl: `${attacker}/serper`, apiKeyEnv: "TAVILY_API_KEY" } })).status).toBe(200);
    expect((await settings()).providerKeys.serper).toBeUndefined();
  });

  it("a stored search key is dropped when a later write changes its provider's URL", async () => {
    await reachAttacker();
    expect((await put("auth", { tavily: { apiKey: "stored-tavily-0123456789" } })).status).toBe(200);
    expect((await settings()).providerKeys.tavily).toBe("stored-tavily-0123456789");
    expect((await put("settings", { tavily: { enabled: true, baseUrl: `${attacker}/tavily` } })).status).toBe(200);
    expect((await settings()).providerKeys.tavily).toBeUndefined();
    expect((await call("GET", "/api/config/auth", undefined, SECRETS, admin)).body.values.tavily).toEqual({});
    // A key given for the new URL stays with it.
    expect((await put("auth", { tavily: { apiKey: "for-the-new-url-0123" } })).status).toBe(200);
    expect((await settings()).providerKeys.tavily).toBe("for-the-new-url-0123");
  });

  it("an operator's model provider keeps its URL: a stored write cannot redirect its key", async () => {
    const redirect = await put("auth", { modelProviders: { corp: { api: "openai-compatible", baseURL: `${attacker}/v1` } } });
    expect(redirect.status).toBe(422);
    expect(redirect.body.error.fields).toEqual(["modelProviders.corp.baseURL"]);
    expect(redirect.body.error.message).toContain("AGENT_CONFIG");
    // Its models and key may still be set; its URL stays the operator's.
    expect((await put("auth", { modelProviders: { corp: { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", models: [{ id: "m" }] } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.corp).toMatchObject({ baseURL: "http://127.0.0.2:9/v1", apiKey: "sk-operator-model-key-0123456789", models: [{ id: "m" }] });
  });

  it("a stored model provider loses its key when its URL changes without a new key (a mask is not a key)", async () => {
    const first = { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", apiKey: "sk-stored-model-0123456789" };
    expect((await put("auth", { modelProviders: { mine: first } })).status).toBe(200);
    await reachAttacker();
    const moved = await put("auth", { modelProviders: { mine: { ...first, baseURL: `${attacker}/v1`, apiKey: "sk-***" } } });
    expect(moved.status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBeUndefined();
    expect((await put("auth", { modelProviders: { mine: { baseURL: "http://127.0.0.2:9/v2", apiKey: "sk-fresh-key-0123456789" } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBe("sk-fresh-key-0123456789");
    expect((await put("auth", { modelProviders: { mine: { baseURL: "http://127.0.0.2:9/v3" } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBeUndefined();
  });
});

describe("a key goes only to the URL it was set with, written as pi-web's client writes it", () => {
  it("a stored model provider loses its key when its URL changes with a keep; a set with the new URL stays", async () => {
    const first = { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", apiKey: secretSet("sk-stored-model-0123456789") };
    expect((await put("auth", { modelProviders: { mine: first } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBe("sk-stored-model-0123456789");
    await reachAttacker();
    expect((await put("auth", { modelProviders: { mine: { ...first, baseURL: `${attacker}/v1`, apiKey: secretKeep() } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBeUndefined();
    expect((await put("auth", { modelProviders: { mine: { baseURL: "http://127.0.0.2:9/v2", apiKey: secretSet("sk-fresh-key-0123456789") } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBe("sk-fresh-key-0123456789");
    // A keep with the URL unchanged keeps it.
    expect((await put("auth", { modelProviders: { mine: { baseURL: "http://127.0.0.2:9/v2", apiKey: secretKeep() } } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.mine?.apiKey).toBe("sk-fresh-key-0123456789");
  });

  it("a search key set as a secret write is dropped when a later write changes its provider's URL", async () => {
    await reachAttacker();
    expect((await put("auth", { tavily: { apiKey: secretSet("stored-tavily-0123456789") } })).status).toBe(200);
    expect((await put("settings", { tavily: { enabled: true, baseUrl: `${attacker}/tavily` } })).status).toBe(200);
    expect((await settings()).providerKeys.tavily).toBeUndefined();
  });

  it("an operator's model provider takes a key set for its own URL, and refuses a write that moves it", async () => {
    const own = { api: "openai-compatible", baseURL: "http://127.0.0.2:9/v1", apiKey: secretSet("sk-set-for-corp-0123456789") };
    expect((await put("auth", { modelProviders: { corp: own } })).status).toBe(200);
    expect((await settings()).agent.modelProviders.corp?.apiKey).toBe("sk-set-for-corp-0123456789");
    const moved = await put("auth", { modelProviders: { corp: { ...own, baseURL: `${attacker}/v1` } } });
    expect(moved.status).toBe(422);
    expect(moved.body.error.fields).toEqual(["modelProviders.corp.baseURL"]);
    expect(await received()).toEqual([]);
  });
});

describe("URLs written through the config API pass the network policy", () => {
  const PRIVATE = ["http://127.0.0.9/", "http://[::ffff:127.0.0.9]/", "http://2130706441/", "http://0177.0.0.9/", "http://0x7f000009/", "http://localhost:9/", "http://api.localhost/", "http://private.test/", "http://10.0.0.1/v1"];

  it("refuses private destinations in every notation, and names that resolve to them, with 422 naming the field", async () => {
    for (const url of PRIVATE) {
      const search = await put("settings", { searxng: { enabled: true, baseUrl: url } });
      expect(search.status, url).toBe(422);
      expect(search.body.error.fields).toEqual(["searxng.baseUrl"]);
      const model = await put("auth", { modelProviders: { x: { api: "openai-compatible", baseURL: url } } });
      expect(model.status, url).toBe(422);
      expect(model.body.error.fields).toEqual(["modelProviders.x.baseURL"]);
    }
    expect((await settings()).config.searxng.baseUrl).toBe("");
  });

  it("web.allowHosts exempts a host; web.allowPrivateNetwork does not", async () => {
    expect((await put("sandbox", { allowPrivateNetwork: true })).status).toBe(200);
    expect((await put("settings", { searxng: { enabled: true, baseUrl: `${attacker}/` } })).status).toBe(422);
    expect((await put("sandbox", { allowHosts: ["127.0.0.9"] })).status).toBe(200);
    expect((await put("settings", { searxng: { enabled: true, baseUrl: `${attacker}/` } })).status).toBe(200);
  });

  it("a new URL that cannot be vetted because the sidecar is down is refused with 503, storing nothing", async () => {
    const down = { ...SECRETS, SIDECAR_URL: "http://127.0.0.1:9" };
    const res = await put("settings", { searxng: { enabled: true, baseUrl: "https://search.example/" } }, down);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("SIDECAR_UNAVAILABLE");
    expect((await settings()).config.searxng.baseUrl).toBe("");
  });

  it("the operator's URLs may be private", async () => {
    const operator = { ...SECRETS, WEB_CONFIG: JSON.stringify({ searxng: { enabled: true, baseUrl: "http://10.0.0.1/" } }) };
    const s = await settings(operator);
    expect(s.config.searxng.baseUrl).toBe("http://10.0.0.1/");
    expect(s.operatorUrls.search.searxng).toBe(true);
    expect(s.operatorUrls.models.corp).toBe(true);
  });

  it("is checked again at call time: once allowHosts no longer lists it, a search and a model listing send nothing", async () => {
    await reachAttacker();
    expect((await put("settings", { provider: "searxng", searxng: { enabled: true, baseUrl: `${attacker}/` } })).status).toBe(200);
    expect((await put("auth", { modelProviders: { listed: { api: "openai-compatible", baseURL: `${attacker}/v1` } } })).status).toBe(200);
    expect((await put("sandbox", { allowHosts: ["127.0.0.2"] })).status).toBe(200);
    const session = await newSession();
    const search = await call("POST", `/api/sessions/${session}/tools/web_search`, { query: "intranet" }, SECRETS, admin);
    expect(search.status).not.toBe(200);
    expect(search.body.error.message).toContain("network policy");
    const models = await call("GET", "/api/config/models", undefined, SECRETS, admin);
    expect(models.body.models.filter((m: { provider: string }) => m.provider === "listed")).toEqual([]);
    expect(await received()).toEqual([]);
  });
});

/** The dot paths of fields that take a URL or the name of an environment variable, `*` for a record's keys. */
function urlAndEnvFields(form: FormSchema, prefix = ""): string[] {
  return Object.entries(form).flatMap(([key, field]) => {
    if (field.fields) return urlAndEnvFields(field.fields, `${prefix}${key}.${field.kind === "record" ? "*." : ""}`);
    return /url$|env$/i.test(key) ? [`${prefix}${key}`] : [];
  });
}

describe("every field that takes a URL or an env name", () => {
  it("is known, and none carries any secret to another host", async () => {
    const fields = [...urlAndEnvFields(FORM_SCHEMAS.settings), ...urlAndEnvFields(FORM_SCHEMAS.auth)].sort();
    expect(fields).toEqual(
      [
        "brave.apiKeyEnv", "brave.baseUrl", "ddgs.baseUrl", "jina.baseUrl", "modelProviders.*.baseURL", "openserp.apiKeyEnv", "openserp.baseUrl",
        "searxng.baseUrl", "serper.apiKeyEnv", "serper.baseUrl", "tavily.apiKeyEnv", "tavily.baseUrl", "userAgentUrl",
      ].sort(),
    );
    await reachAttacker();
    for (const field of fields) {
      const [head, , leaf] = field.split(".");
      if (field.endsWith("apiKeyEnv")) {
        // Each provider pointed at the attacker with its own key variable and another provider's
        // (every other binding is refused outright: see the apiKeyEnv test).
        for (const name of [`${head!.toUpperCase()}${head === "brave" ? "_SEARCH" : ""}_API_KEY`, "TAVILY_API_KEY"]) {
          await put("settings", { provider: head, [head!]: { enabled: true, baseUrl: `${attacker}/${head}`, apiKeyEnv: name } });
          await call("POST", `/api/sessions/${await newSession()}/tools/web_search`, { query: `x ${head} ${name}` }, SECRETS, admin);
        }
      } else if (head === "modelProviders") {
        await put("auth", { modelProviders: { evil: { api: "openai-compatible", [leaf!]: `${attacker}/v1` } } });
        await call("GET", "/api/config/models", undefined, SECRETS, admin);
      } else if (head === "userAgentUrl") {
        // Named in the User-Agent of every request; nothing is ever sent to it.
        await put("settings", { userAgentUrl: `${attacker}/about` });
        await call("POST", `/api/sessions/${await newSession()}/tools/fetch_content`, { url: `${origin}/article.html`, maxAge: 0 }, SECRETS, admin);
      } else if (head === "jina") {
        await put("settings", { enableJinaFallback: true, jina: { baseUrl: `${attacker}/reader/` } });
        // (The reader is never asked about private pages, and the test's pages are all on loopback.)
        await call("POST", `/api/sessions/${await newSession()}/tools/fetch_content`, { url: `${origin}/article.html`, preferReader: true }, SECRETS, admin);
      } else {
        await put("settings", { provider: head, [head!]: { ...(head !== "ddgs" && { enabled: true }), baseUrl: `${attacker}/${head}` } });
        await call("POST", `/api/sessions/${await newSession()}/tools/web_search`, { query: `x ${head}` }, SECRETS, admin);
      }
    }
    const seen = await received();
    // The walk did reach the attacker (so the check below is not vacuous)…
    expect(seen.length).toBeGreaterThan(3);
    // …and nothing it received holds a secret.
    const everything = JSON.stringify(seen);
    for (const secret of SECRET_VALUES.filter((value) => value.length > 8)) expect(everything).not.toContain(secret);
  }, 90_000);
});
