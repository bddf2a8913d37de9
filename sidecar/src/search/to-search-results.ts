import type { SearchResult } from "@edge-web/shared";
import * as v from "valibot";
import { publishedDate } from "./published-date.ts";

/** A provider's result list: objects whose fields are checked one by one, so one odd field drops one result, not the search. */
export const RawItemsSchema = v.array(v.record(v.string(), v.unknown()));

/** One provider result before checking; fields are whatever the provider sent. */
export interface Candidate {
  title?: unknown;
  url?: unknown;
  snippet?: unknown;
  /** The provider's publication date, in whatever form it writes it. */
  published?: unknown;
  source: string;
}

const oneLine = (value: unknown) => (typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "");

/**
 * The candidates with an http(s) URL, as results: titles and snippets on one line, a missing
 * title replaced by the URL, empty snippets left out, dates as ISO 8601 (relative ones from `now`).
 */
export function toSearchResults(candidates: Iterable<Candidate>, now: number): SearchResult[] {
  const results: SearchResult[] = [];
  for (const candidate of candidates) {
    const url = typeof candidate.url === "string" ? candidate.url.trim() : "";
    const protocol = URL.parse(url)?.protocol;
    if (protocol !== "http:" && protocol !== "https:") continue;
    const snippet = oneLine(candidate.snippet);
    const published = publishedDate(candidate.published, now);
    results.push({ title: oneLine(candidate.title) || url, url, ...(snippet && { snippet }), source: candidate.source, ...(published && { publishedDate: published }) });
  }
  return results;
}
