import { ok, type DeepReadonly, type ExtractedContent, type PageOptions, type PageResult, type Result } from "@edge-web/shared";
import { fetchCacheKey } from "../cache/fetch-cache-key.ts";
import { forbidsStoring } from "../cache/forbids-storing.ts";
import type { CallSlots } from "./call-slots.ts";
import { fetchPage } from "./fetch-page.ts";
import type { ToolContext } from "./tool.ts";

/**
 * One page for fetch_content or web_search's includeContent, through the fetch cache
 * (web.fetchCache): a copy at most `maxAge` ms old (default web.fetchCache.maxAgeMs; 0 takes none)
 * is answered as it is; an older one with validators is revalidated, the origin's 304 answering
 * it with a new fetchedAt; anything else is fetched. A page the origin lets a shared cache keep is
 * kept; a failure never is.
 */
export async function readPage(ctx: ToolContext, slots: CallSlots, url: string, page: PageOptions, maxAge: number | undefined): Promise<Result<PageResult>> {
  const settings = ctx.config.fetchCache;
  const key = settings.enabled ? await fetchCacheKey(url, page, ctx.config) : undefined;
  const limit = maxAge ?? settings.maxAgeMs;
  const cached = key ? await ctx.fetchCache.get(key, limit) : undefined;
  if (cached && limit > 0 && Date.now() - cached.fetchedAt <= limit) {
    ctx.record.count("fetch.cache.hit");
    return ok(pageResult(mutableCopy(cached.page), cached.fetchedAt, true));
  }
  const copy = cached?.validators && { page: mutableCopy(cached.page), validators: { ...cached.validators } };
  const fetched = await fetchPage(ctx, slots, url, page, copy);
  if (!key) return fetched.ok ? ok(pageResult(fetched.value.page, fetched.value.fetchedAt, false)) : fetched;
  ctx.record.count(fetched.ok && fetched.value.notModified ? "fetch.cache.revalidated" : "fetch.cache.miss");
  if (!fetched.ok) return fetched;
  const { caching, fetchedAt } = fetched.value;
  // A 304 may send the validators anew; without them the copy's still hold.
  const validators = caching?.validators ?? (fetched.value.notModified ? copy?.validators : undefined);
  if (!forbidsStoring(caching?.cacheControl)) ctx.fetchCache.put(key, { page: fetched.value.page, fetchedAt, ...(validators && { validators }) });
  return ok(pageResult(fetched.value.page, fetchedAt, fetched.value.notModified));
}

/**
 * The cache's copies are frozen and shared: an answer gets its own top level, which is all the
 * answer's makers change (they spread and add; the nested values, still frozen, are only read). A
 * whole copy cost a clone of up to 25 MiB per hit.
 */
const mutableCopy = (page: DeepReadonly<ExtractedContent>) => ({ ...page }) as unknown as ExtractedContent;

/** The page as answered; a copy from the cache (answered as it was, or confirmed by a 304) is `fromCache`. */
const pageResult = (page: ExtractedContent, fetchedAt: number, fromCache: boolean): PageResult => ({ ...page, fetchedAt: new Date(fetchedAt).toISOString(), fromCache });
