// Checks that docs/architecture.md's "Where things live" is the true map of the source: every source file of
// worker/src, sidecar/src and shared/src is named there, and every file it names exists. Usage: node scripts/check-map.mjs
//
// Reading the map: "### Worker (worker/src/)", "### Sidecar (sidecar/src/)" and "### Shared (shared/src/)" open a
// package; a line at the start of the line naming folders ("routes/ (…)", "mcp/, openapi/", "Root") sets the folders
// a bare file name is looked up in; a name with a slash is a path from the package's root, or from the repository's
// root when it starts with one of its top-level folders; a bare name found in none of those folders may stand for
// the package's only file of that name.
import fs from "node:fs";
import path from "node:path";

const packages = { Worker: "worker/src", Sidecar: "sidecar/src", Shared: "shared/src" };
const sourceFile = /\.(ts|mjs|js)$/;

function walk(repo, dir) {
  const out = [];
  for (const e of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...walk(repo, p));
    else if (sourceFile.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** The map's problems, each a line to print; none when it is the true map. `repo`: the repository's root. */
export function checkMap(repo = path.resolve(import.meta.dirname, "..")) {
  const doc = fs.readFileSync(path.join(repo, "docs/architecture.md"), "utf8").split("\n");
  const start = doc.findIndex((l) => l.startsWith("## Where things live"));
  if (start < 0) return ['docs/architecture.md has no "## Where things live" section'];
  const end = doc.findIndex((l, i) => i > start && l.startsWith("## "));
  const section = doc.slice(start + 1, end < 0 ? undefined : end);
  const topLevel = new Set(fs.readdirSync(repo));
  const named = new Set();
  const files = new Map(Object.values(packages).map((dir) => [dir, walk(repo, dir)]));
  const problems = [];
  let root = null;
  let folders = [""];
  for (const [i, line] of section.entries()) {
    const heading = /^### (\w+)/.exec(line);
    if (heading) {
      if (packages[heading[1]]) root = packages[heading[1]];
      folders = [""];
      continue;
    }
    if (/^Root\b/.test(line)) folders = [""];
    else if (/^`?[a-z][\w-]*(\/[\w-]+)*\/(`|[,( ]|$)/.test(line)) {
      folders = [...line.matchAll(/(?:^|, )`?([a-z][\w-]*(?:\/[\w-]+)*)\//g)].map((m) => m[1]);
    }
    for (const m of line.matchAll(/`([^`\s]+\.(?:ts|mjs|js))`/g)) {
      const name = m[1];
      const candidates = name.includes("/")
        ? [topLevel.has(name.split("/")[0]) ? name : `${root}/${name}`]
        : folders.map((f) => (f ? `${root}/${f}/${name}` : `${root}/${name}`));
      // A bare name outside its folder's list (the walks of a call) may stand for the package's one file of that name.
      const byName = name.includes("/") || !root ? [] : files.get(root).filter((f) => f.endsWith(`/${name}`));
      const found = candidates.find((c) => root && fs.existsSync(path.join(repo, c))) ?? (byName.length === 1 ? byName[0] : undefined);
      if (found) named.add(found);
      else if (root) problems.push(`docs/architecture.md:${start + 2 + i} names ${name}, which is not at ${candidates.join(" or ")}`);
    }
  }
  for (const dir of Object.values(packages)) {
    for (const file of files.get(dir)) if (!named.has(file)) problems.push(`${file} is missing from docs/architecture.md's "Where things live"`);
  }
  return problems;
}

if (process.argv[1] === import.meta.filename) {
  const problems = checkMap();
  for (const p of problems) console.error(p);
  process.exit(problems.length ? 1 : 0);
}
