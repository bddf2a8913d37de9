import { type AllowList, normaliseHost } from "./allow-list.ts";
import type { EgressResult, NetworkPolicy, VettedAddress } from "./egress-types.ts";
import { fail } from "@edge-web/shared";
import { blocked } from "./blocked.ts";
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
  const name = normaliseHost(url.hostname);
  if (name === "") return blocked(url, "empty host", policy.exemptHint);
  const ip = parseIp(name);
  const listed = checkDomainLists(url, name, ip && toVetted(ip).address, policy, allow);
  if (!listed.ok) return listed;
  const exempt = policy.allowPrivateNetwork || allow.allowsHost(name);
  if (!ip) {
    if (!exempt && LOCAL_NAME.test(name)) return blocked(url, name, policy.exemptHint);
    return { ok: true, value: { kind: "name", hostname: url.hostname } };
  }
  const vetted = toVetted(ip);
  const { isGlobal, range } = classifyIp(vetted.address);
  if (!isGlobal && !exempt && !allow.allowsAddress(vetted.address)) return blocked(url, `${vetted.address} is ${range}`, policy.exemptHint);
  return { ok: true, value: { kind: "address", vetted } };
}

/** A domain-list entry as the URL parser prints host names (lower case, punycode), without trailing dots. */
function normaliseDomain(entry: string): string {
  const text = normaliseHost(entry.trim());
  return normaliseHost(URL.parse(`http://${text}/`)?.hostname ?? text);
}

/** `name` is `domain` or a subdomain of it. IP literals only ever match themselves. */
function isUnder(name: string, address: string | undefined, domain: string): boolean {
  if (domain === "") return false;
  if (address !== undefined) {
    const entryIp = parseIp(domain);
    return entryIp !== undefined && toVetted(entryIp).address === address;
  }
  return name === domain || name.endsWith(`.${domain}`);
}

/**
 * web.deniedDomains and web.allowedDomains, decided before anything else: a denied host is refused even
 * when allowHosts or allowPrivateNetwork would let it through. With allowedDomains set, IP literals
 * are not under any domain and pass only when allowHosts lists them.
 */
function checkDomainLists(url: URL, name: string, address: string | undefined, policy: NetworkPolicy, allow: AllowList): EgressResult<true> {
  const denied = (policy.deniedDomains ?? []).map(normaliseDomain).find((domain) => isUnder(name, address, domain));
  if (denied !== undefined) {
    return fail(
      "blocked",
      `The URL ${url.origin} was blocked by the network policy: ${name} is on the denied list (web.deniedDomains has ${denied}). ` +
        "Remove the entry from web.deniedDomains to permit it.",
    );
  }
  const allowed = (policy.allowedDomains ?? []).map(normaliseDomain).filter((domain) => domain !== "");
  if (allowed.length === 0) return { ok: true, value: true };
  if (address !== undefined) {
    if (allow.allowsAddress(address)) return { ok: true, value: true };
    return fail(
      "blocked",
      `The URL ${url.origin} was blocked by the network policy: web.allowedDomains is set and ${address} is an IP address, not a domain. ` +
        "Add the address to web.allowHosts to permit it.",
    );
  }
  if (allowed.some((domain) => isUnder(name, undefined, domain))) return { ok: true, value: true };
  return fail(
    "blocked",
    `The URL ${url.origin} was blocked by the network policy: ${name} is not on the allowed list (web.allowedDomains). ` +
      "Add its domain to web.allowedDomains to permit it.",
  );
}
