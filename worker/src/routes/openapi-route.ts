import { Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { openApiDocument } from "../openapi/openapi-document.ts";

/** Built once per isolate and server URL: the document only changes with the code. */
const documents = new Map<string, string>();

/** GET /openapi.json: open to anyone, like the API's README, so clients can be generated before a token exists. */
export const openApiRoute = new Hono<AppEnv>().get("/openapi.json", (c) => {
  const url = new URL(c.req.url);
  const base = `${url.origin}${c.req.path.slice(0, -"/openapi.json".length)}`;
  let document = documents.get(base);
  if (!document) {
    document = JSON.stringify(openApiDocument(base));
    if (documents.size < 16) documents.set(base, document);
  }
  return c.body(document, 200, { "content-type": "application/json; charset=utf-8" });
});
