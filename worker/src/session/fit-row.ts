import { isPlainObject } from "@edge-web/shared";
import { cutText } from "../tools/cap-content.ts";

/** A Durable Object's SQLite row holds at most 2 MB; this leaves room for the row's other columns. */
export const MAX_ROW_BYTES = 1_900_000;

const encoder = new TextEncoder();
/** UTF-8 bytes of a string; a UTF-16 code unit is at most 3 bytes, which answers most without encoding. */
const fits = (text: string, maxBytes: number) => text.length * 3 <= maxBytes || encoder.encode(text).length <= maxBytes;

function longestString(node: unknown): number {
  if (typeof node === "string") return node.length;
  if (Array.isArray(node)) return node.reduce((max: number, item) => Math.max(max, longestString(item)), 0);
  if (isPlainObject(node)) return Object.values(node).reduce((max: number, item) => Math.max(max, longestString(item)), 0);
  return 0;
}

/** `node` with every string cut to `limit` characters (with "…"); objects with a boolean `truncated` whose strings were cut say so. */
function cutStrings(node: unknown, limit: number): unknown {
  if (typeof node === "string") return node.length > limit ? `${cutText(node, limit)}…` : node;
  if (Array.isArray(node)) return node.map((item) => cutStrings(item, limit));
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  let cut = false;
  for (const [key, inner] of Object.entries(node)) {
    out[key] = cutStrings(inner, limit);
    if (typeof inner === "string" && inner.length > limit) cut = true;
  }
  if (cut && typeof out.truncated === "boolean") out.truncated = true;
  return out;
}

/**
 * `value` as JSON in at most `maxBytes` UTF-8 bytes, so no storage write can exceed what a row
 * holds: when it is larger, its longest strings are cut just enough (found by bisection) to fit.
 * `text` is `value`'s JSON when the caller has it already.
 */
export function fitRow(value: unknown, maxBytes = MAX_ROW_BYTES, text = JSON.stringify(value)): string {
  if (fits(text, maxBytes)) return text;
  let lo = 0;
  let hi = longestString(value);
  let best = JSON.stringify(cutStrings(value, 0));
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const candidate = JSON.stringify(cutStrings(value, mid));
    if (fits(candidate, maxBytes)) {
      best = candidate;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
