import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { startBenchStack, apiTarget } from "./bench-stack.ts";

const cpuOf = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const childrenNamed = (name: string) => spawnSync("pgrep", ["-f", name], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).map(Number);

const bench = await startBenchStack();
const wpid = bench.stack.pids().worker;
const benchPids: number[] = [];
console.log("npm start workerd pids", benchPids);
const sidecarPids = [bench.stack.pids().sidecar];
const direct = bench;
const sid = await direct.newSession();
const url = `${bench.origin.url}/page.html`;
const mode = process.env.MODE ?? "fetch";
import { sseReader } from "../test-support/sse-reader.ts";
import { TURN, turnTimes } from "./turn-overhead.ts";
const pool: string[] = [];
const subs: AbortController[] = [];
if (mode === "sse") {
  for (let i = 0; i < 100; i++) {
    const ac = new AbortController(); subs.push(ac);
    fetch(`${bench.url}/api/sessions/${sid}/stream`, { signal: ac.signal }).then(async (r) => { const rd = r.body!.getReader(); try { for (;;) { if ((await rd.read()).done) break; } } catch {} }).catch(() => {});
  }
  await new Promise((r) => setTimeout(r, 2000));
}
if (mode === "turn") for (let i = 0; i < 80; i++) pool.push(await bench.newSession());
const once = mode === "turn" ? async () => {
  const turnSession = pool.pop()!;
  const stream = sseReader((await fetch(`${bench.url}/api/sessions/${turnSession}/stream`)).body!);
  bench.model.script.script(...TURN);
  const res = await bench.post(`/api/sessions/${turnSession}/messages`, { message: "a question" });
  await res.arrayBuffer();
  await turnTimes(stream, performance.now());
  await stream.cancel();
} : async () => {
  const res = mode === "sse" ? await direct.post(`/api/sessions/${sid}/tools/get_search_content`, { responseId: "none" }) : mode === "fetch" ? await direct.post(`/api/sessions/${sid}/tools/fetch_content`, { url })
    : await direct.post(`/api/sessions/${sid}/tools/web_search`, { query: "cached query" });
  if (res.status !== 200 && mode !== "sse") throw new Error(await res.text());
  await res.arrayBuffer();
};
for (let i = 0; i < (mode === "turn" ? 5 : 50); i++) await once();
let ws: WebSocket | undefined; let idn = 0; const pending = new Map<number, (v: any) => void>();
const call = (method: string, params = {}) => new Promise<any>((r) => { const id = ++idn; pending.set(id, r); ws!.send(JSON.stringify({ id, method, params })); });
if (process.env.INSPECTOR_PORT) {
  const list = await (await fetch(`http://127.0.0.1:${process.env.INSPECTOR_PORT}/json`)).json() as any[];
  console.log(list.map((t) => t.title + " " + t.webSocketDebuggerUrl));
  const target = list.find((t) => String(t.title).includes(process.env.TARGET ?? "worker")) ?? list[0];
  ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r) => ws!.addEventListener("open", r));
  ws.addEventListener("message", (e) => { const m = JSON.parse(String(e.data)); if (m.id && pending.has(m.id)) { pending.get(m.id)!(m.result); pending.delete(m.id); } });
  if (process.env.DEBUGONLY) { await call("Runtime.enable"); await call("Debugger.enable"); } else { await call("Profiler.enable"); await call("Profiler.setSamplingInterval", { interval: 100 }); await call("Profiler.start"); }
}
const n = mode === "turn" ? 65 : 300;
const b0 = benchPids.map(cpuOf); const w0 = cpuOf(wpid); const s0 = sidecarPids.map(cpuOf); const t0 = performance.now();
for (let i = 0; i < n; i++) await once();
const w1 = cpuOf(wpid); console.log("npm start workerd cpu/call", benchPids.map((p, i) => (cpuOf(p) - b0[i]!) / n)); const s1 = sidecarPids.map(cpuOf);
console.log({ mode, wallMsPerCall: (performance.now() - t0) / n, workerdCpuMsPerCall: (w1 - w0) / n, sidecarCpuMsPerCall: s1.map((v, i) => (v - s0[i]!) / n) });
if (ws && !process.env.DEBUGONLY) {
  const { profile } = await call("Profiler.stop");
  const self = new Map<string, number>(); const byId = new Map<number, any>();
  for (const node of profile.nodes) byId.set(node.id, node);
  const dt = new Map<number, number>();
  profile.samples.forEach((s: number, i: number) => dt.set(s, (dt.get(s) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  for (const [id, us] of dt) { const nd = byId.get(id); const cf = nd.callFrame; const key = `${cf.functionName || "(anon)"} ${cf.url.split("/").slice(-1)[0]}:${cf.lineNumber}`; self.set(key, (self.get(key) ?? 0) + us); total += us; }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 45);
  console.log("total ms", total / 1000);
  for (const [k, us] of top) console.log((us / 1000 / n).toFixed(3), "ms/call", ((us / total) * 100).toFixed(1) + "%", k);
  // inclusive by function for our code
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const incl = new Map<string, number>();
  for (const [id, us] of dt) { const seen = new Set<string>(); for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) { const cf = byId.get(cur).callFrame; const key = `${cf.functionName || "(anon)"} ${cf.url.split("/").slice(-1)[0]}:${cf.lineNumber}`; if (!seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + us); } } }
  console.log("--- inclusive");
  for (const [k, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 70)) console.log((us / 1000 / n).toFixed(3), k);
  const kids = new Map<number, number[]>();
  for (const node of profile.nodes) kids.set(node.id, node.children ?? []);
  const inclusive = (id: number): number => (dt.get(id) ?? 0) + (kids.get(id) ?? []).reduce((a, c) => a + inclusive(c), 0);
  const print = (id: number, depth: number) => {
    const us = inclusive(id); if (us / total < Number(process.env.MIN ?? 0.012) || depth > Number(process.env.DEPTH ?? 40)) return;
    const cf = byId.get(id).callFrame;
    console.log(" ".repeat(depth) + (us / 1000 / n).toFixed(3) + " " + (cf.functionName || "(anon)") + " " + cf.url.split("/").slice(-1)[0] + ":" + cf.lineNumber + " self=" + ((dt.get(id) ?? 0) / 1000 / n).toFixed(3));
    for (const c of [...(kids.get(id) ?? [])].sort((a, b) => inclusive(b) - inclusive(a))) print(c, depth + 1);
  };
  console.log("--- tree");
  print(profile.nodes[0].id, 0);
  ws.close();
}
for (const s of subs) s.abort();
await bench.close();
