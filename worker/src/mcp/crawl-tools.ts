import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { toJsonSchema } from "@valibot/to-json-schema";
import {
  CrawlStateSchema,
  CrawlStatusInputSchema,
  CrawlToolInputSchema,
  DEFAULT_CRAWL_WAIT_MS,
  fail,
  MapParamsSchema,
  MapSuccessSchema,
  SITE_TOOL_DESCRIPTIONS,
  type CrawlState,
} from "@edge-web/shared";
import * as v from "valibot";
import type { Principal } from "../auth/principal.ts";
import { ownerId } from "../auth/principal.ts";
import { loadSettings } from "../config/load-settings.ts";
import { awaitCrawl } from "../crawl/await-crawl.ts";
import { crawlStub } from "../crawl/crawl-stub.ts";
import { validate } from "../http/validate.ts";
import { mapForSession } from "../crawl/map-for-session.ts";
import { startCrawl } from "../crawl/start-crawl.ts";
import type { Env } from "../env.ts";
import { advertised } from "./advertised.ts";
import { callerSession } from "./caller-session.ts";
import { toolFailure } from "./tool-failure.ts";


const json = (schema: v.GenericSchema) => advertised(toJsonSchema(schema, { errorMode: "ignore" }) as Record<string, unknown>);

function answer(value: object, sessionId: string): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown>, _meta: { sessionId } };
}

const parse = <S extends v.GenericSchema>(schema: S, args: unknown) => validate(schema, args ?? {}, "INVALID_INPUT");

/**
 * `map`, `crawl` and `crawl_status`: the HTTP API's map and crawls in the caller's MCP session. `crawl`
 * starts a crawl and waits up to `waitMs` for it, then answers its state and `crawlId`;
 * `crawl_status` reads a crawl of the caller's session on (its pages by cursor).
 */
export function registerCrawlTools(server: McpServer, env: Env, principal: Principal): void {
  const run = async (work: (sessionId: string) => Promise<CallToolResult>) => {
    try {
      return await work((await callerSession(env, principal)).sessionId);
    } catch (error) {
      console.error("mcp: a crawl tool failed", error instanceof Error ? error.message : String(error));
      return toolFailure(fail("INTERNAL_ERROR", "The call failed unexpectedly; try again.").error);
    }
  };
  const readState = async (sessionId: string, crawlId: string, cursor = 0): Promise<CrawlState | undefined> => crawlStub(env, crawlId)?.read(sessionId, cursor);
  const notFound = (crawlId: string) => toolFailure(fail("CRAWL_NOT_FOUND", `No crawl "${crawlId}" in this MCP session; call crawl to start one.`).error);

  server.registerTool(
    "map",
    {
      title: "Map a site",
      description: SITE_TOOL_DESCRIPTIONS.map,
      inputSchema: json(MapParamsSchema),
      outputSchema: json(MapSuccessSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args: unknown) =>
      run(async (sessionId) => {
        const params = parse(MapParamsSchema, args);
        if (!params.ok) return toolFailure(params.error);
        const settings = await loadSettings(env);
        if (!settings.ok) return toolFailure(settings.error);
        const mapped = await mapForSession(env, sessionId, params.value, settings.value.config);
        return mapped.ok ? answer(mapped.value, sessionId) : toolFailure(mapped.error);
      }),
  );

  server.registerTool(
    "crawl",
    {
      title: "Crawl a site",
      description: SITE_TOOL_DESCRIPTIONS.crawl,
      inputSchema: json(CrawlToolInputSchema),
      outputSchema: json(CrawlStateSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args: unknown) =>
      run(async (sessionId) => {
        const params = parse(CrawlToolInputSchema, args);
        if (!params.ok) return toolFailure(params.error);
        const settings = await loadSettings(env);
        if (!settings.ok) return toolFailure(settings.error);
        const { waitMs = DEFAULT_CRAWL_WAIT_MS, ...crawl } = params.value;
        const started = await startCrawl(env, { sessionId, owner: ownerId(principal) }, crawl, settings.value.config);
        if (!started.ok) return toolFailure(started.error, "headers" in started ? started.headers : undefined);
        const { crawlId } = started.value;
        const state = await awaitCrawl(() => readState(sessionId, crawlId), waitMs);
        return state ? answer(state, sessionId) : notFound(crawlId);
      }),
  );

  server.registerTool(
    "crawl_status",
    {
      title: "Read a crawl",
      description: SITE_TOOL_DESCRIPTIONS.crawl_status,
      inputSchema: json(CrawlStatusInputSchema),
      outputSchema: json(CrawlStateSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args: unknown) =>
      run(async (sessionId) => {
        const params = parse(CrawlStatusInputSchema, args);
        if (!params.ok) return toolFailure(params.error);
        const cursor = Number(params.value.cursor ?? "0");
        if (!Number.isInteger(cursor) || cursor < 0) return toolFailure(fail("INVALID_INPUT", "cursor: pass the `nextCursor` of the previous answer.", ["cursor"]).error);
        const state = await readState(sessionId, params.value.crawlId, cursor);
        return state ? answer(state, sessionId) : notFound(params.value.crawlId);
      }),
  );
}
