import { deadlineIn, ok, type MapAnswer, type MappedUrl, type Result, type SidecarMapRequest } from "@edge-web/shared";
import robotsParser from "robots-parser";
import { compileAllowList } from "../fetch/allow-list.ts";
import type { EgressFailureKind, FetchContentDeps, FetchedResponse, NetworkPolicy } from "../fetch/egress-types.ts";
import { fetchResource, type ResourceFailureKind } from "../fetch/fetch-resource.ts";
import { parseUrl } from "../fetch/parse-url.ts";
import { readRobots } from "../fetch/read-robots.ts";
import { compileRobots } from "../fetch/robots-rules.ts";
import { vetDestination } from "../fetch/vet-destination.ts";
import { decodeText } from "../extract/decode-text.ts";
import { withContactUrl } from "../user-agent.ts";
import { llmsTxtLinks } from "./llms-txt-links.ts";
import { MAX_PAGE_LINKS, pageLinks, type PageLink } from "../extract/page-links.ts";
import { readSitemap } from "./read-sitemap.ts";

/** Sitemap files read at once: a site's politeness (web.crawl.hostConcurrency's default) holds while it is mapped. */
const SITEMAPS_AT_ONCE = 2;
/** The most distinct hosts of a site whose DNS answers are checked; URLs of further hosts are left out as unvetted. */
const MAX_VETTED_HOSTS = 100;

type Problem = MapAnswer["problems"][number];

/** The site a map covers: the start URL's host without a leading "www.", and its subdomains. */
function siteOf(host: string): (url: URL) => boolean {
  const site = host.replace(/^www\./, "");
  return (url) => url.hostname === site || url.hostname.endsWith(`.${site}`);
}

