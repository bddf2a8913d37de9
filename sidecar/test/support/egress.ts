import type { DispatcherSource, HostResolver, NetworkPolicy, VettedAddress } from "../../src/fetch/egress-types.ts";
import { createDispatcherPool } from "../../src/fetch/pinned-dispatcher.ts";
import { createHostResolver } from "../../src/fetch/resolve-host.ts";
import type { DnsServer } from "./dns-server.ts";

export const USER_AGENT = "egress-test/1.0";

export const policy = (over: Partial<NetworkPolicy> = {}): NetworkPolicy => ({ allowPrivateNetwork: false, allowHosts: [], ...over });

const isLoopback = (address: string) => address.startsWith("127.") || address === "::1";

/**
 * The real dispatcher pool behind a guard that records every dispatcher handed out and refuses
 * non-loopback addresses, so even a broken policy can never make a test leave the machine.
 */
export function loopbackDispatchers(inner: DispatcherSource): DispatcherSource & { handedOut: { origin: string; vetted: VettedAddress }[] } {
  const handedOut: { origin: string; vetted: VettedAddress }[] = [];
  return {
    handedOut,
    dispatcherFor(origin, vetted) {
      handedOut.push({ origin, vetted });
      if (!isLoopback(vetted.address)) throw new Error(`test guard: refusing to connect to ${vetted.address}`);
      return inner.dispatcherFor(origin, vetted);
    },
    close: () => inner.close(),
  };
}

/** safeFetch dependencies wired to a loopback DNS server and a guarded real dispatcher pool. */
export function egressDeps(dns: DnsServer, options: { ca?: string } = {}) {
  const resolver: HostResolver = createHostResolver({ servers: [dns.address], timeoutMs: 2_000 });
  const dispatchers = loopbackDispatchers(
    createDispatcherPool({ maxSockets: 4, keepAliveTimeoutMs: 10_000, ...(options.ca && { connect: { ca: options.ca } }) }),
  );
  return { resolver, dispatchers, userAgent: USER_AGENT };
}
