import type { TokenTotals } from "../agent/model/token-usage.ts";
import type { ProviderLatency } from "./provider-latency.ts";

export interface MessageCounts {
  user: number;
  assistant: number;
  total: number;
}

/** The seed's SessionStats (messages, tool calls, tokens and cost of the model calls), plus `web`: what this session's tools did. */
export function sessionStats(
  sessionId: string,
  counters: Record<string, number>,
  latency: ReturnType<ProviderLatency["summary"]>,
  messages: MessageCounts,
  tokens: TokenTotals,
  cost: number,
) {
  const count = (name: string) => counters[name] ?? 0;
  const prefixed = (prefix: string) =>
    Object.fromEntries(Object.entries(counters).filter(([k]) => k.startsWith(prefix)).map(([k, n]) => [k.slice(prefix.length), n]));
  const providerCounts = prefixed("search.provider.");
  const providers = Object.fromEntries(
    [...new Set([...Object.keys(providerCounts), ...Object.keys(latency)])].map((name) => [
      name,
      { searches: providerCounts[name] ?? 0, p50Ms: latency[name]?.p50Ms ?? null },
    ]),
  );
  return {
    sessionId,
    userMessages: messages.user,
    assistantMessages: messages.assistant,
    toolCalls: count("toolCalls"),
    toolResults: count("toolResults"),
    totalMessages: messages.total,
    tokens: { ...tokens, total: tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite },
    cost: Math.round(cost * 1e8) / 1e8,
    compactions: {
      count: count("compaction.count"),
      tokens: { input: count("compaction.inputTokens"), output: count("compaction.outputTokens") },
      tokensSaved: count("compaction.tokensSaved"),
    },
    web: {
      searches: count("tool.web_search"),
      fetches: count("tool.fetch_content"),
      conversions: count("tool.convert_content"),
      pagesFetched: count("fetch.pages"),
      bytesFetched: count("fetch.bytes"),
      pagesRendered: count("fetch.rendered"),
      renderRequestsRefused: count("fetch.renderRefused"),
      cacheHits: count("search.cache.hit"),
      cacheMisses: count("search.cache.miss"),
      fetchCache: { hits: count("fetch.cache.hit"), misses: count("fetch.cache.miss"), revalidated: count("fetch.cache.revalidated") },
      errors: prefixed("errors."),
      providers,
    },
  };
}
