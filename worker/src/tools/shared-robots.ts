import type { RobotsEntry } from "@edge-web/shared";
import type { ToolContext } from "./tool.ts";

/** The record of the URL's origin's robots.txt that KV holds, to send with its request; none when web.robots is "ignore". */
export async function sharedRobots(ctx: ToolContext, url: string): Promise<RobotsEntry | undefined> {
  if (ctx.config.robots === "ignore") return undefined;
  const started = Date.now();
  const entry = await ctx.robotsCache.get(url);
  ctx.record.step("robots-cache", Date.now() - started);
  return entry;
}
