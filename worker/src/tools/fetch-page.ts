import { displayUrl, fetchOptionsFrom, type ExtractedContent, type Result } from "@edge-web/shared";
import type { PageRequest } from "../sidecar-client.ts";
import type { CallSlots } from "./call-slots.ts";
import { slotFailure } from "./slot-failure.ts";
import type { ToolContext } from "./tool.ts";

/** One page through the sidecar's fetch pipeline, on one of the session's slots, within the call's deadline. */
export async function fetchPage(ctx: ToolContext, slots: CallSlots, url: string, page: PageRequest): Promise<Result<ExtractedContent>> {
  const queued = Date.now();
  const slot = await slots.run(async () => {
    const sent = Date.now();
    ctx.record.step("session-queue", sent - queued);
    const answer = await ctx.sidecar.fetchContent(url, page, fetchOptionsFrom(ctx.config), slots.deadline, slots.cancel);
    // The sidecar's round trip: its own steps (sidecar.*) and the hop to it and back.
    ctx.record.step("sidecar", Date.now() - sent);
    return answer;
  });
  if (!slot.ok) return slotFailure(slot.error, "fetch", `Fetching ${displayUrl(url)}`, slots, ctx.config);
  const answer = slot.value;
  for (const [step, ms] of Object.entries(answer.timings ?? {})) ctx.record.step(`sidecar.${step}`, ms);
  if (!answer.ok) return { ok: false, error: answer.error };
  ctx.record.count("fetch.pages");
  ctx.record.count("fetch.bytes", answer.bytes);
  if (answer.render) {
    ctx.record.count("fetch.rendered");
    ctx.record.count("fetch.renderRefused", answer.render.refused);
  }
  return { ok: true, value: answer.value };
}
