import { createMcpHandler } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { isAllowedOrigin } from "../auth/is-allowed-origin.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { statusFor } from "../http/status-for.ts";
import { mcpServer } from "../mcp/mcp-server.ts";

/** A JSON-RPC error answer, as the MCP SDK writes its own. */
const rpcError = (status: number, code: number, message: string) => Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });

/** JSON-RPC batches were removed from MCP (2025-06-18); one request is one call, so a batch cannot multiply a request's work. */
const NO_BATCHES = () => rpcError(400, -32600, "Batch requests are not supported; send one JSON-RPC request per HTTP request.");

/**
 * `/mcp`: the tools over MCP Streamable HTTP (2025-11-25 and the stateless 2026-07-28 revision).
 * A browser may call it only from an allowed origin (scheme, host and port: the one the request
 * addressed, SERVED_HOSTNAMES, API_CORS_ORIGINS). The body is read here, capped as it streams, and
 * parsed once; the SDK is handed the parsed value, so what it serves is exactly what was checked.
 */
export const mcpRoute = new Hono<AppEnv>().all("/mcp", async (c) => {
  const origin = c.req.header("origin");
  if (origin !== undefined && !isAllowedOrigin(origin, c.req.url, c.env)) {
    return rpcError(403, -32000, `Pages of ${origin.slice(0, 100)} may not call this server; list the origin in API_CORS_ORIGINS.`);
  }
  let parsedBody: unknown;
  if (c.req.method === "POST") {
    const body = await readJsonBody(c, "INVALID_JSON");
    if (!body.ok) {
      const code = body.error.code === "INVALID_JSON" ? -32700 : -32000;
      return rpcError(statusFor(body.error), code, body.error.message);
    }
    if (Array.isArray(body.value)) return NO_BATCHES();
    parsedBody = body.value;
  }
  // One handler per request: nothing of one caller's exchange is reachable from another's.
  const handler = createMcpHandler(() => mcpServer(c.env, c.var.principal), { onerror: (error) => console.error("mcp", error.message) });
  return handler.fetch(c.req.raw, parsedBody === undefined ? undefined : { parsedBody });
});
