import type { AllowList } from "./allow-list.ts";
import type { EgressResult, NetworkPolicy, VettedAddress } from "./egress-types.ts";
import { blocked } from "./fail.ts";
import { classifyIp } from "./ip-classifier.ts";
import { parseIp, toVetted } from "./parse-ip.ts";

export type HostCheck = { kind: "address"; vetted: VettedAddress } | { kind: "name"; hostname: string };

/** Names that resolve to the machine or its local network by convention, whatever DNS says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal)$/;

/**
 * The DNS-free half of vetting. IP literals are decided here (the WHATWG parser has already turned
 * decimal, hex, octal and short IPv4 forms into dotted quads); names go on to resolution.
 */
export function checkHost(url: URL, policy: NetworkPolicy, allow: AllowList): EgressResult<HostCheck> {
  const name = url.hostname.toLowerCase().replace(/\.+$/, "");
  if (name === "") return blocked(url, "empty host");
  const exempt = policy.allowPrivateNetwork || allow.allowsHost(name);
  const ip = parseIp(name);
  if (!ip) {
    if (!exempt && LOCAL_NAME.test(name)) return blocked(url, name);
    return { ok: true, value: { kind: "name", hostname: url.hostname } };
  }
  const vetted = toVetted(ip);
  const { isGlobal, range } = classifyIp(vetted.address);
  if (!isGlobal && !exempt && !allow.allowsAddress(vetted.address)) return blocked(url, `${vetted.address} is ${range}`);
  return { ok: true, value: { kind: "address", vetted } };
}
