import type { CrawlCounts, CrawlPage, CrawlParams, CrawlState, CrawlStatus } from "@edge-web/shared";
import type { CrawlPageOutcome as PageOutcome } from "../tools/crawl-page.ts";
import { judgeLink, normalizeUrl, type CrawlScope } from "./crawl-scope.ts";
import { compilePathGlobs } from "./path-globs.ts";

/** The bounds a crawl runs under, fixed when it starts (web.crawl and the call's own). */
export interface CrawlBounds {
  limit: number;
  maxDepth: number;
  hostConcurrency: number;
  hostDelayMs: number;
  maxBytes: number;
  maxQueryVariants: number;
  /** Epoch ms at which the crawl ends with what it has. */
  endsAt: number;
  /** How long a page handed out may go unanswered before it is handed out again. */
  leaseMs: number;
}

/** What a crawl is, as stored: its request, its bounds, where it stands. */
export interface CrawlJob {
  crawlId: string;
  sessionId: string;
  /** Whose crawl it is (the session's owner): crawls run at once are counted per owner. */
  owner: string;
  url: string;
  params: CrawlParams;
  bounds: CrawlBounds;
  status: CrawlStatus;
  createdAt: number;
  endedAt?: number;
  reason?: string;
  /** The sitemaps are still to be read (sources "sitemap" or "all"). */
  seedFromSitemaps: boolean;
  counts: CrawlCounts;
}

/** A page handed out to be fetched, on its `attempt`-th hand-out. */
export interface PageTask {
  seq: number;
  attempt: number;
  url: string;
  depth: number;
}


/** Tries before a page whose answers never came is failed. */
const MAX_ATTEMPTS = 3;
/** Pages of one crawl in flight at once, over all its hosts. */
const MAX_RUNNING = 8;
/** Links read from one page. */
const MAX_LINKS_PER_PAGE = 1_000;
/** New hosts of one page's links vetted before they are queued; the others' pages are vetted when fetched. */
const MAX_HOSTS_VETTED_PER_PAGE = 20;
/** URLs judged per crawl (followed or not); later ones count as skipped by the limit. */
const MAX_SEEN = 100_000;
/** The longest Crawl-delay a site's robots.txt gets honoured with; a longer one would stall the crawl until its time. */
export const MAX_CRAWL_DELAY_MS = 60_000;
/** Pages listed per read of a crawl's state. */
export const PAGES_PER_READ = 100;

export const emptyCounts = (): CrawlCounts => ({ discovered: 0, fetched: 0, failed: 0, skippedByRobots: 0, skippedByFilter: 0, skippedByPolicy: 0, skippedByLimit: 0, skippedByTrap: 0, bytes: 0 });

const SCHEMA = `
CREATE TABLE IF NOT EXISTS job (id INTEGER PRIMARY KEY CHECK (id = 1), value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pages (seq INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, depth INTEGER NOT NULL, host TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, claimed INTEGER NOT NULL DEFAULT 0, sent_at INTEGER, response_id TEXT, code TEXT, message TEXT);
CREATE INDEX IF NOT EXISTS pages_by_status ON pages (status, seq);
CREATE TABLE IF NOT EXISTS hosts (host TEXT PRIMARY KEY, running INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL DEFAULT 0, delay_ms INTEGER, allowed INTEGER);
CREATE TABLE IF NOT EXISTS seen (url TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS variants (path TEXT PRIMARY KEY, n INTEGER NOT NULL);
`;

interface PageRow extends Record<string, SqlStorageValue> {
  seq: number;
  url: string;
  depth: number;
  host: string;
  status: string;
  attempts: number;
  claimed: number;
  sent_at: number | null;
  response_id: string | null;
  code: string | null;
  message: string | null;
}

const pageOf = (row: PageRow): CrawlPage => ({
  url: row.url,
  depth: row.depth,
  status: row.status as CrawlPage["status"],
  ...(row.response_id && { responseId: row.response_id }),
  ...(row.code && { code: row.code }),
  ...(row.message && { message: row.message }),
});

/**
 * One crawl's frontier in its object's SQLite: the pages found (each once, by normalised URL) and
 * where each stands, the URLs judged, the hosts' turns (pages running, when the next may start), the
 * counts. Every change is one synchronous run of statements, so a crawl's state is consistent at
 * every await of its object; the object hands out what `next` picks and records what `settle` hears.
 */
