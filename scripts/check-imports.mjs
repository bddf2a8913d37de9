// Finds import cycles in worker/src (or the source folder given), between files and between folders
// (root files count as folders of their own; each subfolder of agent/ counts as a folder of its own, so its
// concerns import one way too). With worker/src it also checks docs/architecture.md's map of the source
// (scripts/check-map.mjs). Exits 1 when there is a cycle or the map is wrong. Usage: node scripts/check-imports.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { checkMap } from "./check-map.mjs";
const root = path.resolve(process.argv[2] ?? "worker/src");
const files = [];
(function walk(d){ for (const e of fs.readdirSync(d,{withFileTypes:true})) { const p = path.join(d,e.name); if (e.isDirectory()) walk(p); else if (p.endsWith(".ts")) files.push(p);} })(root);
/** Folders whose subfolders are checked as folders of their own. */
const SPLIT = new Set(["agent"]);
const folder = (f) => {
  const r = path.relative(root, f).split(path.sep);
  if (r.length === 1) return "(root):" + r[0];
  return SPLIT.has(r[0]) && r.length > 2 ? r[0] + "/" + r[1] : r[0];
};
const edges = new Map();
for (const f of files) {
  const src = fs.readFileSync(f, "utf8");
  for (const m of src.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gs)) {
    const t = path.resolve(path.dirname(f), m[1]);
    const a = folder(f), b = folder(t);
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Map());
    const s = edges.get(a); if (!s.has(b)) s.set(b, []); s.get(b).push(path.relative(root,f)+" -> "+path.relative(root,t));
  }
}
// file-level cycles
const fedges = new Map();
for (const f of files) { const src = fs.readFileSync(f,"utf8"); fedges.set(f, [...src.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gs)].map(m=>path.resolve(path.dirname(f), m[1]))); }
// Tarjan SCC on folders
function scc(nodes, succ){ let i=0; const idx=new Map(), low=new Map(), st=[], on=new Set(), out=[];
  function sc(v){ idx.set(v,i); low.set(v,i); i++; st.push(v); on.add(v);
    for (const w of succ(v)) { if(!idx.has(w)){sc(w); low.set(v,Math.min(low.get(v),low.get(w)));} else if(on.has(w)) low.set(v,Math.min(low.get(v),idx.get(w))); }
    if (low.get(v)===idx.get(v)) { const c=[]; let w; do { w=st.pop(); on.delete(w); c.push(w);} while(w!==v); if(c.length>1) out.push(c);} }
  for (const n of nodes) if(!idx.has(n)) sc(n); return out; }
const fnodes=[...fedges.keys()];
const fc = scc(fnodes, v => (fedges.get(v)||[]).filter(w=>fedges.has(w)));
console.log("file cycles:", fc.map(c=>c.length+": "+c.map(x=>path.relative(root,x)).join(", ")));
const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap(m=>[...m.keys()])]);
const c = scc([...nodes], v => [...(edges.get(v)?.keys() ?? [])]);
console.log("folder cycles:", JSON.stringify(c));
// The map covers every package; it is checked once, with the worker.
const mapProblems = root === path.resolve(import.meta.dirname, "..", "worker/src") ? checkMap() : [];
for (const problem of mapProblems) console.error(problem);
process.exit(fc.length || c.length || mapProblems.length ? 1 : 0);