/** Every word of `search` (case-insensitive) in the URL, decoded, or its title. */
function matcher(search: string | undefined): (entry: MappedUrl) => boolean {
  const words = (search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return () => true;
  return (entry) => {
    let url = entry.url;
    try {
      url = decodeURI(url);
    } catch {
      // A URL with a broken escape is matched as written.
    }
    const text = `${url} ${entry.title ?? ""}`.toLowerCase();
    return words.every((word) => text.includes(word));
  };
}

/**
 * A site's URLs without crawling it: its sitemaps (robots.txt's Sitemap lines and /sitemap.xml,
 * indexes followed, gzip inflated), /llms.txt and the start page's links, read at once under one
 * deadline through the fetch path (network policy, per-host queue, byte caps), de-duplicated, kept to
 * the start's site, checked against its robots.txt when it is respected and against the network
 * policy (every host's DNS answers), filtered by `search`, at most `limit`. A source that cannot be
 * read is a problem reported beside the answer; a start URL the policy refuses fails the map.
 */
export async function mapSite(req: SidecarMapRequest, deps: FetchContentDeps, signal?: AbortSignal): Promise<Result<MapAnswer, EgressFailureKind | ResourceFailureKind>> {
  const parsed = parseUrl(req.url);
  if (!parsed.ok) return parsed;
  const start = parsed.value;
  const { options } = req;
  const allow = compileAllowList(options.allowHosts);
  if (!allow.ok) return allow;
  const policy: NetworkPolicy = { allowPrivateNetwork: options.allowPrivateNetwork, allowHosts: options.allowHosts, deniedDomains: options.deniedDomains, allowedDomains: options.allowedDomains };
  const startVetted = await vetDestination(start, policy, allow.value, deps.resolver, signal);
  if (!startVetted.ok) return startVetted;
  const deadline = deadlineIn(req.budgetMs ?? options.timeoutMs);
  const problems: Problem[] = [];
  const get = async (url: URL, accept: string, reportMissing: boolean): Promise<FetchedResponse | undefined> => {
    const got = await fetchResource({ url, accept, maxResponseBytes: options.maxResponseBytes, deadline, ...(signal && { signal }) }, options, deps);
    if (!got.ok) {
      problems.push({ url: url.href, code: got.error.code, message: got.error.message });
      return undefined;
    }
    const { status } = got.value;
    if (status >= 200 && status <= 299) return got.value;
    if (reportMissing || (status !== 404 && status !== 410)) problems.push({ url: url.href, code: "http-status", message: `answered HTTP ${status}` });
    return undefined;
  };

  const robotsRecord = req.robotsRecord?.origin === start.origin ? req.robotsRecord.record : undefined;
  const robots =
    robotsRecord ??
    (await readRobots(
      { origin: start.origin, policy, pool: options.connectionPool, timeoutMs: Math.max(1, Math.floor(deadline.remainingMs() / 2)), cutByDeadline: true, ...(signal && { signal }) },
      { ...deps, userAgent: withContactUrl(deps.userAgent, options.userAgentUrl) },
    ).then((read) => (read.ok ? read.value : undefined)));
  const allowedByRobots = robots && options.robots === "respect" ? compileRobots(robots) : () => ({ allowed: true as const });
  const declaredSitemaps = robots?.kind === "rules" ? robotsParser(robots.url, robots.body).getSitemaps() : [];

  const wantsSitemaps = req.sources !== "links";
  const wantsLinks = req.sources !== "sitemap";
  let sitemapsRead = 0;
  const readSitemaps = async (): Promise<MappedUrl[]> => {
    const found: MappedUrl[] = [];
    const queued = new Set<string>();
    const queue: { url: URL; declared: boolean }[] = [];
    const enqueue = (raw: string, declared: boolean) => {
      const url = URL.parse(raw);
      if (!url || queued.has(url.href)) return;
      queued.add(url.href);
      queue.push({ url, declared });
    };
    for (const raw of declaredSitemaps) enqueue(raw, true);
    enqueue(`${start.origin}/sitemap.xml`, false);
    // Breadth first, two files at a time: an index's children are read after the files before them.
    while (queue.length > 0 && sitemapsRead < req.maxSitemaps && !deadline.signal.aborted) {
      const batch = queue.splice(0, Math.min(SITEMAPS_AT_ONCE, req.maxSitemaps - sitemapsRead));
      sitemapsRead += batch.length;
      const read = await Promise.all(batch.map(({ url, declared }) => get(url, "application/xml, text/xml;q=0.9, */*;q=0.1", declared)));
      for (const [i, response] of read.entries()) {
        if (!response) continue;
        const content = await readSitemap(response.bytes, batch[i]!.url, options.maxResponseBytes);
        for (const page of content.urls) found.push({ ...page, source: "sitemap" });
        for (const child of content.sitemaps) enqueue(child, true);
      }
    }
    const llms = await get(new URL("/llms.txt", start.origin), "text/plain, text/markdown;q=0.9, */*;q=0.1", false);
    if (llms) {
      const text = decodeText(llms.bytes, llms.headers["content-type"], "text").text;
      for (const link of llmsTxtLinks(text, new URL(llms.url), MAX_PAGE_LINKS)) found.push({ ...link, source: "llms.txt" });
    }
    return found;
  };
  const readLinks = async (): Promise<MappedUrl[]> => {
    const verdict = allowedByRobots(start.href);
    if (!verdict.allowed) {
      problems.push({ url: start.href, code: "robots", message: `The start page's links were not read: ${verdict.reason}.` });
      return [];
    }
    const page = await get(start, "text/html, application/xhtml+xml;q=0.9, */*;q=0.1", true);
    if (!page) return [];
    const html = decodeText(page.bytes, page.headers["content-type"], "html").text;
    return pageLinks(html, new URL(page.url), MAX_PAGE_LINKS).map((link: PageLink) => ({ ...link, source: "links" as const }));
  };
  const [fromSitemaps, fromLinks] = await Promise.all([wantsSitemaps ? readSitemaps() : [], wantsLinks ? readLinks() : []]);

  // One entry per URL (WHATWG-normalised, fragment dropped when read), the first source's, with what later ones add.
  const inSite = siteOf(start.hostname);
  const merged = new Map<string, MappedUrl>();
  for (const entry of [...fromSitemaps, ...fromLinks]) {
    const url = new URL(entry.url);
    if (!inSite(url)) continue;
    const had = merged.get(url.href);
    merged.set(url.href, had ? { ...entry, ...had, ...(!had.title && entry.title && { title: entry.title }) } : entry);
  }
  let skippedByRobots = 0;
  let skippedByPolicy = 0;
  const hosts = new Map<string, Promise<boolean>>();
  const hostAllowed = (url: URL) => {
    let verdict = hosts.get(url.host);
    if (!verdict) {
      verdict =
        hosts.size >= MAX_VETTED_HOSTS
          ? Promise.resolve(false)
          : vetDestination(url, policy, allow.value, deps.resolver, deadline.signal).then((vetted) => vetted.ok);
      hosts.set(url.host, verdict);
    }
    return verdict;
  };
  const kept: MappedUrl[] = [];
  const verdicts = await Promise.all([...merged.values()].map(async (entry) => ({ entry, allowed: await hostAllowed(new URL(entry.url)) })));
  for (const { entry, allowed } of verdicts) {
    if (!allowed) skippedByPolicy++;
    else if (new URL(entry.url).origin === start.origin && !allowedByRobots(entry.url).allowed) skippedByRobots++;
    else kept.push(entry);
  }
  const matches = kept.filter(matcher(req.search));
  if (deadline.signal.aborted) problems.push({ url: start.href, code: "timeout", message: `The map stopped at its deadline (${deadline.budgetMs} ms); what was read by then is answered.` });
  return ok({
    url: start.href,
    urls: matches.slice(0, req.limit),
    counts: { found: merged.size, matched: matches.length, skippedByPolicy, skippedByRobots, sitemaps: sitemapsRead },
    problems,
  });
}
