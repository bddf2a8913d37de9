import { displayUrl, fetchBudgetMs, type Failure, type MapAnswer, type SidecarMapRequest } from "@edge-web/shared";
import type { FetchContentDeps } from "../fetch/egress-types.ts";
import { fetchFailure } from "../fetch/fetch-failure.ts";
import { mapSite } from "./map-site.ts";

/** POST /v1/map: the site's map, or its failure in fetch_content's codes (a start the policy refuses is CONTENT_FETCH_FAILED, fault policy). */
export async function mapAnswer(req: SidecarMapRequest, deps: FetchContentDeps, signal?: AbortSignal): Promise<{ ok: true; value: MapAnswer } | Failure> {
  const mapped = await mapSite(req, deps, signal);
  if (mapped.ok) return mapped;
  return fetchFailure(mapped.error, displayUrl(req.url), req.options, { budgetMs: req.budgetMs ?? fetchBudgetMs(req.options), queuedMs: 0 });
}
