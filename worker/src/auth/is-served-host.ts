/** Loopback names and addresses: a request for one of them was sent to this machine on purpose. */
function isLocal(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/** SERVED_HOSTNAMES as a list of names. */
export function servedHostnames(served: string | undefined): string[] {
  return (served ?? "").split(",").map((entry) => entry.trim().toLowerCase().replace(/\.$/, "")).filter(Boolean);
}

/**
 * Whether a request addressed to `hostname` may be served without API tokens: loopback names, and
 * the names listed in SERVED_HOSTNAMES. Any other name means a page elsewhere may have rebound its
 * own domain to this server (DNS rebinding), so an open server refuses it.
 */
export function isServedHost(hostname: string, served: string | undefined): boolean {
  if (isLocal(hostname)) return true;
  return servedHostnames(served).includes(hostname.toLowerCase().replace(/\.$/, ""));
}
