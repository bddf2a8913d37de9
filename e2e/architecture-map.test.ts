import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

type CheckMap = (repo?: string) => string[];
const { checkMap } = (await import("../scripts/check-map.mjs" as string)) as { checkMap: CheckMap };

let repo: string | undefined;
afterEach(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

/** A repository with these files (path → text). */
function repoWith(files: Record<string, string>): string {
  repo = mkdtempSync(join(tmpdir(), "architecture-map-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  return repo;
}

const MAP = ["# Architecture", "", "## Where things live", "", "### Worker (worker/src/)", "", "Root", "- `index.ts` — the entry.", "", "tools/", "- `run.ts` — runs.", "", "### Sidecar (sidecar/src/)", "", "`fetch/` — fetching:", "- `fetch/get.ts` — one GET.", "", "### Shared (shared/src/)", "", "- `index.ts` — the entry.", "", "## Next", "- `gone.ts` outside the map is not read."].join("\n");
const SOURCES = { "worker/src/index.ts": "", "worker/src/tools/run.ts": "", "sidecar/src/fetch/get.ts": "", "shared/src/index.ts": "" };

describe("the architecture map check", () => {
  it("passes a map that names every source file, each where it is", () => {
    expect(checkMap(repoWith({ "docs/architecture.md": MAP, ...SOURCES }))).toEqual([]);
  });

  it("names a source file the map lacks, and a file the map names that does not exist", () => {
    const problems = checkMap(repoWith({ "docs/architecture.md": MAP.replace("- `run.ts` — runs.", "- `walk.ts` — walks."), ...SOURCES, "shared/src/new.ts": "" }));
    expect(problems).toEqual([
      "docs/architecture.md:11 names walk.ts, which is not at worker/src/tools/walk.ts",
      `worker/src/tools/run.ts is missing from docs/architecture.md's "Where things live"`,
      `shared/src/new.ts is missing from docs/architecture.md's "Where things live"`,
    ]);
  });

  it("holds for this repository", () => {
    expect(checkMap()).toEqual([]);
  });
});
