import { createStepClock, wantsTimings, deadlineIn, ok, operatorUrlPolicy, type SearchOutcome, type SidecarSearchRequest, type SidecarSearchSuccess, type StepTimings } from "@edge-web/shared";
import { configuredPolicy } from "../fetch/vet-url.ts";
import { enforceFilters } from "./enforce-filters.ts";
import type { SearchDeps, SearchProvider, SearchQuery } from "./provider.ts";
import { selectProviders } from "./select-providers.ts";

/**
 * One search: select the providers, then ask them in order until one answers. Every failure moves
 * on to the next provider while the search's deadline (budgetMs, default web.timeoutMs) leaves time;
 * when all fail, the last failure is the answer. Never throws.
 */
export async function searchWeb(
  req: SidecarSearchRequest,
  deps: SearchDeps,
  signal?: AbortSignal,
): Promise<SearchOutcome<SidecarSearchSuccess> & { timings?: StepTimings }> {
  const selected = selectProviders(req);
  if (!selected.ok) return selected;
  const clock = createStepClock();
  const deadline = deadlineIn(req.budgetMs ?? req.timeoutMs);
  const base = { deps, timeoutMs: req.timeoutMs, deadline, maxResponseBytes: req.maxResponseBytes, pool: req.connectionPool, clock };
  const configured = configuredPolicy(req.policy);
  const lower = (domains: string[]) => domains.map((domain) => domain.toLowerCase());
  const query: SearchQuery = {
    text: req.query,
    numResults: req.numResults,
    ...(req.recency && { recency: req.recency }),
    now: Date.now(),
    includeDomains: lower(req.includeDomains),
    excludeDomains: lower(req.excludeDomains),
  };
  const ask = async (provider: SearchProvider): Promise<SearchOutcome<SidecarSearchSuccess>> => {
    const policy = req.providers[provider.name].trusted ? operatorUrlPolicy() : configured;
    const answer = await provider.search(query, req.providers, { ...base, policy }, signal);
    clock.lap(provider.name);
    if (!answer.ok) return answer;
    const { results, applied } = enforceFilters(provider, query, answer.value);
    return ok({ provider: provider.name, results, ...(applied && { applied: { [provider.name]: applied } }) });
  };
  const [first, ...rest] = selected.value;
  let outcome = await ask(first);
  for (const provider of rest) {
    // A caller that went away, or a spent deadline, wants no more attempts.
    if (outcome.ok || signal?.aborted || deadline.remainingMs() === 0) break;
    outcome = await ask(provider);
  }
  return wantsTimings(req.debug) ? { ...outcome, timings: clock.timings() } : outcome;
}
