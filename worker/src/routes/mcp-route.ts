import { createMcpHandler, originValidationResponse } from "@modelcontextprotocol/server";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { servedHostnames } from "../auth/is-served-host.ts";
import { MAX_JSON_BODY_BYTES } from "../http/read-json-body.ts";
import { mcpServer } from "../mcp/mcp-server.ts";

/** JSON-RPC batches were removed from MCP (2025-06-18); one request is one call, so a batch cannot multiply a request's work. */
const NO_BATCHES = { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Batch requests are not supported; send one JSON-RPC request per HTTP request." } };

/** The body's first character that is not JSON whitespace, reading no further than it. */
async function firstCharacter(body: ReadableStream<Uint8Array> | null): Promise<string | undefined> {
  if (!body) return undefined;
  const reader = body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const at = chunk.value.findIndex((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d);
      if (at >= 0) return String.fromCharCode(chunk.value[at]!);
    }
    return undefined;
  } finally {
    void reader.cancel().catch(() => {});
  }
}

/**
 * `/mcp`: the tools over MCP Streamable HTTP (2025-11-25 and the stateless 2026-07-28 revision).
 * A browser may call it only from a page of the host it addressed (which an open server has
 * already checked is this machine or a name in SERVED_HOSTNAMES) or of a listed name.
 */
export const mcpRoute = new Hono<AppEnv>().all("/mcp", async (c) => {
  const allowed = [new URL(c.req.url).hostname, ...servedHostnames(c.env.SERVED_HOSTNAMES)];
  const rejected = originValidationResponse(c.req.raw, allowed);
  if (rejected) return rejected;
  if (c.req.method === "POST" && (await firstCharacter(c.req.raw.clone().body)) === "[") return c.json(NO_BATCHES, 400);
  // One handler per request: nothing of one caller's exchange is reachable from another's.
  const handler = createMcpHandler(() => mcpServer(c.env, c.var.principal), {
    maxRequestBodySize: MAX_JSON_BODY_BYTES,
    onerror: (error) => console.error("mcp", error.message),
  });
  return handler.fetch(c.req.raw);
});
