import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { OPENAPI_ROUTE } from "./api-route-table.ts";
import { openApiDocument } from "./openapi-document.ts";

/** Built once per isolate, base path and auth mode: the document only changes with them (its server URL is relative). */
const documents = new Map<string, string>();

/** GET /openapi.json: open to anyone, like the API's README, so clients can be generated before a token exists. */
export const openApiRoute = new Hono<AppEnv>().on(OPENAPI_ROUTE.method, OPENAPI_ROUTE.path, async (c) => {
  const base = c.var.options.basePath || "/";
  // What the running auth seam answers a request without a token says whether tokens are required.
  const auth = { bearer: (await c.var.options.authResolver(new Request(c.req.url), c.env)) === null, admin: (c.env.ADMIN_TOKEN?.trim() ?? "") !== "" };
  const key = `${auth.bearer}:${auth.admin}:${base}`;
  let document = documents.get(key);
  if (!document) documents.set(key, (document = JSON.stringify(openApiDocument(base, auth))));
  return c.body(document, 200, { "content-type": "application/json; charset=utf-8" });
});
