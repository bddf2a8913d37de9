import { fail } from "@edge-web/shared";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.ts";
import { isAllowedOrigin } from "../auth/is-allowed-origin.ts";
import { jsonError } from "./respond.ts";

/**
 * Without tokens, anyone whose browser reaches the port may call: a page of another site is refused
 * (403) unless it is a served origin or listed in API_CORS_ORIGINS, so it cannot drive a local server
 * even with requests a browser sends without asking (simple requests, no preflight).
 */
export const refuseForeignPages: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("origin");
  if (c.var.principal.kind === "open" && origin !== undefined && !isAllowedOrigin(origin, c.req.url, c.env)) {
    const refused = fail("FORBIDDEN", "This server runs without API tokens and answers browser pages only from the origins it serves; list the page's origin in API_CORS_ORIGINS, or set API_TOKENS.");
    return jsonError(c, refused.error);
  }
  await next();
};
