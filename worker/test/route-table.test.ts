import { RegExpRouter } from "hono/router/reg-exp-router";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { matchesPattern } from "../src/openapi/allowed-methods.ts";
import { API_ROUTES } from "../src/openapi/api-route-table.ts";
import { call } from "./helpers.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** A concrete path for a table pattern. */
const concrete = (pattern: string) => pattern.replace(/:\w+/g, (param) => (param === ":domain" ? "settings" : "x1"));

describe("the OpenAPI route table", () => {
  it("lists exactly the routes the app serves", () => {
    const served = createApp()
      .routes.filter((r) => !r.path.endsWith("*"))
      // ALL /mcp is MCP's one endpoint (POST in the table).
      .map((r) => ({ method: r.method === "ALL" && r.path === "/mcp" ? "POST" : r.method, path: r.path }))
      .filter((r) => r.method !== "ALL");
    const listed = API_ROUTES.map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
    const unlisted = served.filter((s) => !listed.some((l) => l.method === s.method && matchesPattern(s.path, l.path)));
    const unserved = listed.filter((l) => !served.some((s) => s.method === l.method && matchesPattern(s.path, l.path)));
    expect(served.length).toBeGreaterThan(25);
    expect(unlisted).toEqual([]);
    expect(unserved).toEqual([]);
  });

  it("compiles into hono's RegExpRouter (a route it cannot compile drops every request to the slow TrieRouter)", () => {
    const router = new RegExpRouter<unknown>();
    for (const route of createApp().routes) router.add(route.method, route.path, route.handler);
    expect(() => router.match("POST", "/api/sessions/x1/tools/web_search")).not.toThrow();
    expect(router.match("POST", "/api/sessions/x1/tools/web_search")[0].length).toBeGreaterThan(0);
  });

  it("answers 405 with Allow for a method a known path does not serve, on every route", async () => {
    const paths = [...new Set(API_ROUTES.map((route) => concrete(route.path)))];
    for (const path of paths) {
      const served = new Set(API_ROUTES.filter((route) => matchesPattern(route.path, path)).map((route) => route.method.toUpperCase()));
      if (served.has("GET")) served.add("HEAD");
      const allow = [...served].sort().join(", ");
      for (const method of METHODS.filter((m) => !served.has(m))) {
        const res = await call(method, path);
        expect({ path, method, status: res.status }).toEqual({ path, method, status: 405 });
        expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow);
        // MCP's own endpoint answers in JSON-RPC; every other route in the error envelope (HEAD answers carry no body).
        if (path !== "/mcp" && method !== "HEAD") expect(res.body.error.code, `${method} ${path}`).toBe("METHOD_NOT_ALLOWED");
      }
    }
  });

  it("answers 404 ROUTE_NOT_FOUND for a path the table does not know, whatever the method", async () => {
    for (const path of ["/api/nope", "/api/sessions/x1/tools", "/api/sessions/x1/state/more", "/api/config", "/api/attachments/x1", "/mcp/x"]) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const res = await call(method, path);
        expect({ path, method, status: res.status, code: res.body.error.code }).toEqual({ path, method, status: 404, code: "ROUTE_NOT_FOUND" });
      }
    }
  });
});

describe("the OpenAPI document says what the running server requires", () => {
  const document = async (overrides: Record<string, string>) => (await call("GET", "/openapi.json", undefined, overrides)).body;

  it("bearer tokens everywhere with API_TOKENS, 401 on every route behind auth, none on open ones", async () => {
    const doc = await document({ API_TOKENS: "token-one,token-two" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/sessions"].post.responses["401"].description).toContain("UNAUTHORIZED");
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    expect(doc.paths["/healthz"].get.responses["401"]).toBeUndefined();
  });

  it("no token on an open server, said explicitly (security: []); with ADMIN_TOKEN alone, only configuration writes ask for one", async () => {
    const open = await document({ API_TOKENS: "", ADMIN_TOKEN: "" });
    expect(open.security).toEqual([]);
    expect(open.components.securitySchemes).toBeUndefined();
    expect(open.paths["/api/sessions"].post.responses["401"]).toBeUndefined();
    for (const [path, item] of Object.entries<Record<string, { security?: unknown }>>(open.paths)) {
      for (const [method, operation] of Object.entries(item)) expect(operation.security, `${method} ${path}`).toBeUndefined();
    }
    const admin = await document({ API_TOKENS: "", ADMIN_TOKEN: "the-admin-token" });
    expect(admin.security).toEqual([]);
    expect(admin.paths["/api/config/{domain}"].put.security).toEqual([{ bearerAuth: [] }]);
    expect(admin.paths["/api/config/{domain}"].put.responses["401"].description).toContain("UNAUTHORIZED");
    expect(admin.paths["/api/sessions"].post.security).toBeUndefined();
    expect(JSON.stringify(admin)).not.toContain("the-admin-token");
  });
});
