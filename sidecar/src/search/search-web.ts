import { ok, type SearchOutcome, type SidecarSearchRequest, type SidecarSearchSuccess } from "@edge-web/shared";
import type { SearchDeps, SearchProvider } from "./provider.ts";
import { selectProviders } from "./select-providers.ts";

/**
 * One search: select the providers, then ask them in order until one answers. Every failure moves
 * on to the next provider; when all fail, the last failure is the answer. Never throws.
 */
export async function searchWeb(req: SidecarSearchRequest, deps: SearchDeps, signal?: AbortSignal): Promise<SearchOutcome<SidecarSearchSuccess>> {
  const selected = selectProviders(req);
  if (!selected.ok) return selected;
  const ctx = { deps, timeoutMs: req.timeoutMs, maxResponseBytes: req.maxResponseBytes };
  const ask = async (provider: SearchProvider): Promise<SearchOutcome<SidecarSearchSuccess>> => {
    const answer = await provider.search(req.query, req.numResults, req.providers, ctx, signal);
    return answer.ok ? ok({ provider: provider.name, results: answer.value }) : answer;
  };
  const [first, ...rest] = selected.value;
  let outcome = await ask(first);
  for (const provider of rest) {
    // A caller that went away wants no more attempts.
    if (outcome.ok || signal?.aborted) break;
    outcome = await ask(provider);
  }
  return outcome;
}
