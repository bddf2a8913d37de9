import ipaddr from "ipaddr.js";
import { parseIp } from "./parse-ip.ts";

/** IANA allocates global IPv6 unicast only from 2000::/3; ipaddr.js calls anything it has no name for "unicast". */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/** A deprecated IPv4-compatible address (::a.b.c.d) stands for its embedded IPv4; ipaddr.js calls it "unicast". */
function unwrapIpv4Compatible(ip: ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (ip.range() !== "unicast" || ip.parts.slice(0, 6).some((part) => part !== 0)) return ip;
  return new ipaddr.IPv4(ip.toByteArray().slice(12));
}

/**
 * The one classifier for every destination check: global only when ipaddr.js says "unicast" and
 * the address lies in no special range it leaves unnamed. Tunnels (NAT64, 6to4, Teredo) keep their
 * own ipaddr.js range names, so they are never global: they can reach private space.
 */
export function classifyIp(address: string): { isGlobal: boolean; range: string } {
  const parsed = parseIp(address);
  if (!parsed) return { isGlobal: false, range: "invalid" };
  const ip = parsed instanceof ipaddr.IPv6 ? unwrapIpv4Compatible(parsed) : parsed;
  const range = ip.range();
  if (range !== "unicast") return { isGlobal: false, range };
  if (ip instanceof ipaddr.IPv6 && !ip.match(GLOBAL_UNICAST_V6)) return { isGlobal: false, range: "reserved" };
  return { isGlobal: true, range };
}
