import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { fail, ok, type Result } from "@edge-web/shared";
import type { extractHtmlPage } from "../sidecar/src/extract/html-handler.ts";

/** The extractor of another commit: what bench:extract compares ours with, page by page. */
export interface BaselineExtractor {
  /** The revision as asked for, and why it was chosen when it was the default. */
  label: string;
  sha: string;
  extract: (html: string, url: string) => string;
}

const REPOSITORY = join(import.meta.dirname, "..");
const git = (...args: string[]): string => execFileSync("git", args, { cwd: REPOSITORY, encoding: "utf8" }).trim();

/**
 * The default revision: the previous commit, or, while sidecar/src has uncommitted changes, the commit they
 * are made on — so the comparison is always with the extractor as it was before the change being measured.
 */
function defaultRevision(): { rev: string; label: string } {
  const changed = git("status", "--porcelain", "--", "sidecar/src") !== "";
  return changed
    ? { rev: "HEAD", label: "HEAD (uncommitted changes under sidecar/src)" }
    : { rev: "HEAD~1", label: "HEAD~1 (no uncommitted changes under sidecar/src)" };
}

/**
 * Loads the sidecar's extractor as it is at `rev` (undefined: the default; "none": no baseline; a name git does not
 * know as a commit: BASELINE_NOT_A_COMMIT). Its sources are
 * written once per commit under the repository's git-ignored .tmp/, so the packages they import resolve through
 * the repository's own node_modules; @edge-web/shared is therefore today's, which the extraction only uses for
 * its result types and helpers.
 */
export async function loadBaseline(rev: string | undefined): Promise<Result<BaselineExtractor | undefined, "BASELINE_NOT_A_COMMIT">> {
  if (rev === "none") return ok(undefined);
  const chosen = rev === undefined ? defaultRevision() : { rev, label: rev };
  let sha: string;
  try {
    sha = git("rev-parse", "--verify", "--quiet", `${chosen.rev}^{commit}`);
  } catch {
    return fail("BASELINE_NOT_A_COMMIT", `--baseline ${chosen.rev} is not a commit of this repository`);
  }
  const dir = join(REPOSITORY, ".tmp", "extract-baseline", sha);
  if (!existsSync(dir)) {
    // Written beside and renamed into place, so an interrupted run never leaves a half-written tree to reuse.
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    const archive = execFileSync("git", ["archive", sha, "sidecar/src"], { cwd: REPOSITORY, maxBuffer: 256 * 1024 * 1024 });
    execFileSync("tar", ["-x", "-C", partial], { input: archive });
    renameSync(partial, dir);
  }
  const handler = join(dir, "sidecar", "src", "extract", "html-handler.ts");
  const module = (await import(pathToFileURL(handler).href)) as { extractHtmlPage: typeof extractHtmlPage };
  return ok({
    label: chosen.label,
    sha,
    extract: (html, url) => module.extractHtmlPage({ text: html, url, mime: "text/html" }).result.content,
  });
}
