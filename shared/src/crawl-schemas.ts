import * as v from "valibot";
import { described } from "./described.ts";
import { MAP_SOURCES, MAX_MAP_SEARCH_CHARS, MappedUrlSchema, MapProblemSchema } from "./sidecar-map-protocol.ts";
import { FetchContentParamsSchema, givenUrl } from "./tool-schemas.ts";

/** The deepest a crawl may follow links from its start page. */
export const MAX_CRAWL_DEPTH = 5;
/** Path globs one crawl may list in each of includePaths and excludePaths. */
export const MAX_PATH_GLOBS = 20;
/** Longest path glob. */
export const MAX_GLOB_CHARS = 200;

const count = (text: string) => v.optional(described(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be 1 or more")), text));
const sources = (text: string) => v.optional(described(v.picklist(MAP_SOURCES, `must be one of ${MAP_SOURCES.join(", ")}`), text));
const globs = (text: string) =>
  v.optional(
    described(
      v.pipe(v.array(v.pipe(v.string(), v.nonEmpty("must not be empty"), v.maxLength(MAX_GLOB_CHARS, `must be at most ${MAX_GLOB_CHARS} characters`))), v.maxLength(MAX_PATH_GLOBS, `must list at most ${MAX_PATH_GLOBS} globs`)),
      text,
    ),
  );
const url = described(v.pipe(givenUrl, v.nonEmpty("must not be empty")), "The site's start URL (http or https).");

/** POST /api/sessions/:id/map. */
export const MapParamsSchema = v.object({
  url,
  sources: sources('Where URLs are read from: "sitemap" (robots.txt\'s sitemaps, /sitemap.xml, /llms.txt), "links" (the start page\'s links) or "all" (default).'),
  search: v.optional(described(v.pipe(v.string(), v.maxLength(MAX_MAP_SEARCH_CHARS, `must be at most ${MAX_MAP_SEARCH_CHARS} characters`)), "Only URLs whose address or title holds every one of these words.")),
  limit: count("The most URLs answered (default 1000, at most web.crawl.maxMapUrls)."),
});
export type MapParams = v.InferOutput<typeof MapParamsSchema>;

export const MapSuccessSchema = v.object({
  url: v.string(),
  urls: v.array(MappedUrlSchema),
  counts: v.object({ found: v.number(), matched: v.number(), skippedByPolicy: v.number(), skippedByRobots: v.number(), sitemaps: v.number() }),
  problems: v.array(MapProblemSchema),
});
export type MapSuccess = v.InferOutput<typeof MapSuccessSchema>;

const page = FetchContentParamsSchema.entries;

/** POST /api/sessions/:id/crawls. */
export const CrawlParamsSchema = v.object({
  url,
  limit: count("The most pages fetched (default 50, at most web.crawl.maxPages)."),
  maxDepth: v.optional(described(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must be 0 or more"), v.maxValue(MAX_CRAWL_DEPTH, `must be at most ${MAX_CRAWL_DEPTH}`)), "How many links away from the start page (default 2, at most 5).")),
  sources: sources('Where pages are found: "links" (followed from the start page), "sitemap" (the site\'s sitemaps and llms.txt, then their links) or "all" (default).'),
  includePaths: globs('Only URL paths matching one of these globs ("*" within a segment, "**" across segments), e.g. ["/docs/**"].'),
  excludePaths: globs('No URL path matching one of these globs, e.g. ["/blog/**", "**/*.pdf"].'),
  allowSubdomains: v.optional(described(v.boolean(), "Also follow links to subdomains of the start host (default false).")),
  allowExternal: v.optional(described(v.boolean(), "Also follow links to other sites (default false).")),
  render: page.render,
  includeSelectors: page.includeSelectors,
  excludeSelectors: page.excludeSelectors,
  maxAge: page.maxAge,
  query: page.query,
});
export type CrawlParams = v.InferOutput<typeof CrawlParamsSchema>;

/** The longest a `crawl` tool call waits for its crawl before answering where it stands. */
export const MAX_CRAWL_WAIT_MS = 60_000;
export const DEFAULT_CRAWL_WAIT_MS = 30_000;

/** The `crawl` tool's input (MCP, agent turns): a crawl's parameters and how long to wait for it. */
export const CrawlToolInputSchema = v.object({
  ...CrawlParamsSchema.entries,
  waitMs: v.optional(
    described(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must be 0 or more"), v.maxValue(MAX_CRAWL_WAIT_MS, `must be at most ${MAX_CRAWL_WAIT_MS}`)),
      "How long to wait for the crawl (default 30000, at most 60000) before answering its state; crawl_status reads on.",
    ),
  ),
});

/** The `crawl_status` tool's input. */
export const CrawlStatusInputSchema = v.object({
  crawlId: described(v.string(), "The crawl's id, as crawl answered it."),
  cursor: v.optional(described(v.string(), "The `nextCursor` of the previous answer: its pages after those.")),
});

/** What the `map`, `crawl` and `crawl_status` tools say of themselves to a model (MCP and agent turns alike). */
export const SITE_TOOL_DESCRIPTIONS = {
  map: "List a site's URLs without reading them (its sitemaps, llms.txt and the start page's links, robots.txt and the network policy applied); `search` keeps URLs whose address or title holds every word. Use it to pick pages for fetch_content or crawl.",
  crawl:
    "Read many pages of one site: follows links (and its sitemaps) within the site up to `limit` pages (default 50) and `maxDepth` links away (default 2), `includePaths`/`excludePaths` globs narrowing it. Each page is stored like a fetch_content result (its `responseId` reads it with get_search_content). Waits up to `waitMs`, then answers the crawl's state.",
  crawl_status: "A crawl's status, counts and pages (100 at a time: pass `cursor` for more), each fetched page with its `responseId` for get_search_content.",
} as const;

export const CRAWL_STATUSES = ["queued", "running", "completed", "cancelled", "failed"] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];
export const CRAWL_PAGE_STATUSES = ["queued", "fetching", "fetched", "failed", "skipped"] as const;

export const CrawlCountsSchema = v.object({
  discovered: v.number(),
  fetched: v.number(),
  failed: v.number(),
  skippedByRobots: v.number(),
  skippedByFilter: v.number(),
  skippedByPolicy: v.number(),
  skippedByLimit: v.number(),
  /** URLs past the bounds of generated spaces: too long, too many query variants of a path, a path repeating itself. */
  skippedByTrap: v.number(),
  bytes: v.number(),
});
export type CrawlCounts = v.InferOutput<typeof CrawlCountsSchema>;

export const CrawlPageSchema = v.object({
  url: v.string(),
  depth: v.number(),
  status: v.picklist(CRAWL_PAGE_STATUSES),
  responseId: v.optional(v.string()),
  code: v.optional(v.string()),
  message: v.optional(v.string()),
});
export type CrawlPage = v.InferOutput<typeof CrawlPageSchema>;

export const CrawlStateSchema = v.object({
  crawlId: v.string(),
  url: v.string(),
  status: v.picklist(CRAWL_STATUSES),
  createdAt: v.string(),
  endedAt: v.optional(v.string()),
  /** Why a crawl ended before its frontier was empty: its time, its bytes, a cancel, or what failed it. */
  reason: v.optional(v.string()),
  limit: v.number(),
  maxDepth: v.number(),
  counts: CrawlCountsSchema,
  pages: v.array(CrawlPageSchema),
  /** Pass as `cursor` to read the pages after these. */
  nextCursor: v.optional(v.string()),
});
export type CrawlState = v.InferOutput<typeof CrawlStateSchema>;

/** The `data-crawl` chunk of a session's stream: a crawl started, a page of it settled, it finished. */
export type CrawlEvent =
  | { crawlId: string; event: "started"; url: string; limit: number }
  | { crawlId: string; event: "page"; page: CrawlPage; counts: CrawlCounts }
  | { crawlId: string; event: "finished"; status: CrawlStatus; reason?: string; counts: CrawlCounts };
