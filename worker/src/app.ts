import { fail, isCompatibleProtocolVersion, PROTOCOL_HEADER, PROTOCOL_VERSION, withoutTrailing } from "@edge-web/shared";
import { Hono, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { ApiOptions, AppEnv } from "./app-env.ts";
import { isServedHost } from "./auth/is-served-host.ts";
import { ownerId } from "./auth/principal.ts";
import { tokenAuthResolver } from "./auth/token-auth-resolver.ts";
import { allowedMethods } from "./openapi/allowed-methods.ts";
import { crossOrigin } from "./http/cross-origin.ts";
import { refuseForeignPages } from "./http/refuse-foreign-pages.ts";
import { jsonError } from "./http/respond.ts";
import { agentRoutes } from "./routes/agent-routes.ts";
import { attachmentDownloadRoute, attachmentUploadRoute } from "./routes/attachment-routes.ts";
import { configRoutes } from "./routes/config-routes.ts";
import { crawlRoutes } from "./routes/crawl-routes.ts";
import { healthRoute } from "./routes/health-route.ts";
import { mcpRoute } from "./routes/mcp-route.ts";
import { openApiRoute } from "./openapi/openapi-route.ts";
import { sessionReadRoutes } from "./routes/session-read-routes.ts";
import { sessionRoutes } from "./routes/session-routes.ts";
import { sessionSourceRoute } from "./routes/session-source-route.ts";
import { toolRoutes } from "./routes/tool-routes.ts";

export const DEFAULT_API_OPTIONS: ApiOptions = {
  authResolver: tokenAuthResolver,
  authorizeSession: (principal, session) => principal.kind === "admin" || session.owner === ownerId(principal),
  routes: [],
  sse: { heartbeatMs: 15_000 },
  basePath: "",
};

/** The whole HTTP API as a Hono app; `options` are the seams another worker can set. */
export function createApp(overrides: Partial<ApiOptions> = {}) {
  const options: ApiOptions = { ...DEFAULT_API_OPTIONS, ...overrides };
  const app = new Hono<AppEnv>().basePath(options.basePath || "/");

  // nosniff and the rest of hono's defaults on every answer (a route's own value wins, e.g. attachments').
  app.use("*", secureHeaders({ overwrite: false }));
  app.use("*", async (c, next) => {
    // When the request arrived: a tool call's deadline runs from here (and web.debug trace counts from it).
    c.set("received", Date.now());
    c.set("options", options);
    const declared = c.req.header(PROTOCOL_HEADER);
    if (!isCompatibleProtocolVersion(declared)) {
      c.res = jsonError(
        c,
        fail("PROTOCOL_VERSION_MISMATCH", `This server speaks protocol ${PROTOCOL_VERSION}; the request declared ${declared}. Upgrade the client.`).error,
      );
    } else {
      await next();
    }
    c.res.headers.set(PROTOCOL_HEADER, PROTOCOL_VERSION);
    // A 204 has no body to encode, but the local runtime's front worker (miniflare emulating Cloudflare's compression)
    // adds Content-Encoding: gzip to every answer without a Content-Type. A type it never compresses keeps it off.
    if (c.res.status === 204 && !c.res.headers.has("content-type")) c.res.headers.set("content-type", "application/octet-stream");
  });

  app.route("/", healthRoute);
  app.route("/", openApiRoute);
  // Signed attachment URLs carry their own authorisation: a browser's <img src> cannot send a bearer token.
  app.route("/", attachmentDownloadRoute);

  // Everything under /api and /mcp needs a principal (open when no tokens are configured).
  const requirePrincipal: MiddlewareHandler<AppEnv> = async (c, next) => {
    const principal = await options.authResolver(c.req.raw, c.env);
    if (!principal) {
      const refused = fail("UNAUTHORIZED", "Send Authorization: Bearer <token> with one of the API tokens.").error;
      return jsonError(c, refused, { "www-authenticate": 'Bearer realm="edge-web-tools"' });
    }
    // Without tokens anyone who reaches the port may call: only requests addressed to this machine (or a listed name) are served.
    if (principal.kind === "open" && !isServedHost(new URL(c.req.url).hostname, c.env.SERVED_HOSTNAMES)) {
      const refused = fail("FORBIDDEN", "This server runs without API tokens, so it answers only requests addressed to localhost or a name in SERVED_HOSTNAMES; set API_TOKENS to serve other hosts.");
      return jsonError(c, refused.error);
    }
    c.set("principal", principal);
    await next();
  };
  app.use("/api/*", crossOrigin, requirePrincipal, refuseForeignPages);
  // /mcp checks the Origin itself, in every mode, and answers in JSON-RPC.
  app.use("/mcp", crossOrigin, requirePrincipal);

  app.route("/", sessionRoutes);
  app.route("/", toolRoutes);
  app.route("/", sessionReadRoutes);
  app.route("/", agentRoutes);
  app.route("/", crawlRoutes);
  app.route("/", attachmentUploadRoute);
  app.route("/", sessionSourceRoute);
  app.route("/", configRoutes);
  app.route("/", mcpRoute);
  // Extra routes come last, so built-in routes win on any conflict.
  for (const extra of options.routes) app.route("/", extra);

  // One rule for every route: a path the table knows with a method it does not serve is 405 naming the methods it does.
  app.notFound(async (c) => {
    const pathname = new URL(c.req.url).pathname;
    const path = pathname.slice(withoutTrailing(options.basePath, "/").length) || "/";
    if (c.env.ASSETS && (c.req.method === "GET" || c.req.method === "HEAD") && !/^\/(api|mcp)(\/|$)/.test(path)) {
      const file = await c.env.ASSETS.fetch(c.req.raw);
      // A copy: a fetched answer's headers are immutable, and the middleware adds to them.
      if (file.status !== 404) return new Response(file.body, file);
    }
    const allowed = allowedMethods(path);
    if (allowed.length === 0) return jsonError(c, fail("ROUTE_NOT_FOUND", `No route for ${c.req.method} ${pathname}.`).error);
    const refused = fail("METHOD_NOT_ALLOWED", `${c.req.method} is not supported on ${pathname}; use ${allowed.join(", ")}.`);
    return jsonError(c, refused.error, { allow: allowed.join(", ") });
  });
  app.onError((err, c) => {
    console.error("unhandled error", err instanceof Error ? err.message : String(err));
    return jsonError(c, fail("INTERNAL_ERROR", "The server failed unexpectedly; try again.").error);
  });
  return app;
}