export class CrawlFrontier {
  #job: CrawlJob | undefined;
  #scope: CrawlScope | undefined;
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    sql.exec(SCHEMA);
    const row = sql.exec<{ value: string }>("SELECT value FROM job WHERE id = 1").toArray()[0];
    this.#job = row ? (JSON.parse(row.value) as CrawlJob) : undefined;
  }

  get job(): CrawlJob | undefined {
    return this.#job;
  }

  /** A new crawl with its start page queued at depth 0. */
  begin(job: CrawlJob): void {
    this.#job = job;
    this.#save();
    const start = normalizeUrl(job.url)!;
    this.sql.exec("INSERT OR IGNORE INTO seen (url) VALUES (?)", start.href);
    this.#queue(start, 0);
    // The start was vetted when the crawl was asked for.
    this.sql.exec("UPDATE hosts SET allowed = 1 WHERE host = ?", start.host);
  }

  #save(): void {
    this.sql.exec("INSERT OR REPLACE INTO job (id, value) VALUES (1, ?)", JSON.stringify(this.#job));
  }

  #scopeOf(job: CrawlJob): CrawlScope {
    if (!this.#scope) {
      // The globs were checked when the crawl was asked for; they compile the same way again.
      const include = compilePathGlobs(job.params.includePaths, "includePaths");
      const exclude = compilePathGlobs(job.params.excludePaths, "excludePaths");
      this.#scope = {
        start: new URL(job.url),
        maxDepth: job.bounds.maxDepth,
        allowSubdomains: job.params.allowSubdomains ?? false,
        allowExternal: job.params.allowExternal ?? false,
        include: include.ok ? include.value : undefined,
        exclude: exclude.ok ? exclude.value : undefined,
      };
    }
    return this.#scope;
  }

  #queue(url: URL, depth: number): void {
    const job = this.#job!;
    this.sql.exec("INSERT OR IGNORE INTO hosts (host) VALUES (?)", url.host);
    this.sql.exec("INSERT INTO pages (url, depth, host, status) VALUES (?, ?, ?, 'queued')", url.href, depth, url.host);
    job.counts.discovered++;
  }

  /**
   * The hosts (as origins) of links the crawl would follow whose network-policy verdict it does not
   * hold yet, at most a few per page: they are vetted before any of their pages is queued.
   */
  hostsToVet(links: readonly string[]): string[] {
    const scope = this.#scopeOf(this.#job!);
    const origins = new Set<string>();
    for (const link of links.slice(0, MAX_LINKS_PER_PAGE)) {
      const url = normalizeUrl(link);
      if (!url || origins.has(url.origin) || !judgeLink(url, 0, scope).follow) continue;
      if (this.sql.exec("SELECT 1 FROM hosts WHERE host = ? AND allowed IS NOT NULL", url.host).toArray().length > 0) continue;
      origins.add(url.origin);
      if (origins.size >= MAX_HOSTS_VETTED_PER_PAGE) break;
    }
    return [...origins];
  }

  /** What the network policy said of hosts (by origin): a refused host's links are counted, never queued. */
  recordVerdicts(verdicts: ReadonlyMap<string, boolean>): void {
    for (const [origin, allowed] of verdicts) {
      const host = new URL(origin).host;
      this.sql.exec("INSERT INTO hosts (host, allowed) VALUES (?, ?) ON CONFLICT (host) DO UPDATE SET allowed = excluded.allowed", host, allowed ? 1 : 0);
    }
  }

  /** Links found at `depth` judged and the followed ones queued; how each of the rest was left is counted. */
  discover(links: readonly string[], depth: number, base?: string): void {
    const job = this.#job!;
    const scope = this.#scopeOf(job);
    const counts = job.counts;
    let seen = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM seen").one().n;
    for (const link of links.slice(0, MAX_LINKS_PER_PAGE)) {
      const url = normalizeUrl(link, base);
      if (!url) continue;
      if (this.sql.exec("SELECT 1 FROM seen WHERE url = ?", url.href).toArray().length > 0) continue;
      if (seen >= MAX_SEEN) {
        counts.skippedByLimit++;
        continue;
      }
      this.sql.exec("INSERT INTO seen (url) VALUES (?)", url.href);
      seen++;
      const verdict = judgeLink(url, depth, scope);
      if (!verdict.follow) {
        if (verdict.why === "trap") counts.skippedByTrap++;
        else counts.skippedByFilter++;
        continue;
      }
      if (this.sql.exec("SELECT 1 FROM hosts WHERE host = ? AND allowed = 0", url.host).toArray().length > 0) {
        counts.skippedByPolicy++;
        continue;
      }
      if (url.search) {
        const key = `${url.origin}${url.pathname}`;
        this.sql.exec("INSERT INTO variants (path, n) VALUES (?, 1) ON CONFLICT (path) DO UPDATE SET n = n + 1", key);
        const n = this.sql.exec<{ n: number }>("SELECT n FROM variants WHERE path = ?", key).one().n;
        if (n > job.bounds.maxQueryVariants) {
          counts.skippedByTrap++;
          continue;
        }
      }
      const pages = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM pages").one().n;
      if (pages >= job.bounds.limit) {
        counts.skippedByLimit++;
        continue;
      }
      this.#queue(url, depth);
    }
    this.#save();
  }

  /**
   * The pages to hand out now: queued ones, oldest first, of hosts under their concurrency whose delay
   * has passed, and pages whose answer is overdue handed out again (or failed after MAX_ATTEMPTS).
   */
  next(now: number): PageTask[] {
    const job = this.#job!;
    if (job.status !== "running") return [];
    const tasks: PageTask[] = [];
    const overdue = this.sql.exec<PageRow>("SELECT * FROM pages WHERE status = 'fetching' AND sent_at <= ?", now - job.bounds.leaseMs).toArray();
    for (const row of overdue) {
      if (row.attempts >= MAX_ATTEMPTS) {
        this.settle(row.seq, { ok: false, code: "CONTENT_FETCH_TIMEOUT", message: `No answer came for this page after ${row.attempts} tries.` }, now);
        continue;
      }
      this.sql.exec("UPDATE pages SET attempts = attempts + 1, sent_at = ? WHERE seq = ?", now, row.seq);
      tasks.push({ seq: row.seq, attempt: row.attempts + 1, url: row.url, depth: row.depth });
    }
    let running = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM pages WHERE status = 'fetching'").one().n;
    while (running < MAX_RUNNING) {
      const row = this.sql
        .exec<PageRow>(
          "SELECT p.* FROM pages p JOIN hosts h ON h.host = p.host WHERE p.status = 'queued' AND h.running < ? AND h.next_at <= ? ORDER BY p.seq LIMIT 1",
          job.bounds.hostConcurrency,
          now,
        )
        .toArray()[0];
      if (!row) break;
      this.sql.exec("UPDATE pages SET status = 'fetching', attempts = attempts + 1, sent_at = ? WHERE seq = ?", now, row.seq);
      // A host's robots.txt Crawl-delay, once a page of it told it, else web.crawl.hostDelayMs.
      this.sql.exec("UPDATE hosts SET running = running + 1, next_at = ? + coalesce(delay_ms, ?) WHERE host = ?", now, job.bounds.hostDelayMs, row.host);
      tasks.push({ seq: row.seq, attempt: row.attempts + 1, url: row.url, depth: row.depth });
      running++;
    }
    return tasks;
  }

  /**
   * The page a delivered message names, once per hand-out: a message delivered again, one of an
   * earlier hand-out, or one for a page already settled is answered with nothing, so a page is
   * fetched and stored once however the queue delivers.
   */
  claim(seq: number, attempt: number): PageTask | undefined {
    if (this.#job?.status !== "running") return undefined;
    const claimed = this.sql.exec("UPDATE pages SET claimed = ? WHERE seq = ? AND status = 'fetching' AND attempts = ? AND claimed < ?", attempt, seq, attempt, attempt).rowsWritten;
    if (claimed === 0) return undefined;
    const row = this.sql.exec<PageRow>("SELECT * FROM pages WHERE seq = ?", seq).one();
    return { seq: row.seq, attempt, url: row.url, depth: row.depth };
  }

  /**
   * Records how a page settled at `now` (once: a later report of the same page is ignored) and queues
   * its links; the page as listed, or undefined.
   */
  settle(seq: number, outcome: PageOutcome, now: number): CrawlPage | undefined {
    const job = this.#job!;
    const row = this.sql.exec<PageRow>("SELECT * FROM pages WHERE seq = ? AND status = 'fetching'", seq).toArray()[0];
    if (!row) return undefined;
    this.sql.exec("UPDATE hosts SET running = max(0, running - 1) WHERE host = ?", row.host);
    const counts = job.counts;
    if (outcome.ok) {
      this.sql.exec("UPDATE pages SET status = 'fetched', response_id = ? WHERE seq = ?", outcome.responseId, seq);
      if (outcome.crawlDelayMs !== undefined) {
        const delay = Math.max(job.bounds.hostDelayMs, Math.min(outcome.crawlDelayMs, MAX_CRAWL_DELAY_MS));
        this.sql.exec("UPDATE hosts SET delay_ms = ?, next_at = max(next_at, ?) WHERE host = ?", delay, now + delay, row.host);
      }
      counts.fetched++;
      counts.bytes += outcome.bytes;
      // "sitemap" alone reads the sitemaps' pages without following their links.
      if (job.status === "running" && job.params.sources !== "sitemap") this.discover(outcome.links, row.depth + 1, row.url);
    } else {
      const status = outcome.skip ? "skipped" : "failed";
      this.sql.exec("UPDATE pages SET status = ?, code = ?, message = ? WHERE seq = ?", status, outcome.code, outcome.message.slice(0, 1_000), seq);
      if (outcome.skip === "robots") counts.skippedByRobots++;
      else if (outcome.skip === "policy") counts.skippedByPolicy++;
      else counts.failed++;
    }
    this.#save();
    return pageOf(this.sql.exec<PageRow>("SELECT * FROM pages WHERE seq = ?", seq).one());
  }

  /** Whether nothing is queued or being fetched. */
  drained(): boolean {
    return this.sql.exec("SELECT 1 FROM pages WHERE status IN ('queued', 'fetching') LIMIT 1").toArray().length === 0;
  }

  /** When the frontier next has work: the soonest a waiting host's delay passes, or an unanswered page falls due. */
  wakeAt(): number | undefined {
    const job = this.#job!;
    const host = this.sql
      .exec<{ at: number | null }>("SELECT min(h.next_at) AS at FROM hosts h WHERE h.running < ? AND EXISTS (SELECT 1 FROM pages p WHERE p.host = h.host AND p.status = 'queued')", job.bounds.hostConcurrency)
      .one().at;
    const lease = this.sql.exec<{ at: number | null }>("SELECT min(sent_at) AS at FROM pages WHERE status = 'fetching'").one().at;
    const times = [host, lease === null ? null : lease + job.bounds.leaseMs, job.bounds.endsAt].filter((t): t is number => t !== null);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Ends the crawl: pages not started are listed as skipped with the reason; pages in flight may still settle. */
  finish(status: CrawlStatus, now: number, reason?: string): void {
    const job = this.#job!;
    if (job.status !== "running" && job.status !== "queued") return;
    job.status = status;
    job.endedAt = now;
    if (reason) job.reason = reason;
    // Counted, not read off rowsWritten: that counts the index's writes too.
    const left = this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM pages WHERE status = 'queued'").one().n;
    this.sql.exec("UPDATE pages SET status = 'skipped', code = 'NOT_STARTED', message = ? WHERE status = 'queued'", reason ?? `The crawl was ${status} first.`);
    job.counts.skippedByLimit += left;
    this.#save();
  }

  /** The crawl as answered: its counts and a page of its pages after `cursor` (a page's sequence number). */
  state(cursor: number): CrawlState {
    const job = this.#job!;
    const rows = this.sql.exec<PageRow>("SELECT * FROM pages WHERE seq > ? ORDER BY seq LIMIT ?", cursor, PAGES_PER_READ + 1).toArray();
    const more = rows.length > PAGES_PER_READ;
    const shown = rows.slice(0, PAGES_PER_READ);
    return {
      crawlId: job.crawlId,
      url: job.url,
      status: job.status,
      createdAt: new Date(job.createdAt).toISOString(),
      ...(job.endedAt !== undefined && { endedAt: new Date(job.endedAt).toISOString() }),
      ...(job.reason && { reason: job.reason }),
      limit: job.bounds.limit,
      maxDepth: job.bounds.maxDepth,
      counts: { ...job.counts },
      pages: shown.map(pageOf),
      ...(more && { nextCursor: String(shown.at(-1)!.seq) }),
    };
  }

  /** Marks the sitemaps read; true the first time (the caller then reads them). */
  takeSitemapSeeding(): boolean {
    const job = this.#job!;
    if (!job.seedFromSitemaps) return false;
    job.seedFromSitemaps = false;
    this.#save();
    return true;
  }
}
