import { createMcpHandler, localhostAllowedOrigins, originValidationResponse } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { MAX_JSON_BODY_BYTES } from "../http/read-json-body.ts";
import { mcpServer } from "../mcp/mcp-server.ts";

/**
 * `/mcp`: the tools over MCP Streamable HTTP (2025-11-25 and the stateless 2026-07-28 revision).
 * Browsers may call it from this service's own origin or a local one only, so a page elsewhere
 * cannot reach a local server through DNS rebinding.
 */
export const mcpRoute = new Hono<AppEnv>().all("/mcp", async (c) => {
  const allowed = [new URL(c.req.url).hostname, ...localhostAllowedOrigins()];
  const rejected = originValidationResponse(c.req.raw, allowed);
  if (rejected) return rejected;
  // One handler per request: nothing of one caller's exchange is reachable from another's.
  const handler = createMcpHandler(() => mcpServer(c.env, c.var.principal), {
    maxRequestBodySize: MAX_JSON_BODY_BYTES,
    onerror: (error) => console.error("mcp", error.message),
  });
  return handler.fetch(c.req.raw);
});
