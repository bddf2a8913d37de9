import {
  createStepClock,
  wantsTimings,
  deadlineIn,
  ok,
  operatorUrlPolicy,
  type ProviderError,
  type SearchOutcome,
  type SidecarSearchRequest,
  type SidecarSearchSuccess,
  type StepTimings,
} from "@edge-web/shared";
import { configuredPolicy } from "../fetch/vet-url.ts";
import { enforceFilters } from "./enforce-filters.ts";
import { fuseResults } from "./fuse-results.ts";
import type { SearchContext, SearchDeps, SearchProvider, SearchQuery } from "./provider.ts";
import { selectProviders, type ProviderList } from "./select-providers.ts";

type Asked = (provider: SearchProvider, ctx: Omit<SearchContext, "policy">) => Promise<SearchOutcome<SidecarSearchSuccess>>;

/**
 * One search: select the providers, then either ask them in order until one answers (web.provider,
 * or one named provider, which is the only one), or ask them all at once and fuse their results (a
 * list, or "all"). In order, every failure moves on to the next provider while the search's deadline
 * (budgetMs, default web.timeoutMs) leaves time, and when all fail the last failure is the answer.
 * Never throws.
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
  const base = { deps, timeoutMs: req.timeoutMs, deadline, maxResponseBytes: req.maxResponseBytes, pool: req.connectionPool };
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
  const ask: Asked = async (provider, ctx) => {
    const policy = req.providers[provider.name].trusted ? operatorUrlPolicy() : configured;
    const answer = await provider.search(query, req.providers, { ...ctx, policy }, signal);
    if (!answer.ok) return answer;
    const { results, applied } = enforceFilters(provider, query, answer.value);
    return ok({ provider: provider.name, results, ...(applied && { applied: { [provider.name]: applied } }) });
  };
  const { providers, merge } = selected.value;
  if (merge) {
    const timings: StepTimings = {};
    const outcome = await askAll(providers, (provider) => ask(provider, base), query.numResults, timings);
    return wantsTimings(req.debug) ? { ...outcome, timings } : outcome;
  }
  const inTurn: Asked = async (provider, ctx) => {
    const answer = await ask(provider, ctx);
    clock.lap(provider.name);
    return answer;
  };
  const [first, ...rest] = providers;
  let outcome = await inTurn(first, { ...base, clock });
  for (const provider of rest) {
    // A caller that went away, or a spent deadline, wants no more attempts.
    if (outcome.ok || signal?.aborted || deadline.remainingMs() === 0) break;
    outcome = await inTurn(provider, { ...base, clock });
  }
  return wantsTimings(req.debug) ? { ...outcome, timings: clock.timings() } : outcome;
}

/**
 * Every provider at once, under the one deadline: their results fused, the ones that failed
 * reported in providerErrors. Only when all fail is the answer a failure: the first provider's.
 * Each provider's time goes to `timings` under its name (a step clock would mix their laps).
 */
async function askAll(
  providers: ProviderList,
  ask: (provider: SearchProvider) => Promise<SearchOutcome<SidecarSearchSuccess>>,
  numResults: number,
  timings: StepTimings,
): Promise<SearchOutcome<SidecarSearchSuccess>> {
  const answers = await Promise.all(
    providers.map(async (provider) => {
      const started = performance.now();
      const answer = await ask(provider);
      timings[provider.name] = Math.round((performance.now() - started) * 100) / 100;
      return answer;
    }),
  );
  const answered = answers.flatMap((answer) => (answer.ok ? [answer.value] : []));
  const [first] = answered;
  if (!first) return answers[0]!;
  const providerErrors: Record<string, ProviderError> = {};
  answers.forEach((answer, i) => {
    if (!answer.ok) providerErrors[providers[i]!.name] = { code: answer.error.code, message: answer.error.message };
  });
  const applied = Object.assign({}, ...answered.map((answer) => answer.applied));
  return ok({
    provider: first.provider,
    results: fuseResults(answered, numResults),
    ...(Object.keys(applied).length > 0 && { applied }),
    ...(Object.keys(providerErrors).length > 0 && { providerErrors }),
    latencyMs: Object.fromEntries(answered.map((answer) => [answer.provider, timings[answer.provider]!])),
  });
}
