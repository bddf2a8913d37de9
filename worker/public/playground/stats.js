// @ts-check
// The session's stats table (GET /stats): after each tool call and finished turn, and on Refresh stats.

import { api, sessionPath } from "./api.js";
import { $, h, show } from "./dom.js";
import { formatBytes, json } from "./format.js";
import { state } from "./state.js";
import { errorBox } from "./status.js";

/** @typedef {import("./api.js").Shape<"SessionStatsSchema">} SessionStats */

let timer = 0;

/** A refresh shortly after a turn finishes, so that its usage has been counted. */
export function scheduleStats() {
  clearTimeout(timer);
  timer = setTimeout(() => void refreshStats(), 300);
}

/** The placeholder shown while there is no session. */
export const clearStats = () => show("stats", h("p", { class: "placeholder" }, "No session yet."));

export async function refreshStats() {
  if (!state.sessionId) return;
  const res = /** @type {import("./api.js").Answer<{stats: SessionStats}>} */ (await api("GET", sessionPath(state.sessionId, "stats")));
  if (!res.ok) {
    show("stats", errorBox(res.error, res.status, { alert: false }));
    return;
  }
  const stats = /** @type {Partial<SessionStats>} */ (res.data?.stats ?? {});
  const web = /** @type {Partial<SessionStats["web"]>} */ (stats.web ?? {});
  const tokens = /** @type {Partial<SessionStats["tokens"]>} */ (stats.tokens ?? {});
  const count = (/** @type {unknown} */ value) => (value === undefined || value === null ? "—" : typeof value === "object" ? json(value) : String(value));
  const rows = [
    ["Tool calls", count(stats.toolCalls)],
    ["Tool results", count(stats.toolResults)],
    ["Messages", `${count(stats.totalMessages)} (user ${count(stats.userMessages)}, assistant ${count(stats.assistantMessages)})`],
    ["Tokens", `${count(tokens.total)} (input ${count(tokens.input)}, output ${count(tokens.output)}, cache read ${count(tokens.cacheRead)}, cache write ${count(tokens.cacheWrite)})`],
    ["Cost (USD)", typeof stats.cost === "number" ? stats.cost.toFixed(6) : count(stats.cost)],
    ["Searches", count(web.searches)],
    ["Fetches", count(web.fetches)],
    ["Conversions", count(web.conversions)],
    ["Pages fetched", count(web.pagesFetched)],
    ["Bytes fetched", formatBytes(web.bytesFetched)],
    ["Search cache hits / misses", `${count(web.cacheHits)} / ${count(web.cacheMisses)}`],
    ["Fetch cache hits / misses / revalidated", `${count(web.fetchCache?.hits)} / ${count(web.fetchCache?.misses)} / ${count(web.fetchCache?.revalidated)}`],
    ["Errors", web.errors && Object.keys(web.errors).length ? Object.entries(web.errors).map(([code, n]) => `${code} ${n}`).join(", ") : "none"],
    [
      "Providers",
      web.providers && Object.keys(web.providers).length
        ? Object.entries(web.providers)
            .map(([name, p]) => `${name}: ${count(p?.searches)} searches, p50 ${count(p?.p50Ms)} ms`)
            .join("; ")
        : "none",
    ],
  ];
  const table = h("table", {}, h("caption", { class: "meta" }, `Updated ${new Date().toLocaleTimeString()}`));
  const body = h("tbody");
  for (const [name, value] of rows) body.append(h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, value)));
  table.append(body);
  show("stats", table);
}

export function wireStats() {
  $("stats-refresh").addEventListener("click", () => void refreshStats());
}
