import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routes, send, startOrigin } from "../test-support/origin.ts";
import { cpuMs } from "../test-support/process-stats.ts";
import { startStack as startB } from "../test-support/stack.ts";
import { BENCH_PAGE } from "./bench-stack.ts";
const base = process.env.BASE ?? "/work/ab-base";
const { startStack: startA } = await import(`${base}/test-support/stack.ts`);
const origin = await startOrigin("127.0.0.2", routes({ "/page.html": send(200, "text/html; charset=utf-8", BENCH_PAGE) }));
const env = () => ({ WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }), PERSIST_DIR: mkdtempSync(join(tmpdir(), "ab-")) });
const A = await startA(env()); const B = await startB(env());
const post = (url: string, path: string, body: unknown) => fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const sess = async (url: string) => ((await (await post(url, "/api/sessions", { source: "ab" })).json()) as any).sessionId as string;
const sa = await sess(A.url), sb = await sess(B.url);
const pa = A.pids().worker, pb = B.pids().worker;
const cases: Record<string, (url: string, sid: string) => Promise<Response>> = {
  getSearchNone: (u, s) => post(u, `/api/sessions/${s}/tools/get_search_content`, { responseId: "none" }),
  cachedSearch: (u, s) => post(u, `/api/sessions/${s}/tools/web_search`, { query: "q" }),
  fetch: (u, s) => post(u, `/api/sessions/${s}/tools/fetch_content`, { url: `${origin.url}/page.html` }),
};
const n = Number(process.env.N ?? 300);
for (const [name, once] of Object.entries(cases)) {
  for (let i = 0; i < 20; i++) { await (await once(A.url, sa)).arrayBuffer(); await (await once(B.url, sb)).arrayBuffer(); }
  const a0 = cpuMs(pa), b0 = cpuMs(pb);
  for (let i = 0; i < n; i++) { await (await once(A.url, sa)).arrayBuffer(); await (await once(B.url, sb)).arrayBuffer(); }
  const a = (cpuMs(pa) - a0) / n, b = (cpuMs(pb) - b0) / n;
  console.log(`${name}: base ${a.toFixed(2)} ms, new ${b.toFixed(2)} ms, ratio ${(b / a).toFixed(2)}`);
}
await A.stop(); await B.stop(); await origin.close();
