import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { API_ROUTES } from "../src/openapi/api-route-table.ts";

/** A table path against a Hono pattern: `:param` segments match any one segment. */
const covers = (pattern: string, path: string) => {
  const a = pattern.split("/");
  const b = path.split("/");
  return a.length === b.length && a.every((segment, i) => segment === b[i] || segment.startsWith(":"));
};

describe("the OpenAPI route table", () => {
  it("lists exactly the routes the app serves", () => {
    const served = createApp()
      .routes.filter((r) => !r.path.endsWith("*"))
      // ALL /mcp is MCP's one endpoint (POST in the table); ALL /api/config/:domain only answers 405.
      .map((r) => ({ method: r.method === "ALL" && r.path === "/mcp" ? "POST" : r.method, path: r.path }))
      .filter((r) => r.method !== "ALL");
    const listed = API_ROUTES.map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
    const unlisted = served.filter((s) => !listed.some((l) => l.method === s.method && covers(s.path, l.path)));
    const unserved = listed.filter((l) => !served.some((s) => s.method === l.method && covers(s.path, l.path)));
    expect(served.length).toBeGreaterThan(25);
    expect(unlisted).toEqual([]);
    expect(unserved).toEqual([]);
  });
});
