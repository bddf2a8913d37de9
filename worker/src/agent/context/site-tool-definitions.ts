import { toJsonSchema } from "@valibot/to-json-schema";
import { CrawlStatusInputSchema, CrawlToolInputSchema, MapParamsSchema, SITE_TOOL_DESCRIPTIONS } from "@edge-web/shared";
import { CHARS_PER_TOKEN, type ContextLimits } from "./context-meter.ts";

/** The agent's map and crawl tools, as a model request carries their definitions. */
export const SITE_TOOLS = {
  map: { description: SITE_TOOL_DESCRIPTIONS.map, input: toJsonSchema(MapParamsSchema, { errorMode: "ignore" }) },
  crawl: { description: SITE_TOOL_DESCRIPTIONS.crawl, input: toJsonSchema(CrawlToolInputSchema, { errorMode: "ignore" }) },
  crawl_status: { description: SITE_TOOL_DESCRIPTIONS.crawl_status, input: toJsonSchema(CrawlStatusInputSchema, { errorMode: "ignore" }) },
} as const;

/** The site tools' definitions in characters (part of every call's size when they are offered). */
export const SITE_TOOL_CHARS = Object.entries(SITE_TOOLS).reduce((n, [name, def]) => n + name.length + def.description.length + JSON.stringify(def.input).length, 0);

/**
 * Whether a turn offers the site tools: only where their definitions (about 4,600 characters) take
 * at most 2 % of the model's window, so from about 57,000 tokens: every call carries them, and a
 * small window needs its room for the conversation.
 */
export const offersSiteTools = (limits: ContextLimits) => SITE_TOOL_CHARS <= limits.window * CHARS_PER_TOKEN * 0.02;
