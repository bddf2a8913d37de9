import { promises as dns } from "node:dns";
import { linkSignals } from "../link-signals.ts";
import type { HostResolver } from "./egress-types.ts";

/** Settles with `work`, or rejects as soon as `signal` fires (dns.lookup itself cannot be cancelled). */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(signal.reason);
    };
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
  });
}

async function lookUp(hostname: string, servers: string[], signal: AbortSignal): Promise<string[]> {
  if (servers.length === 0) {
    const answers = await raceAbort(dns.lookup(hostname, { all: true, verbatim: true }), signal);
    return answers.map((answer) => answer.address);
  }
  // One Resolver per call: cancel() aborts every query in flight on it.
  const resolver = new dns.Resolver();
  resolver.setServers(servers);
  const settled = await raceAbort(
    Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]),
    signal,
    () => resolver.cancel(),
  );
  const answers = settled.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
  if (answers.length > 0) return answers;
  const failure = settled.find((result) => result.status === "rejected");
  throw failure ? failure.reason : new Error(`${hostname} has no A or AAAA records`);
}

/**
 * The system resolver by default; with `servers` (e.g. ["127.0.0.1:5353"], from SIDECAR_DNS_SERVERS)
 * A and AAAA queries go to those servers instead. IPv4 answers come first: they are the ones most
 * likely to be reachable from a container.
 */
export function createHostResolver(options: { servers?: string[]; timeoutMs?: number } = {}): HostResolver {
  const { servers = [], timeoutMs = 5_000 } = options;
  return {
    async resolve(hostname, signal) {
      const stop = linkSignals([signal, AbortSignal.timeout(timeoutMs)]);
      try {
        return await lookUp(hostname, servers, stop.signal);
      } finally {
        stop.unlink();
      }
    },
  };
}
