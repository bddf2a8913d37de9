import type { ProviderLatency } from "./provider-latency.ts";

/** The seed's SessionStats, plus `web`: what this session's tools did. */
export function sessionStats(sessionId: string, counters: Record<string, number>, latency: ReturnType<ProviderLatency["summary"]>, totalMessages: number) {
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
    userMessages: 0,
    assistantMessages: totalMessages,
    toolCalls: count("toolCalls"),
    toolResults: count("toolResults"),
    totalMessages,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
    web: {
      searches: count("tool.web_search"),
      fetches: count("tool.fetch_content"),
      pagesFetched: count("fetch.pages"),
      bytesFetched: count("fetch.bytes"),
      cacheHits: count("search.cache.hit"),
      cacheMisses: count("search.cache.miss"),
      errors: prefixed("errors."),
      providers,
    },
  };
}
