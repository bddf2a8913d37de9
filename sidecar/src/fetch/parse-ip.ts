import ipaddr from "ipaddr.js";
import type { VettedAddress } from "./egress-types.ts";

/**
 * Parses any textual IP ipaddr.js accepts (IPv6 optionally in brackets); IPv4-mapped IPv6
 * becomes its IPv4 so both spellings of one address compare equal.
 */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

/** The canonical text of a parsed address, as sockets take it. */
export function toVetted(ip: ipaddr.IPv4 | ipaddr.IPv6): VettedAddress {
  return { address: ip.toString(), family: ip.kind() === "ipv4" ? 4 : 6 };
}
