import * as v from "valibot";
import { cssSelectorProblem } from "./css-selector-problem.ts";
import { described } from "./described.ts";
import type { WebErrorCode } from "./error-codes.ts";
import { FailureDetailsSchema } from "./result.ts";
import { PROVIDER_NAMES } from "./web-config.ts";


/** How old a cached page (and, for web_search, a cached search) may be; the same parameter on both tools. */
const maxAge = (text: string) => v.optional(described(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must be 0 or more")), text));

/** How recent web_search's results must be. */
export const RECENCIES = ["day", "week", "month", "year"] as const;
export type Recency = (typeof RECENCIES)[number];

/** Most domains one search's includeDomains or excludeDomains may list. */
export const MAX_DOMAINS = 20;

/** A host name as DNS writes it (letters, digits, hyphens; IDNs in their xn-- form): no scheme, port, path or wildcard. */
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const domainList = (text: string) =>
  v.optional(
    described(
      v.pipe(
        v.array(v.pipe(v.string(), v.regex(DOMAIN_NAME, 'must be domain names such as "docs.python.org": no scheme, port or path'))),
        v.maxLength(MAX_DOMAINS, `must list at most ${MAX_DOMAINS} domains`),
      ),
      text,
    ),
  );

/** web_search's `provider`: one name (that provider alone, never another), several, or every one this service has ("all"). */
export const ALL_PROVIDERS = "all";
const PROVIDER_CHOICES: readonly string[] = [...PROVIDER_NAMES, ALL_PROVIDERS];
const providerProblem = (input: unknown) => {
  const unknown = (Array.isArray(input) ? input : [input]).filter((name) => !PROVIDER_CHOICES.includes(name as string));
  return `names no search provider of this service (${unknown.map((name) => JSON.stringify(name)).join(", ")}): use ${PROVIDER_NAMES.join(", ")}, a list of them, or "all"`;
};
export const ProviderChoiceSchema = v.union(
  [v.picklist([...PROVIDER_NAMES, ALL_PROVIDERS]), v.pipe(v.array(v.picklist(PROVIDER_NAMES)), v.minLength(1, "must name at least one provider"))],
  (issue) => providerProblem(issue.input),
);

/** Input objects keep unknown fields (agents send extras); known fields must have their types. */
export const WebSearchParamsSchema = v.looseObject({
  query: v.optional(described(v.string(), "One search query.")),
  queries: v.optional(described(v.array(v.string()), "Up to 5 queries, run in parallel.")),
  numResults: v.optional(described(v.number(), "Results per query (default and most: the service's web.maxResults).")),
  includeContent: v.optional(described(v.boolean(), "Also fetch each result's page as Markdown.")),
  maxAge: maxAge("How old (ms) a cached search or page may be; 0 asks afresh."),
  recency: v.optional(described(v.picklist(RECENCIES, 'must be "day", "week", "month" or "year"'), "Only results this recent.")),
  includeDomains: domainList("Only these domains and their subdomains."),
  excludeDomains: domainList("Not these domains nor their subdomains."),
  provider: v.optional(described(ProviderChoiceSchema, 'One provider, several (results merged) or "all".')),
});
export type WebSearchParams = v.InferOutput<typeof WebSearchParamsSchema>;

/** When fetch_content runs a page's scripts in a browser. */
export const RENDER_MODES = ["auto", "always", "never"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** A CSS selector list as a browser's querySelector reads it (waitForSelector, includeSelectors, excludeSelectors). */
const cssSelector = v.pipe(
  v.string(),
  v.nonEmpty("must not be empty"),
  v.maxLength(200, "must be at most 200 characters"),
  v.check(
    (selector) => cssSelectorProblem(selector) === undefined,
    (issue) => `must be a CSS selector (${cssSelectorProblem(String(issue.input))}); for example "article h1" or "#content .post"`,
  ),
);

/** Up to 20 selectors (includeSelectors, excludeSelectors). */
export const MAX_SELECTORS = 20;
const selectorList = (text: string) => v.optional(described(v.pipe(v.array(cssSelector), v.maxLength(MAX_SELECTORS, `must list at most ${MAX_SELECTORS} selectors`)), text));

/**
 * The longest URL a call may give. Servers commonly refuse URLs past 8 KB (414); a longer one is bad input, answered
 * at once rather than sent on, and a refusal that names it stays a readable size.
 */
export const MAX_GIVEN_URL_CHARS = 16_384;
export const givenUrl = v.pipe(v.string(), v.maxLength(MAX_GIVEN_URL_CHARS, `must be at most ${MAX_GIVEN_URL_CHARS} characters`));

/** The most passages one page answers (maxPassages), and how many without it. */
export const MAX_PASSAGES = 10;
export const DEFAULT_PASSAGES = 3;

export const FetchContentParamsSchema = v.looseObject({
  url: v.optional(described(givenUrl, "An http(s) URL to fetch. Use `urls` for several.")),
  urls: v.optional(described(v.array(givenUrl), "Several http(s) URLs, fetched in parallel; one result per URL, in order.")),
  preferReader: v.optional(described(v.boolean(), "Read the page through the configured reader service first (for pages that need a browser to render).")),
  render: v.optional(
    described(
      v.picklist(RENDER_MODES, 'must be "auto", "always" or "never"'),
      'Run the page\'s scripts in a headless browser before reading it: "auto" (default) when the HTML looks built by JavaScript, "always" for every HTML page, "never" to read the HTML as served. Rendered results carry metadata.rendered: true.',
    ),
  ),
  waitForSelector: v.optional(described(cssSelector, "When rendering: also wait (within the deadline) until this CSS selector is in the page.")),
  includeSelectors: selectorList(
    'Read only the elements these CSS selectors match (at most 20), in document order, instead of detecting the main content: for example ["#content", ".docs-body"]. A selector that matches nothing is named in parseWarning; when none matches, the main content is read.',
  ),
  excludeSelectors: selectorList('Remove the elements these CSS selectors match (at most 20) before anything else is read: for example [".cookie-banner", "#comments"].'),
  query: v.optional(
    described(
      v.pipe(v.string(), v.regex(/\S/, "must not be empty or blank"), v.maxLength(500, "must be at most 500 characters")),
      "A question or topic (at most 500 characters): each page also answers `passages`, the parts of its content that fit it best, ranked.",
    ),
  ),
  maxPassages: v.optional(
    described(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be 1 or more"), v.maxValue(MAX_PASSAGES, `must be at most ${MAX_PASSAGES}`)),
      `With \`query\`: how many passages each page answers at most (default ${DEFAULT_PASSAGES}, at most ${MAX_PASSAGES}).`,
    ),
  ),
  maxChars: v.optional(
    described(
      v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be 1 or more")),
      "Answer at most this many characters of each page's content, cut at a paragraph break (at most the service's web.maxContentChars); a cut page says truncated, totalChars and how to read on with get_search_content. The stored copy keeps the whole page.",
    ),
  ),
  maxAge: maxAge("How old (ms) a cached copy of a page may be; 0 reads it fresh. Default: web.fetchCache.maxAgeMs (1 hour)."),
});
export type FetchContentParams = v.InferOutput<typeof FetchContentParamsSchema>;

const positive = (text: string) => described(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(1, "must be 1 or more")), text);
const index = (text: string) => described(v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must be 0 or more")), text);

export const GetSearchContentParamsSchema = v.looseObject({
  responseId: described(
    // An id is a UUID; the bound keeps a refusal that repeats it a readable size.
    v.pipe(v.string("responseId is required: pass the responseId of a web_search or fetch_content result"), v.maxLength(200, "must be at most 200 characters")),
    "The responseId of an earlier web_search or fetch_content answer.",
  ),
  query: v.optional(described(v.string(), "Pick one query's results from a stored search, by its text.")),
  queryIndex: v.optional(index("Pick one query's results from a stored search, by position (0-based).")),
  url: v.optional(described(givenUrl, "Pick one page from a stored answer, by its URL.")),
  urlIndex: v.optional(index("Pick one page from a stored answer, by position (0-based).")),
  resultIndex: v.optional(
    index("With `queryIndex` or `query`: pick one search result of that query (0-based); its page (web_search with includeContent) is what `offset`, `maxChars` and `find` read."),
  ),
  offset: v.optional(
    index(
      "Read one page's content from this character (UTF-16 units, 0-based; default 0); needs one page picked (`urlIndex`/`url`, or `queryIndex`/`query` with `resultIndex`). Continue with the answer's `nextOffset`. With `find`: where the search starts.",
    ),
  ),
  maxChars: v.optional(
    positive(
      "Read at most this many characters of one page from `offset` (default and maximum: the service's web.maxContentChars); the window ends at a paragraph or line break near its end. With `find`: the most characters of passages answered.",
    ),
  ),
  find: v.optional(
    described(
      v.pipe(v.string(), v.regex(/\S/, "must not be empty or blank"), v.maxLength(200, "must be at most 200 characters")),
      'Search stored page text instead of reading it whole: a phrase (case-insensitive; any whitespace matches any whitespace) or a regex written /pattern/flags (flags from "imsu"; RE2 syntax, linear time: no lookaround or backreferences; it matches within one line; at most 200 characters). Answers the passages around each match (300 characters either side) with their offsets, from the picked page, or from every page of the result when none is picked.',
    ),
  ),
});
export type GetSearchContentParams = v.InferOutput<typeof GetSearchContentParamsSchema>;

export const ConvertContentParamsSchema = v.looseObject({
  url: v.optional(described(givenUrl, "An http(s) URL of a document (PDF, DOCX, XLSX, ODS, PPTX, or a page). Pass this or `attachmentId`.")),
  attachmentId: v.optional(described(v.string(), "The id of a file uploaded to this session (POST /attachments). Pass this or `url`.")),
  maxContentChars: v.optional(positive("Cut the Markdown to this many characters (at most the service's convert.maxContentChars).")),
  timeoutMs: v.optional(positive("Give up after this many milliseconds (at most the service's convert.timeoutMs).")),
  pages: v.optional(
    described(
      v.pipe(v.string(), v.regex(/^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$/, 'must list pages and ranges like "1-3,7"')),
      'Which pages (PDF), slides (PPTX) or sheets (XLSX, ODS) to read, like "1-3,7" (1-based); other formats have no pages.',
    ),
  ),
  images: v.optional(
    described(
      v.picklist(["names", "inline"], 'must be "names" or "inline"'),
      'Pictures in DOCX and PPTX: "names" (default) writes ![alt text](file name); "inline" embeds pictures up to 32 KiB as data: URIs.',
    ),
  ),
  comments: v.optional(described(v.boolean(), "DOCX comments as footnotes next to the text they comment on (default false: left out).")),
});
export type ConvertContentParams = v.InferOutput<typeof ConvertContentParamsSchema>;

/** What a conversion found out about the document (the original convert tool's metadata, plus pages). */
export const ConvertMetadataSchema = v.object({
  contentType: v.optional(v.string()),
  fileName: v.optional(v.string()),
  fileSize: v.optional(v.number()),
  durationMs: v.optional(v.number()),
  title: v.optional(v.string()),
  pages: v.optional(v.object({ total: v.number(), included: v.number() })),
});

/** A converted document without its responseId: what the sidecar answers. */
export const ConvertedDocumentSchema = v.object({
  source: described(v.string(), "The URL, or attachment:<id> for an uploaded file."),
  provider: described(v.string(), "The converter that ran (unpdf, mammoth, xlsx, ods, pptx, or the page handler)."),
  content: v.string(),
  truncated: v.boolean(),
  metadata: v.optional(ConvertMetadataSchema),
});
export type ConvertedDocument = v.InferOutput<typeof ConvertedDocumentSchema>;

export const ConvertContentSuccessSchema = v.object({ responseId: v.string(), ...ConvertedDocumentSchema.entries });
export type ConvertContentSuccess = v.InferOutput<typeof ConvertContentSuccessSchema>;

/** One window of a page's content that fits a query. */
export const PassageSchema = v.object({
  text: described(v.string(), "At most about 800 characters of the content, whole paragraphs where they fit."),
  heading: v.optional(described(v.string(), "The nearest heading above the passage.")),
  offset: described(v.number(), "Where the passage starts in the page's whole content (UTF-16 units); get_search_content's `offset` reads from there."),
  end: described(v.number(), "Where it ends (exclusive)."),
  score: described(v.number(), "How well it fits the query (BM25 over the page's paragraphs and sections); higher is better, comparable within one page."),
});
export type Passage = v.InferOutput<typeof PassageSchema>;

export const ExtractedContentSchema = v.object({
  url: v.string(),
  title: v.optional(v.string()),
  content: v.string(),
  truncated: v.boolean(),
  contentType: v.optional(v.string()),
  parseWarning: v.optional(v.string()),
  /** Additive to the seed's shape: page metadata when the handler finds it; `rendered: true` when a browser rendered the page. */
  metadata: v.optional(v.record(v.string(), v.union([v.string(), v.boolean()]))),
  /** With the page option `links` (a crawl's pages): the page's http(s) links, absolute, without fragments, in document order. */
  links: v.optional(v.array(v.string())),
  /** With `links`: the Crawl-delay (ms) the page's origin's robots.txt sets for us, when it sets one. */
  crawlDelayMs: v.optional(v.number()),
  /** The rest the worker adds to an answered page, after the fetch (and its cache): the sidecar never sets them. */
  passages: v.optional(described(v.array(PassageSchema), "With fetch_content's `query` (or web_search's query, with includeContent): the parts of the content that fit it best, best first.")),
  totalChars: v.optional(described(v.number(), "When `maxChars` cut the content: the whole content's length.")),
  nextOffset: v.optional(described(v.number(), "When `maxChars` cut the content: where the answered content ends, the `offset` to read on from with get_search_content.")),
  note: v.optional(described(v.string(), "When `maxChars` cut the content: how to read the rest.")),
});
export type ExtractedContent = v.InferOutput<typeof ExtractedContentSchema>;

/** A page as fetch_content and web_search (includeContent) answer it: the extracted page, and where it came from. */
export const PageResultSchema = v.object({
  ...ExtractedContentSchema.entries,
  fetchedAt: described(v.pipe(v.string(), v.isoTimestamp()), "When the origin was read for this content (ISO 8601): a cached copy keeps the time of its read, a copy the origin confirmed unchanged (304) the time it confirmed it."),
  fromCache: described(v.boolean(), "Whether the content came from the fetch cache rather than being extracted for this call."),
});
export type PageResult = v.InferOutput<typeof PageResultSchema>;

export const SearchResultSchema = v.object({
  title: v.string(),
  url: v.string(),
  snippet: v.optional(v.string()),
  source: v.optional(v.string()),
  publishedDate: v.optional(described(v.string(), "When the page was published (ISO 8601), when the provider says; relative dates (\"3 days ago\") resolved against the answer's time.")),
  sources: v.optional(
    described(
      v.array(v.object({ provider: v.picklist(PROVIDER_NAMES), rank: v.number() })),
      "With several providers asked: each that found this result (by its normalised URL) and its rank there (1 = first).",
    ),
  ),
  content: v.optional(PageResultSchema),
  contentError: v.optional(
    described(
      v.object({ code: v.string(), message: v.string(), details: v.optional(FailureDetailsSchema) }),
      'includeContent: why this result has no content (the page\'s failure; details.fault "blocked" for a bot check or block page).',
    ),
  ),
});
export type SearchResult = v.InferOutput<typeof SearchResultSchema>;

/**
 * How one provider's answer was filtered: `domains` "provider" (its own parameters), "query"
 * (site: operators in the query) or "filtered" (only our check on the results kept it in bounds:
 * the provider answered results outside them, which were dropped).
 */
export const AppliedSchema = v.object({
  /** "provider": its own parameter; "filtered": results dated outside the window dropped, undated kept; "unsupported": neither was possible (no parameter, no dates). */
  recency: v.optional(v.picklist(["provider", "filtered", "unsupported"])),
  domains: v.optional(v.picklist(["provider", "query", "filtered"])),
});
export type Applied = v.InferOutput<typeof AppliedSchema>;

/** A provider's failure as a merged answer reports it: its code and message (which never carry a key). */
export const ProviderErrorSchema = v.object({ code: v.string(), message: v.string() });
export type ProviderError = v.InferOutput<typeof ProviderErrorSchema>;

export const QueryResultDataSchema = v.object({
  query: v.string(),
  results: v.array(SearchResultSchema),
  applied: v.optional(described(v.record(v.string(), AppliedSchema), "With recency, includeDomains or excludeDomains: per provider that answered, how each filter was applied.")),
  providerErrors: v.optional(
    described(v.record(v.string(), ProviderErrorSchema), "With several providers asked: each that failed, and why; the others' results are answered."),
  ),
});
export type QueryResultData = v.InferOutput<typeof QueryResultDataSchema>;

export const WebSearchSuccessSchema = v.object({ responseId: v.string(), queries: v.array(QueryResultDataSchema) });
export type WebSearchSuccess = v.InferOutput<typeof WebSearchSuccessSchema>;

export const FetchContentSuccessSchema = v.object({ responseId: v.string(), results: v.array(PageResultSchema) });
export type FetchContentSuccess = v.InferOutput<typeof FetchContentSuccessSchema>;

/** What a responseId names: the whole search or fetch answer. */
export const StoredResultSchema = v.variant("kind", [
  v.object({ kind: v.literal("search"), responseId: v.string(), queries: v.array(QueryResultDataSchema) }),
  v.object({ kind: v.literal("fetch"), responseId: v.string(), results: v.array(ExtractedContentSchema) }),
]);
export type StoredResult = v.InferOutput<typeof StoredResultSchema>;

/** Where a found passage sits: a fetched page (`urlIndex`) or a search result's page (`queryIndex`, `resultIndex`). */
export const FoundPassageSchema = v.object({
  urlIndex: v.optional(v.number()),
  queryIndex: v.optional(v.number()),
  resultIndex: v.optional(v.number()),
  url: v.string(),
  offset: described(v.number(), "Where the passage starts in the page's content (UTF-16 units)."),
  end: described(v.number(), "Where it ends (exclusive)."),
  text: v.string(),
  matches: described(v.array(v.object({ offset: v.number(), length: v.number() })), "Each match in the passage, by its offset in the page's content."),
});
export type FoundPassage = v.InferOutput<typeof FoundPassageSchema>;

/**
 * One object rather than a union (MCP wants an object at an outputSchema's root): `result` is
 * today's answer, with `offset`/`end`/`totalChars`/`nextOffset` when a page was read in a window;
 * `find`, `matchCount`, `passages` and `capped` answer a search instead of `result`.
 */
export const GetSearchContentSuccessSchema = v.object({
  responseId: v.string(),
  result: v.optional(v.union([StoredResultSchema, ExtractedContentSchema, QueryResultDataSchema, SearchResultSchema])),
  offset: v.optional(described(v.number(), "Where the window (or the search) started in the page's content.")),
  end: v.optional(described(v.number(), "Where the window ends (exclusive); the content holds end - offset characters.")),
  totalChars: v.optional(described(v.number(), "The page's stored content length.")),
  nextOffset: v.optional(described(v.number(), "Pass as `offset` to read (or search) on; absent when nothing is left.")),
  find: v.optional(v.string()),
  matchCount: v.optional(described(v.number(), "How many matches the passages hold.")),
  passages: v.optional(v.array(FoundPassageSchema)),
  capped: v.optional(
    described(v.picklist(["matches", "maxChars", "scan"]), "Why the search stopped early: 100 matches, the passages reached maxChars, or 1,000,000 characters were scanned."),
  ),
});
export type GetSearchContentSuccess = v.InferOutput<typeof GetSearchContentSuccessSchema>;

export interface WebToolError {
  error: { code: WebErrorCode; message: string; fields?: string[] };
}

export const TOOL_NAMES = ["web_search", "fetch_content", "get_search_content", "convert_content"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
