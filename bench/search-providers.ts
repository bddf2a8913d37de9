import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProviderName } from "@edge-web/shared";
import { KEYS, startFakeProviders } from "../sidecar/test/support/fake-providers.ts";
import { startStack } from "../test-support/stack.ts";
import { apiTarget } from "./bench-stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";

/** Three providers' answer times: the slowest decides how long asking all of them at once should take. */
const DELAYS_MS: Partial<Record<ProviderName, number>> = { ddgs: 50, brave: 150, tavily: 400 };
const SLOWEST: ProviderName = "tavily";

/**
 * p50 of web_search with provider "all" over three fakes (50, 150 and 400 ms) against the slowest
 * alone, on its own `npm start` stack with the search cache off: asked at once, "all" should take
 * the slowest's time plus a few milliseconds of fusion, not the 600 ms of the three in turn.
 */
export async function benchSearchProviders(rounds = 40) {
  const providers = await startFakeProviders();
  const { fakes } = providers;
  for (const [name, ms] of Object.entries(DELAYS_MS)) fakes[name as ProviderName].delay(ms);
  const persist = mkdtempSync(join(tmpdir(), "edge-web-bench-search-"));
  const web = {
    cache: { enabled: false },
    ddgs: { baseUrl: fakes.ddgs.baseUrl },
    brave: { enabled: true, baseUrl: fakes.brave.baseUrl },
    tavily: { enabled: true, baseUrl: fakes.tavily.baseUrl },
  };
  const stack = await startStack({ WEB_CONFIG: JSON.stringify(web), BRAVE_SEARCH_API_KEY: KEYS.brave, TAVILY_API_KEY: KEYS.tavily, PERSIST_DIR: persist });
  try {
    const target = apiTarget(stack.url);
    const sessionId = await target.newSession();
    const search = async (provider: string, answering: number) => {
      const res = await target.post(`/api/sessions/${sessionId}/tools/web_search`, { query: "rust programming", provider });
      const body = (await res.json()) as { queries?: { results: { sources?: unknown[] }[]; providerErrors?: object }[] };
      const [query] = body.queries ?? [];
      if (res.status !== 200 || query?.providerErrors || (provider === "all" && query?.results[0]?.sources?.length !== answering)) {
        throw new Error(`web_search with provider ${provider} answered ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    const answering = Object.keys(DELAYS_MS).length;
    await search("all", answering);
    const all = percentiles(await timeEach(rounds, () => search("all", answering)));
    const slowest = percentiles(await timeEach(rounds, () => search(SLOWEST, 1)));
    return {
      case: 'web_search provider "all" vs the slowest provider alone (npm start)',
      providerDelaysMs: DELAYS_MS,
      sumOfDelaysMs: Object.values(DELAYS_MS).reduce((a, b) => a + b, 0),
      rounds,
      all,
      slowest,
      differenceP50Ms: +(all.p50 - slowest.p50).toFixed(2),
      ratioP50: +(all.p50 / slowest.p50).toFixed(3),
    };
  } finally {
    await stack.stop();
    await providers.close();
    rmSync(persist, { recursive: true, force: true });
  }
}
