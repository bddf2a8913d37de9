import { deadlineIn, fail, ok, type Result, type SidecarVetRequest } from "@edge-web/shared";
import { linkSignals } from "../link-signals.ts";
import { compileAllowList } from "./allow-list.ts";
import type { HostResolver, NetworkPolicy } from "./egress-types.ts";
import { parseUrl } from "./parse-url.ts";
import { vetDestination } from "./vet-destination.ts";

/** How a configured URL's refusal says to permit it. */
export const CONFIGURED_URL_HINT = "It was set through the config API, so only web.allowHosts can exempt it: add its host there to permit it.";

/** The policy a URL written through the config API passes: no private-network exemption but allowHosts. */
export const configuredPolicy = (policy: SidecarVetRequest["policy"]): NetworkPolicy => ({ ...policy, allowPrivateNetwork: false, exemptHint: CONFIGURED_URL_HINT });

/**
 * POST /v1/vet: whether a configured URL (a search or model provider's base URL) may be reached,
 * by the same checks a fetch makes, its DNS answers included; with `allowPrivateNetwork`, a page's
 * URL under the fetch policy. Answers the address it would use.
 * Failures keep the egress kinds as codes (blocked, dns, invalid-url, config, aborted).
 */
export async function vetUrl(req: SidecarVetRequest, deps: { resolver: HostResolver }, signal?: AbortSignal): Promise<Result<{ address: string }, string>> {
  const url = parseUrl(req.url);
  if (!url.ok) return url;
  const allow = compileAllowList(req.policy.allowHosts);
  if (!allow.ok) return allow;
  const deadline = deadlineIn(req.budgetMs ?? 5_000);
  const stop = linkSignals([signal, deadline.signal]);
  const policy = req.allowPrivateNetwork === undefined ? configuredPolicy(req.policy) : { ...req.policy, allowPrivateNetwork: req.allowPrivateNetwork };
  const vetted = await vetDestination(url.value, policy, allow.value, deps.resolver, stop.signal).finally(stop.unlink);
  if (!vetted.ok) return vetted.error.code === "aborted" && deadline.signal.aborted ? fail("timeout", `Resolving ${url.value.hostname} took too long.`) : vetted;
  return ok({ address: vetted.value.address });
}
