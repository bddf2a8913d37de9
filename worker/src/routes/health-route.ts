import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { createSidecarClient } from "../sidecar-client.ts";

/** 200 only when the sidecar answers too: without it no tool can work. */
export const healthRoute = new Hono<AppEnv>().get("/", async (c) => {
  if (await createSidecarClient(c.env).healthy()) return jsonOk(c, { ok: true, sidecar: "ok" });
  return jsonError(c, { code: "SIDECAR_UNAVAILABLE", message: "The sidecar does not answer; check that it runs and SIDECAR_URL points at it." });
});
