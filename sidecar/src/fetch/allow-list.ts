import { fail, withoutTrailing } from "@edge-web/shared";
import type { EgressResult } from "./egress-types.ts";
import ipaddr from "ipaddr.js";
import { parseIp } from "./parse-ip.ts";

export interface AllowList {
  allowsHost(hostname: string): boolean;
  allowsAddress(address: string): boolean;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Host names compare as the URL parser prints them: lower case, punycode, no trailing dot. */
export function normaliseHost(hostname: string): string {
  return withoutTrailing(hostname, ".").toLowerCase();
}

/** A CIDR, or an IP literal as a one-address range. Write IPv4-mapped ranges as IPv4 CIDRs. */
function parseRange(entry: string): Range | undefined {
  if (entry.includes("/")) return ipaddr.isValidCIDR(entry) ? ipaddr.parseCIDR(entry) : undefined;
  const ip = parseIp(entry);
  return ip && [ip, ip.kind() === "ipv4" ? 32 : 128];
}

/** A bare host name (no port, path, userinfo or wildcard), normalised by the WHATWG parser (case, IDN). */
function parseHostname(entry: string): string | undefined {
  const url = URL.parse(`http://${entry}/`);
  if (!url || url.href !== `http://${url.hostname}/`) return undefined;
  const host = normaliseHost(url.hostname);
  return /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host) ? host : undefined;
}

/** Compiles web.allowHosts: host names (exact), IP literals in any notation ipaddr.js reads, and CIDRs. */
export function compileAllowList(entries: readonly string[]): EgressResult<AllowList> {
  const hosts = new Set<string>();
  const ranges: Range[] = [];
  const invalid: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    const range = parseRange(entry);
    const host = range ? undefined : parseHostname(entry);
    if (range) ranges.push(range);
    else if (host) hosts.add(host);
    else invalid.push(raw);
  }
  if (invalid.length > 0) return fail("config", `web.allowHosts has entries that are not a host name, IP address or CIDR: ${invalid.join(", ")}.`);
  return {
    ok: true,
    value: {
      allowsHost: (hostname) => hosts.has(normaliseHost(hostname)),
      allowsAddress(address) {
        const ip = parseIp(address);
        return ip !== undefined && ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
      },
    },
  };
}
