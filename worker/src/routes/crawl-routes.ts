import { CrawlParamsSchema, CrawlStateSchema, described, fail, MapParamsSchema, MapSuccessSchema, type CrawlState, type Result } from "@edge-web/shared";
import { Hono, type Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { ownerId } from "../auth/principal.ts";
import { loadSettings } from "../config/load-settings.ts";
import { crawlStub } from "../crawl/crawl-stub.ts";
import { mapForSession } from "../crawl/map-for-session.ts";
import { startCrawl } from "../crawl/start-crawl.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { openSession } from "../http/session-access.ts";
import { validate } from "../http/validate.ts";
import { BODY_ERRORS, SESSION_ERRORS, type ApiRoute } from "./api-route.ts";

const MAP = {
  method: "post",
  path: "/api/sessions/:id/map",
  tag: "tools",
  summary: "Map a site's URLs",
  description:
    "The site's URLs without crawling it: robots.txt's Sitemap lines and /sitemap.xml (indexes followed, gzip read), /llms.txt and the start page's links; one entry per URL with its `source` (and `lastmod` from sitemaps), kept to the start's site, robots.txt and the network policy applied, filtered by `search`.",
  body: { schema: MapParamsSchema },
  ok: { status: 200, description: "The URLs found, the counts and the sources that could not be read.", schema: MapSuccessSchema },
  errors: [...SESSION_ERRORS, "SESSION_ENDED", ...BODY_ERRORS, "INVALID_INPUT", "CONTENT_FETCH_FAILED", "CONTENT_FETCH_TIMEOUT", "CONTENT_FETCH_INVALID_URL", "SIDECAR_UNAVAILABLE"],
} as const satisfies ApiRoute;

const START_CRAWL = {
  method: "post",
  path: "/api/sessions/:id/crawls",
  tag: "tools",
  summary: "Start crawling a site",
  description:
    "Starts an asynchronous crawl: pages fetched as fetch_content fetches them (robots.txt, the network policy, the fetch cache, the page options), each stored as a result of the session, links followed within the site, depth, path globs and web.crawl's bounds. Progress streams as `data-crawl` chunks; GET the crawl for its state.",
  body: { schema: CrawlParamsSchema },
  ok: { status: 202, description: "The crawl started.", schema: v.object({ crawlId: v.string(), status: CrawlStateSchema.entries.status }) },
  errors: [...SESSION_ERRORS, "SESSION_ENDED", ...BODY_ERRORS, "INVALID_INPUT", "CONTENT_FETCH_FAILED", "CONTENT_FETCH_INVALID_URL", "CRAWL_LIMIT_REACHED", "SIDECAR_UNAVAILABLE"],
  headers: { "Retry-After": "With CRAWL_LIMIT_REACHED: seconds until a running crawl is due to end." },
} as const satisfies ApiRoute;

const READ_CRAWL = {
  method: "get",
  path: "/api/sessions/:id/crawls/:crawlId",
  tag: "tools",
  summary: "Read a crawl's state",
  query: v.object({ cursor: v.optional(described(v.string(), "The `nextCursor` of the previous read: the pages after it.")) }),
  ok: { status: 200, description: "The crawl's status, counts and up to 100 of its pages.", schema: CrawlStateSchema },
  errors: [...SESSION_ERRORS, "CRAWL_NOT_FOUND", "INVALID_INPUT"],
} as const satisfies ApiRoute;

const CANCEL_CRAWL = {
  method: "delete",
  path: "/api/sessions/:id/crawls/:crawlId",
  tag: "tools",
  summary: "Cancel a crawl",
  description: "Nothing new starts; pages being fetched settle as they come. Answers the crawl's state.",
  ok: { status: 200, description: "The crawl, cancelled (or as it ended before).", schema: CrawlStateSchema },
  errors: [...SESSION_ERRORS, "CRAWL_NOT_FOUND"],
} as const satisfies ApiRoute;

export const CRAWL_ROUTES: ApiRoute[] = [MAP, START_CRAWL, READ_CRAWL, CANCEL_CRAWL];

/** The JSON body, validated (400 INVALID_INPUT naming the fields). */
async function bodyOf<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): Promise<Result<v.InferOutput<S>>> {
  const body = await readJsonBody(c, "INVALID_INPUT");
  return body.ok ? validate(schema, body.value, "INVALID_INPUT") : body;
}

const notFound = (crawlId: string) => fail("CRAWL_NOT_FOUND", `No crawl "${crawlId}" in this session; POST /api/sessions/:id/crawls starts one.`);

/** The session's crawl named in the path, read (or cancelled) by its object; undefined for another session's or an unknown one. */
async function onCrawl(c: Context<AppEnv>, act: (stub: NonNullable<ReturnType<typeof crawlStub>>, sessionId: string) => Promise<CrawlState | undefined>) {
  const session = await openSession(c, c.req.param("id")!, { active: false });
  if (!session.ok) return jsonError(c, session.error);
  const crawlId = c.req.param("crawlId")!;
  const stub = crawlStub(c.env, crawlId);
  const state = stub && (await act(stub, session.value.record.sessionId));
  return state ? jsonOk(c, state) : jsonError(c, notFound(crawlId).error);
}

export const crawlRoutes = new Hono<AppEnv>()
  .on(MAP.method, MAP.path, async (c) => {
    const session = await openSession(c, c.req.param("id"), { active: true });
    if (!session.ok) return jsonError(c, session.error);
    const input = await bodyOf(c, MAP.body.schema);
    if (!input.ok) return jsonError(c, input.error);
    const settings = await loadSettings(c.env);
    if (!settings.ok) return jsonError(c, settings.error);
    const answer = await mapForSession(c.env, session.value.record.sessionId, input.value, settings.value.config);
    return answer.ok ? jsonOk(c, answer.value) : jsonError(c, answer.error);
  })
  .on(START_CRAWL.method, START_CRAWL.path, async (c) => {
    const session = await openSession(c, c.req.param("id"), { active: true });
    if (!session.ok) return jsonError(c, session.error);
    const input = await bodyOf(c, START_CRAWL.body.schema);
    if (!input.ok) return jsonError(c, input.error);
    const settings = await loadSettings(c.env);
    if (!settings.ok) return jsonError(c, settings.error);
    const started = await startCrawl(c.env, { sessionId: session.value.record.sessionId, owner: ownerId(c.var.principal) }, input.value, settings.value.config);
    return started.ok ? jsonOk(c, started.value, 202) : jsonError(c, started.error, "headers" in started ? started.headers : undefined);
  })
  .on(READ_CRAWL.method, READ_CRAWL.path, (c) => {
    const cursor = Number(c.req.query("cursor") ?? "0");
    if (!Number.isInteger(cursor) || cursor < 0) return jsonError(c, fail("INVALID_INPUT", "cursor: pass the `nextCursor` of the previous read.", ["cursor"]).error);
    return onCrawl(c, (stub, sessionId) => stub.read(sessionId, cursor));
  })
  .on(CANCEL_CRAWL.method, CANCEL_CRAWL.path, (c) => onCrawl(c, (stub, sessionId) => stub.cancel(sessionId)));
