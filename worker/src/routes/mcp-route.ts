import { createMcpHandler } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { isAllowedOrigin } from "../auth/is-allowed-origin.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { statusFor } from "../http/status-for.ts";
import { mcpServer } from "../mcp/mcp-server.ts";
import type { ApiRoute } from "./api-route.ts";

/** A JSON-RPC error answer, as the MCP SDK writes its own. */
const rpcError = (status: number, code: number, message: string) => Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });

/** JSON-RPC batches were removed from MCP (2025-06-18); one request is one call, so a batch cannot multiply a request's work. */
const NO_BATCHES = () => rpcError(400, -32600, "Batch requests are not supported; send one JSON-RPC request per HTTP request.");

export const MCP_ROUTE = {
  method: "post",
  path: "/mcp",
  tag: "service",
  summary: "MCP (Streamable HTTP)",
  description:
    "The tools over the Model Context Protocol, for MCP clients: JSON-RPC 2.0 requests (initialize, tools/list, tools/call), protocol 2025-11-25 and the stateless 2026-07-28 revision. Each caller's calls run in a session of its own; a result's _meta.sessionId names it. A browser page from an origin that is not served (scheme, host and port) or listed in API_CORS_ORIGINS is refused with a JSON-RPC error (403).",
  body: { schema: v.looseObject({ jsonrpc: v.literal("2.0"), method: v.string(), id: v.optional(v.union([v.string(), v.number()])), params: v.optional(v.unknown()) }) },
  ok: { status: 200, description: "A JSON-RPC answer: application/json, or text/event-stream (2025-11-25 clients get a stream).", type: "application/json" },
  errors: [],
  otherResponses: {
    "202": { description: "A notification, accepted.", type: "text/plain" },
    "400": { description: "A JSON-RPC error: an invalid message, or a batch (one request per HTTP request).", type: "application/json" },
    "405": { description: "A JSON-RPC error, with Allow: POST, to every other method: this endpoint keeps no sessions and opens no stream of its own.", type: "application/json" },
    "406": { description: "A JSON-RPC error: the Accept header must allow application/json and text/event-stream.", type: "application/json" },
    "413": { description: "A JSON-RPC error: the body is over 1 MiB.", type: "application/json" },
    "415": { description: "A JSON-RPC error: the body must be application/json.", type: "application/json" },
  },
} as const satisfies ApiRoute;

/**
 * `/mcp`: the tools over MCP Streamable HTTP (2025-11-25 and the stateless 2026-07-28 revision).
 * A browser may call it only from an allowed origin (scheme, host and port: the one the request
 * addressed, SERVED_HOSTNAMES, API_CORS_ORIGINS). The body is read here, capped as it streams, and
 * parsed once; the SDK is handed the parsed value, so what it serves is exactly what was checked.
 */
export const mcpRoute = new Hono<AppEnv>().all(MCP_ROUTE.path, async (c) => {
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
