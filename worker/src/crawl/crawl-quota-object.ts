import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";

/** Whether a crawl may start, and if not, when a running one is due to end (epoch ms). */
export type QuotaAnswer = { granted: true } | { granted: false; scope: "session" | "token"; freeAt: number };

/**
 * The crawls one owner (an API token, or "open") has running (idFromName(owner)), so that
 * web.crawl.maxConcurrentCrawls holds per token and per session across every isolate. Each entry
 * expires at its crawl's end of time, so a crawl that never says it ended frees its place anyway.
 */
export class CrawlQuotaObject extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS running (crawl_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, until INTEGER NOT NULL)");
  }

  acquire(crawlId: string, sessionId: string, until: number, max: number): QuotaAnswer {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM running WHERE until <= ?", Date.now());
    const all = sql.exec<{ n: number; at: number | null }>("SELECT count(*) AS n, min(until) AS at FROM running").one();
    const session = sql.exec<{ n: number; at: number | null }>("SELECT count(*) AS n, min(until) AS at FROM running WHERE session_id = ?", sessionId).one();
    if (session.n >= max) return { granted: false, scope: "session", freeAt: session.at ?? Date.now() };
    if (all.n >= max) return { granted: false, scope: "token", freeAt: all.at ?? Date.now() };
    sql.exec("INSERT OR REPLACE INTO running (crawl_id, session_id, until) VALUES (?, ?, ?)", crawlId, sessionId, until);
    return { granted: true };
  }

  release(crawlId: string): void {
    this.ctx.storage.sql.exec("DELETE FROM running WHERE crawl_id = ?", crawlId);
  }
}
