import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { openApiDocument } from "../openapi/openapi-document.ts";

/** Built once per isolate and base path: the document only changes with the code (its server URL is relative). */
const documents = new Map<string, string>();

/** GET /openapi.json: open to anyone, like the API's README, so clients can be generated before a token exists. */
export const openApiRoute = new Hono<AppEnv>().get("/openapi.json", (c) => {
  const base = c.var.options.basePath || "/";
  let document = documents.get(base);
  if (!document) documents.set(base, (document = JSON.stringify(openApiDocument(base))));
  return c.body(document, 200, { "content-type": "application/json; charset=utf-8" });
});
