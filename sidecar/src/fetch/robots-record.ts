/**
 * What an origin's robots.txt said (RFC 9309 §2.3.1): its rules (at most the first 500 KiB), or what
 * its failure means: unavailable (4xx, more than 5 redirects) allows everything, unreachable (5xx, no
 * answer) disallows everything. The rules keep every line, Crawl-delay too, for a crawler that honours it.
 */
export type RobotsRecord =
  | { kind: "rules"; url: string; body: string }
  | { kind: "allow-all"; url: string }
  | { kind: "disallow-all"; url: string; why: string };
