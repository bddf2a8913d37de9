import type { AllowList } from "../fetch/allow-list.ts";
import type { NetworkPolicy } from "../fetch/egress-types.ts";
import type { Refusal } from "../fetch/renderer.ts";

/** What one rendered page may do through the proxy, and what it has done. */
export interface ProxySession {
  readonly username: string;
  readonly password: string;
  readonly policy: NetworkPolicy;
  readonly allow: AllowList;
  /** Requests (and tunnels) past this many are refused. */
  readonly maxRequests: number;
  /** Response bytes past this many end the connection carrying them, and later requests are refused. */
  readonly maxBytes: number;
  /** Closes every connection the session still holds open. */
  readonly signal: AbortSignal;
  /** Fires once its responses have passed `maxBytes`: the page's render stops there. */
  readonly exceeded: AbortSignal;
  requests: number;
  bytes: number;
  /** The http URLs the proxy answered itself instead of passing an origin's answer on, with the status it gave: 403 refused, 502 unreachable. */
  readonly ownAnswers: Map<string, number>;
  /** Requests refused: by the network policy, the request cap, the byte cap, or for their method. */
  refused: number;
  /** The first few refusals, for web.debug. */
  refusals: Refusal[];
}

/** How many refusals a session keeps for the log; the rest are only counted. */
const MAX_REFUSALS = 20;

/** Counts one refusal and keeps it while there is room. */
export function refuse(session: ProxySession, host: string, reason: string): void {
  session.refused++;
  if (session.refusals.length < MAX_REFUSALS) session.refusals.push({ host, reason });
}
