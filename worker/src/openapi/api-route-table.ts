import { AGENT_ROUTES } from "../routes/agent-routes.ts";
import type { ApiRoute } from "../routes/api-route.ts";
import { DOWNLOAD_ROUTE, UPLOAD_ROUTE } from "../routes/attachment-routes.ts";
import { CONFIG_ROUTES } from "../routes/config-routes.ts";
import { CRAWL_ROUTES } from "../routes/crawl-routes.ts";
import { HEALTH_ROUTE } from "../routes/health-route.ts";
import { MCP_ROUTE } from "../routes/mcp-route.ts";
import { SESSION_READ_ROUTES } from "../routes/session-read-routes.ts";
import { SESSION_ROUTES } from "../routes/session-routes.ts";
import { SESSION_SOURCE_ROUTE } from "../routes/session-source-route.ts";
import { TOOL_ROUTES } from "../routes/tool-routes.ts";

/** This description itself (served by openapi-route.ts, which reads the table). */
export const OPENAPI_ROUTE = {
  method: "get",
  path: "/openapi.json",
  tag: "service",
  summary: "This description",
  auth: false,
  ok: { status: 200, description: "The OpenAPI 3.1 document.", type: "application/json" },
  errors: [],
} as const satisfies ApiRoute;

/**
 * Every route of the API, as each route module declares and serves it (so the document's schemas are the
 * ones the routes validate with); a test checks that the app serves exactly these.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  HEALTH_ROUTE,
  OPENAPI_ROUTE,
  ...SESSION_ROUTES,
  ...TOOL_ROUTES,
  ...SESSION_READ_ROUTES,
  ...AGENT_ROUTES,
  ...CRAWL_ROUTES,
  UPLOAD_ROUTE,
  DOWNLOAD_ROUTE,
  SESSION_SOURCE_ROUTE,
  MCP_ROUTE,
  ...CONFIG_ROUTES,
];
