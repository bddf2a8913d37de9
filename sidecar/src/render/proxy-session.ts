import type { AllowList } from "../fetch/allow-list.ts";
import type { NetworkPolicy } from "../fetch/egress-types.ts";

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
  requests: number;
  bytes: number;
  /** Requests refused: by the network policy, the request cap, the byte cap, or for their method. */
  refused: number;
  /** The first few refusals' reasons (origins only), for web.debug. */
  reasons: string[];
}

/** How many refusal reasons a session keeps. */
const MAX_REASONS = 10;

/** Counts one refusal and keeps its reason while there is room. */
export function refuse(session: ProxySession, reason: string): void {
  session.refused++;
  if (session.reasons.length < MAX_REASONS) session.reasons.push(reason);
}
