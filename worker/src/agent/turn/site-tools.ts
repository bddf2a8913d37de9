import {
  CrawlParamsSchema,
  CrawlStatusInputSchema,
  CrawlToolInputSchema,
  DEFAULT_CRAWL_WAIT_MS,
  displayUrl,
  MapParamsSchema,
  summarizeIssues,
  type CrawlParams,
  type CrawlState,
  type MapAnswer,
  type MapParams,
  type Result,
} from "@edge-web/shared";
import { jsonSchema, tool, type ToolSet } from "ai";
import * as v from "valibot";
import { SITE_TOOLS } from "../context/site-tool-definitions.ts";
import { modelOutputOf } from "../context/tool-result-budget.ts";
import { awaitCrawl } from "../../crawl/await-crawl.ts";
import { askApproval, ToolCallFailed, type AgentToolDeps } from "./agent-tools.ts";

/** What the agent's map and crawl tools ask of the session (session/turn-host.ts answers it). */
export interface SiteJobs {
  map(params: MapParams): Promise<Result<MapAnswer>>;
  startCrawl(params: CrawlParams): Promise<Result<{ crawlId: string }>>;
  readCrawl(crawlId: string): Promise<CrawlState | undefined>;
}



/** Checked input, or the failure the model reads. */
function parsed<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const checked = v.safeParse(schema, input);
  if (!checked.success) throw new ToolCallFailed(`INVALID_INPUT: ${summarizeIssues(checked.issues).text}`);
  return checked.output;
}

function answered<T>(result: Result<T>): T {
  if (!result.ok) throw new ToolCallFailed(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/**
 * `map`, `crawl` and `crawl_status` for a turn, run as the HTTP API runs them in the turn's session;
 * with the approval gate, the user is asked first, told the site and how many pages at most.
 */
export function siteTools(jobs: SiteJobs, deps: AgentToolDeps): ToolSet {
  const approve = (name: string, message: string, toolCallId: string, signal: AbortSignal | undefined) => askApproval(deps, name, message, toolCallId, signal);
  const output = ({ input, output }: { input: unknown; output: unknown }) => modelOutputOf(output, input, deps.maxResultChars);
  return {
    map: tool({
      description: SITE_TOOLS.map.description,
      inputSchema: jsonSchema(SITE_TOOLS.map.input as Parameters<typeof jsonSchema>[0]),
      async execute(input: unknown, { toolCallId, abortSignal }) {
        const params = parsed(MapParamsSchema, input);
        await approve("map", `List the URLs of ${displayUrl(params.url)} (its sitemaps, llms.txt and links; nothing else is read)`, toolCallId, abortSignal);
        return answered(await jobs.map(params));
      },
      toModelOutput: output,
    }),
    crawl: tool({
      description: SITE_TOOLS.crawl.description,
      inputSchema: jsonSchema(SITE_TOOLS.crawl.input as Parameters<typeof jsonSchema>[0]),
      async execute(input: unknown, { toolCallId, abortSignal }) {
        const { waitMs = DEFAULT_CRAWL_WAIT_MS, ...params } = parsed(CrawlToolInputSchema, input);
        const limit = v.parse(CrawlParamsSchema, params).limit ?? 50;
        await approve("crawl", `Crawl ${displayUrl(params.url)}: up to ${limit} pages, ${params.maxDepth ?? 2} links deep`, toolCallId, abortSignal);
        const { crawlId } = answered(await jobs.startCrawl(params));
        const state = await awaitCrawl(() => jobs.readCrawl(crawlId), waitMs, abortSignal);
        if (!state) throw new ToolCallFailed(`CRAWL_NOT_FOUND: the crawl ${crawlId} could not be read.`);
        return state;
      },
      toModelOutput: output,
    }),
    crawl_status: tool({
      description: SITE_TOOLS.crawl_status.description,
      inputSchema: jsonSchema(SITE_TOOLS.crawl_status.input as Parameters<typeof jsonSchema>[0]),
      async execute(input: unknown) {
        const { crawlId } = parsed(CrawlStatusInputSchema, input);
        const state = await jobs.readCrawl(crawlId);
        if (!state) throw new ToolCallFailed(`CRAWL_NOT_FOUND: no crawl "${crawlId}" in this session.`);
        return state;
      },
      toModelOutput: output,
    }),
  };
}
