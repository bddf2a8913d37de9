import { toJsonSchema } from "@valibot/to-json-schema";
import { CrawlParamsSchema, described, MapParamsSchema } from "@edge-web/shared";
import * as v from "valibot";
import { CHARS_PER_TOKEN, type ContextLimits } from "./context-meter.ts";

/** The longest a turn's crawl call waits for its crawl before answering where it stands. */
export const MAX_CRAWL_WAIT_MS = 60_000;

/** The crawl tool's input: a crawl's parameters and how long to wait for it. */
export const CrawlToolInputSchema = v.object({
  ...CrawlParamsSchema.entries,
  waitMs: v.optional(described(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_CRAWL_WAIT_MS)), "How long to wait for the crawl (default 30000, at most 60000) before answering its state; crawl_status reads on.")),
});
export const CrawlStatusInputSchema = v.object({ crawlId: described(v.string(), "The crawl's id, as crawl answered it.") });

/** The agent's map and crawl tools, as a model request carries their definitions. */
export const SITE_TOOLS = {
  map: {
    description: "List a site's URLs without reading them (its sitemaps, llms.txt and the start page's links); `search` keeps URLs whose address or title holds every word. Use it to pick pages for fetch_content or crawl.",
    input: toJsonSchema(MapParamsSchema, { errorMode: "ignore" }),
  },
  crawl: {
    description: "Read many pages of one site: follows links (and its sitemaps) within the site up to `limit` pages (default 50) and `maxDepth` links away (default 2), `includePaths`/`excludePaths` globs narrowing it. Each page is stored like a fetch_content result (its `responseId` reads it with get_search_content). Waits up to `waitMs`, then answers the crawl's state.",
    input: toJsonSchema(CrawlToolInputSchema, { errorMode: "ignore" }),
  },
  crawl_status: {
    description: "A crawl's status, counts and pages with their responseIds.",
    input: toJsonSchema(CrawlStatusInputSchema, { errorMode: "ignore" }),
  },
} as const;

/** The site tools' definitions in characters (part of every call's size when they are offered). */
export const SITE_TOOL_CHARS = Object.entries(SITE_TOOLS).reduce((n, [name, def]) => n + name.length + def.description.length + JSON.stringify(def.input).length, 0);

/**
 * Whether a turn offers the site tools: only where their definitions (about 4,300 characters) take
 * at most 2 % of the model's window, so from about 54,000 tokens: every call carries them, and a
 * small window needs its room for the conversation.
 */
export const offersSiteTools = (limits: ContextLimits) => SITE_TOOL_CHARS <= limits.window * CHARS_PER_TOKEN * 0.02;
