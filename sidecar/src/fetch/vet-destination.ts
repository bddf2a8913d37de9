import type { AllowList } from "./allow-list.ts";
import type { EgressResult, HostResolver, NetworkPolicy, VettedAddress } from "./egress-types.ts";
import { fail } from "@edge-web/shared";
import { blocked } from "./blocked.ts";
import { errorReason } from "../error-reason.ts";
import { checkHost } from "./host-policy.ts";
import { classifyIp } from "./ip-classifier.ts";
import { parseIp, toVetted } from "./parse-ip.ts";

/**
 * Decides the one address a request may connect to. Every answer must pass, not just the one used:
 * a name with one public and one private answer is refused, so no later choice can reach private space.
 */
export async function vetDestination(
  url: URL,
  policy: NetworkPolicy,
  allow: AllowList,
  resolver: HostResolver,
  signal?: AbortSignal,
): Promise<EgressResult<VettedAddress>> {
  const checked = checkHost(url, policy, allow);
  if (!checked.ok) return checked;
  if (checked.value.kind === "address") return { ok: true, value: checked.value.vetted };
  const { hostname } = checked.value;
  let answers: string[];
  try {
    answers = await resolver.resolve(hostname, signal);
  } catch (error) {
    if (signal?.aborted) return fail("aborted", `Resolving ${hostname} was aborted.`);
    return fail("dns", `The host ${hostname} could not be resolved (${errorReason(error)}). Check the host name.`);
  }
  const exempt = policy.allowPrivateNetwork || allow.allowsHost(hostname);
  for (const answer of answers) {
    const { isGlobal, range } = classifyIp(answer);
    if (range === "invalid") return fail("dns", `The host ${hostname} resolved to an unusable answer.`);
    if (!isGlobal && !exempt && !allow.allowsAddress(answer)) return blocked(url, `${hostname} resolves to ${answer}, ${range}`, policy.exemptHint);
  }
  const first = parseIp(answers[0] ?? "");
  if (!first) return fail("dns", `The host ${hostname} has no addresses.`);
  return { ok: true, value: toVetted(first) };
}
