import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApiHandler } from "../src/create-api-handler.ts";
import type { Env } from "../src/env.ts";
import { call } from "./helpers.ts";

const secured: Partial<Env> = { API_TOKENS: "token-alice, token-bob", ADMIN_TOKEN: "token-admin" };
const as = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

describe("bearer-token auth", () => {
  it("refuses requests without a valid token when API_TOKENS is set", async () => {
    for (const headers of [as(), as("token-mallory"), { authorization: "Basic dG9rZW4tYWxpY2U=" }]) {
      const res = await call("POST", "/api/sessions", { source: "t" }, secured, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("UNAUTHORIZED");
      expect(JSON.stringify(res.body)).not.toContain("token-alice");
    }
    expect((await call("POST", "/api/sessions", { source: "t" }, secured, as("token-alice"))).status).toBe(201);
  });

  it("keeps each session to the token that created it", async () => {
    const created = await call("POST", "/api/sessions", { source: "t" }, secured, as("token-alice"));
    const id = created.body.sessionId;
    const bob = (method: string, path: string, body?: unknown) => call(method, path, body, secured, as("token-bob"));
    for (const res of [
      await bob("POST", `/api/sessions/${id}/tools/get_search_content`, { responseId: "x" }),
      await bob("GET", `/api/sessions/${id}/stream`),
      await bob("GET", `/api/sessions/${id}/state`),
      await bob("DELETE", `/api/sessions/${id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
    const alice = await call("GET", `/api/sessions/${id}/state`, undefined, secured, as("token-alice"));
    expect(alice.status).toBe(200);
    const admin = await call("GET", `/api/sessions/${id}/state`, undefined, secured, as("token-admin"));
    expect(admin.status).toBe(200);
  });

  it("leaves everything open when no tokens are configured", async () => {
    expect((await call("POST", "/api/sessions", { source: "t" })).status).toBe(201);
  });

  it("leaves /healthz open", async () => {
    expect((await call("GET", "/healthz", undefined, secured)).status).toBe(200);
  });
});

describe("the API factory", () => {
  it("takes a custom auth resolver, session authorisation and a base path", async () => {
    const handle = createApiHandler({
      basePath: "/web",
      authResolver: async (request) => (request.headers.get("x-user") ? { kind: "token", id: request.headers.get("x-user")! } : null),
      authorizeSession: (principal) => principal.kind === "token" && principal.id === "root",
    });
    const bindings = env as unknown as Env;
    const post = (path: string, user?: string) =>
      handle(new Request(`http://api${path}`, { method: "POST", headers: { "content-type": "application/json", ...(user && { "x-user": user }) }, body: '{"source":"x"}' }), bindings);
    expect((await post("/web/api/sessions")).status).toBe(401);
    const created = await post("/web/api/sessions", "root");
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    const state = (user: string) => handle(new Request(`http://api/web/api/sessions/${sessionId}/state`, { headers: { "x-user": user } }), bindings);
    expect((await state("root")).status).toBe(200);
    expect((await state("guest")).status).toBe(403);
    expect((await handle(new Request("http://api/api/sessions", { method: "POST" }), bindings)).status).toBe(404);
  });

  it("lets built-in routes win over extra routes", async () => {
    const { Hono } = await import("hono");
    const extra = new Hono().get("/healthz", (c) => c.text("shadowed")).get("/extra", (c) => c.text("extra"));
    const handle = createApiHandler({ routes: [extra as never] });
    const bindings = env as unknown as Env;
    expect(await (await handle(new Request("http://api/extra"), bindings)).text()).toBe("extra");
    expect(((await (await handle(new Request("http://api/healthz"), bindings)).json()) as { ok: boolean }).ok).toBe(true);
  });
});

describe("signed attachment URLs under auth", () => {
  it("download without a bearer token while uploads need one", async () => {
    const withSecret = { ...secured, ATTACHMENT_SECRET: "attachment-test-secret" };
    const id = (await call("POST", "/api/sessions", { source: "t" }, withSecret, as("token-alice"))).body.sessionId;
    const { createApp } = await import("../src/app.ts");
    const app = createApp();
    const bindings = { ...(env as unknown as Env), ...withSecret };
    const form = new FormData();
    form.set("file", new File(["hello"], "hello.txt", { type: "text/plain" }));
    expect((await app.request(`/api/sessions/${id}/attachments`, { method: "POST", body: form }, bindings)).status).toBe(401);
    const upload = await app.request(`/api/sessions/${id}/attachments`, { method: "POST", body: form, headers: as("token-alice") }, bindings);
    expect(upload.status).toBe(200);
    const { displayUrl } = (await upload.json()) as { displayUrl: string };
    const download = await app.request(displayUrl, {}, bindings);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("hello");
  });
});
