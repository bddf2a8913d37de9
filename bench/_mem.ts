/** `node scripts/run.mjs node bench/_mem.ts` (N, C, CASES=name:count,…, IDLE=seconds): RSS and CPU of the worker per call of one kind, on one stack (docs/architecture.md, "Memory, as measured"). */
import { setTimeout as sleep } from "node:timers/promises";
import { cpuMs, rssMb } from "../test-support/process-stats.ts";
import { startBenchStack } from "./bench-stack.ts";

const n = Number(process.env.N ?? 2000);
const conc = Number(process.env.C ?? 4);
const plan = (process.env.CASES ?? "notFound,healthz,state,getNone,cachedSearch,fetch").split(",").map((c) => { const [name, count] = c.split(":"); return { name, count: Number(count ?? n) }; });
const bench = await startBenchStack();
const pid = bench.stack.pids().worker;
const get = (p: string) => fetch(`${bench.url}${p}`);
const sid = await bench.newSession();
const page = `${bench.origin.url}/page.html`;
const cases: Record<string, (i: number) => Promise<Response>> = {
  notFound: () => get("/api/nope"),
  healthz: () => get("/healthz"),
  state: () => get(`/api/sessions/${sid}/state`),
  getNone: () => bench.post(`/api/sessions/${sid}/tools/get_search_content`, { responseId: "none" }),
  cachedSearch: () => bench.post(`/api/sessions/${sid}/tools/web_search`, { query: "q" }),
  fetch: () => bench.post(`/api/sessions/${sid}/tools/fetch_content`, { url: page }),
};
const rss = () => +rssMb(pid).toFixed(1);
try {
  for (let i = 0; i < 50; i++) for (const once of Object.values(cases)) await (await once(i)).arrayBuffer();
  await sleep(1000);
  console.log(JSON.stringify({ idle: rss(), env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("TCMALLOC"))) }));
  for (const { name, count: n } of plan) {
    const once = cases[name!]!;
    const before = rss();
    const cpu0 = cpuMs(pid);
    const t0 = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: conc }, async () => { while (next < n) { const i = next++; const r = await once(i); await r.arrayBuffer(); if (i % 10000 === 9999) console.log(`  ${name} ${i + 1}: ${rss()} MB`); if (r.status >= 500) throw new Error(`${name} ${r.status}`); } }));
    const after = rss();
    const cpuPerCall = +((cpuMs(pid) - cpu0) / n).toFixed(2);
    await sleep(3000);
    console.log(JSON.stringify({ name, n, ms: Date.now() - t0 - 3000, before, after, settled: rss(), cpuPerCall, kbPerCall: +(((after - before) * 1024) / n).toFixed(1) }));
  }
  if (process.env.IDLE) for (let s = 0; s < Number(process.env.IDLE); s += 15) { await sleep(15_000); console.log(`  idle ${s + 15} s: ${rss()} MB`); }
} finally {
  await bench.close();
}
