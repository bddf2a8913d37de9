import { PROTOCOL_HEADER } from "@edge-web/shared";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { corsOrigins } from "../auth/cors-origins.ts";
import { jsonError } from "./respond.ts";

const ALLOW_METHODS = "GET, POST, PUT, DELETE, OPTIONS";
const ALLOW_HEADERS = ["authorization", "content-type", "last-event-id", PROTOCOL_HEADER.toLowerCase(), "mcp-protocol-version", "mcp-method", "mcp-name"].join(", ");
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/**
 * CORS for the pages API_CORS_ORIGINS lists: their preflight is answered here (before auth, which a
 * preflight never carries) and their answers, errors included, say they may read them. Other
 * origins get no CORS headers, so a browser keeps their pages from reading anything.
 */
export const crossOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const listed = corsOrigins(c.env.API_CORS_ORIGINS);
  if (!listed.ok) return jsonError(c, listed.error);
  const origin = c.req.header("origin");
  const allowed = origin !== undefined && URL.canParse(origin) && listed.value.includes(new URL(origin).origin);
  if (allowed && c.req.method === "OPTIONS") {
    return c.body(null, 204, {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": ALLOW_METHODS,
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
      vary: "Origin",
    });
  }
  await next();
  // The answer depends on Origin whenever origins are listed: caches must keep them apart.
  if (listed.value.length > 0) c.res.headers.append("vary", "Origin");
  if (allowed) {
    c.res.headers.set("access-control-allow-origin", origin);
    c.res.headers.set("access-control-expose-headers", PROTOCOL_HEADER);
  }
};
