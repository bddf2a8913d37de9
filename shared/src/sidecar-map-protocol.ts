import * as v from "valibot";
import { FailureSchema } from "./result.ts";
import { SentRobotsEntrySchema } from "./robots-record.ts";
import { BudgetSchema, FetchOptionsSchema } from "./sidecar-protocol.ts";

/** Where a site's URLs are read from: its sitemaps (robots.txt's Sitemap lines, /sitemap.xml, indexes) and /llms.txt, the start page's links, or both. */
export const MAP_SOURCES = ["sitemap", "links", "all"] as const;
export type MapSource = (typeof MAP_SOURCES)[number];

/** Where one URL of a map was found. */
export const MAPPED_FROM = ["sitemap", "llms.txt", "links"] as const;

/** The most URLs one map may answer, whatever the settings say: a map is read in one answer. */
export const MAX_MAP_URLS = 100_000;
/** The words a map's `search` may hold: every one must appear in a URL or its title. */
export const MAX_MAP_SEARCH_CHARS = 200;

/** POST /v1/map: a site's URLs, from its sitemaps, llms.txt and the start page's links, each through the network policy. */
export const SidecarMapRequestSchema = v.object({
  url: v.string(),
  sources: v.picklist(MAP_SOURCES),
  search: v.optional(v.pipe(v.string(), v.maxLength(MAX_MAP_SEARCH_CHARS))),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_MAP_URLS)),
  /** The most sitemap files read (indexes included). */
  maxSitemaps: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000)),
  options: FetchOptionsSchema,
  budgetMs: BudgetSchema,
  /** The start origin's robots.txt record the worker holds, if any (else it is read). */
  robotsRecord: v.optional(SentRobotsEntrySchema),
});
export type SidecarMapRequest = v.InferOutput<typeof SidecarMapRequestSchema>;

export const MappedUrlSchema = v.object({
  url: v.string(),
  source: v.picklist(MAPPED_FROM),
  /** The sitemap's <lastmod>, as it was written (W3C datetime). */
  lastmod: v.optional(v.string()),
  /** The link's text, or the llms.txt entry's name. */
  title: v.optional(v.string()),
});
export type MappedUrl = v.InferOutput<typeof MappedUrlSchema>;

/** A source that could not be read: which, and why (the map goes on without it). */
export const MapProblemSchema = v.object({ url: v.string(), code: v.string(), message: v.string() });

export const MapAnswerSchema = v.object({
  url: v.string(),
  urls: v.array(MappedUrlSchema),
  counts: v.object({
    /** Distinct URLs of the site found, before `search` and `limit`. */
    found: v.number(),
    /** Of those, matched by `search` (all of them without one). */
    matched: v.number(),
    /** URLs left out because the network policy refuses their host (by name, address or DNS answer). */
    skippedByPolicy: v.number(),
    /** URLs left out because the site's robots.txt disallows them to us. */
    skippedByRobots: v.number(),
    /** Sitemap files read. */
    sitemaps: v.number(),
  }),
  problems: v.array(MapProblemSchema),
});
export type MapAnswer = v.InferOutput<typeof MapAnswerSchema>;

export const SidecarMapAnswerSchema = v.union([v.object({ ok: v.literal(true), value: MapAnswerSchema }), FailureSchema]);
