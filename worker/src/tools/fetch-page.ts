import { displayUrl, fail, fetchOptionsFrom, type ExtractedContent, type PageCaching, type PageOptions, type Result, type Validators } from "@edge-web/shared";
import type { CallSlots } from "./call-slots.ts";
import { sharedRobots } from "./shared-robots.ts";
import { slotFailure } from "./slot-failure.ts";
import type { ToolContext } from "./tool.ts";

/**
 * A page as the sidecar read it, or a copy the origin said is current (`notModified`), with what the
 * origin said about keeping it and when it was asked (`fetchedAt`, epoch milliseconds).
 */
export interface FetchedPage {
  page: ExtractedContent;
  notModified: boolean;
  caching?: PageCaching;
  fetchedAt: number;
}

/** A copy of the page held elsewhere (the fetch cache), asked for again only if it changed. */
export interface HeldCopy {
  page: ExtractedContent;
  validators: Validators;
}

/**
 * One page through the sidecar's fetch pipeline, on one of the session's slots, within the call's
 * deadline; with `copy`, a conditional request. Its origin's robots.txt record goes with it, and
 * what the sidecar read of robots.txt is kept for every sidecar (sharedRobots).
 */
export async function fetchPage(ctx: ToolContext, slots: CallSlots, url: string, page: PageOptions, copy?: HeldCopy): Promise<Result<FetchedPage>> {
  const robotsRecord = await sharedRobots(ctx, url);
  const queued = Date.now();
  let sent = queued;
  const slot = await slots.run(async () => {
    sent = Date.now();
    ctx.record.step("session-queue", sent - queued);
    const request = { ...page, ...(copy && { revalidate: copy.validators }), ...(robotsRecord && { robotsRecord }) };
    const answer = await ctx.sidecar.fetchContent(url, request, fetchOptionsFrom(ctx.config), slots.deadline, slots.cancel);
    // The sidecar's round trip: its own steps (sidecar.*) and the hop to it and back.
    ctx.record.step("sidecar", Date.now() - sent);
    return answer;
  });
  if (!slot.ok) return slotFailure(slot.error, "fetch", `Fetching ${displayUrl(url)}`, slots, ctx.config);
  const answer = slot.value;
  ctx.robotsCache.put(answer.robotsRead ?? []);
  for (const [step, ms] of Object.entries(answer.timings ?? {})) ctx.record.step(`sidecar.${step}`, ms);
  if (!answer.ok) return { ok: false, error: answer.error };
  // The origin was read between the request and its answer: the request's time errs on the old side.
  const fetchedAt = sent;
  if ("notModified" in answer) {
    if (!copy) return fail("CONTENT_FETCH_FAILED", `The sidecar answered that ${displayUrl(url)} had not changed, which it was not asked.`);
    return { ok: true, value: { page: copy.page, notModified: true, caching: answer.caching, fetchedAt } };
  }
  ctx.record.count("fetch.pages");
  ctx.record.count("fetch.bytes", answer.bytes);
  if (answer.render) {
    ctx.record.count("fetch.rendered");
    ctx.record.count("fetch.renderRefused", answer.render.refused);
  }
  return { ok: true, value: { page: answer.value, notModified: false, ...(answer.caching && { caching: answer.caching }), fetchedAt } };
}
