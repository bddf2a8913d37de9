import { HealthResponseSchema } from "@edge-web/shared";
import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { createSidecarClient } from "../sidecar-client.ts";
import type { ApiRoute } from "./api-route.ts";

export const HEALTH_ROUTE = {
  method: "get",
  path: "/healthz",
  tag: "service",
  summary: "Health",
  description: "200 only when the sidecar that makes every outbound request answers too.",
  auth: false,
  ok: { status: 200, description: "The service and its sidecar answer.", schema: HealthResponseSchema },
  errors: ["SIDECAR_UNAVAILABLE"],
} as const satisfies ApiRoute;

/** 200 only when the sidecar answers too: without it no tool can work. */
export const healthRoute = new Hono<AppEnv>().on(HEALTH_ROUTE.method, HEALTH_ROUTE.path, async (c) => {
  if (await createSidecarClient(c.env).healthy()) return jsonOk(c, { ok: true, sidecar: "ok" });
  return jsonError(c, { code: "SIDECAR_UNAVAILABLE", message: "The sidecar does not answer; check that it runs and SIDECAR_URL points at it." });
});
