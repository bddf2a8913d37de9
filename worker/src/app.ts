import { fail, isCompatibleProtocolVersion, PROTOCOL_HEADER, PROTOCOL_VERSION } from "@edge-web/shared";
import { Hono } from "hono";
import type { Env } from "./env.ts";
import { jsonError } from "./http/respond.ts";
import { healthRoute } from "./routes/health-route.ts";
import { sessionRoutes } from "./routes/session-routes.ts";
import { toolRoutes } from "./routes/tool-routes.ts";

export function createApp() {
  const app = new Hono<{ Bindings: Env }>();

  app.use("*", async (c, next) => {
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
  });

  app.route("/healthz", healthRoute);
  app.route("/api/sessions", sessionRoutes);
  app.route("/api/sessions", toolRoutes);

  app.notFound((c) => jsonError(c, fail("ROUTE_NOT_FOUND", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`).error));
  app.onError((err, c) => {
    console.error("unhandled error", err instanceof Error ? err.message : String(err));
    return jsonError(c, fail("INTERNAL_ERROR", "The server failed unexpectedly; try again.").error);
  });
  return app;
}
