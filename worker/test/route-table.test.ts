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
