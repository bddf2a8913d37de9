import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeText } from "../sidecar/src/extract/decode-text.ts";
import type { PageSegments } from "./extract-segments.ts";

/**
 * The shared corpora: `shared/corpus` beside the repository's folder (../shared/corpus from its root).
 * A clone made elsewhere (a fresh checkout to test, say) finds them beside the repository it was
 * cloned from, its `origin`.
 */
export const CORPORA_DIR = corporaDir();

function corporaDir(): string {
  const beside = join(import.meta.dirname, "..", "..", "shared", "corpus");
  if (existsSync(beside)) return beside;
  try {
    const origin = execFileSync("git", ["remote", "get-url", "origin"], { cwd: join(import.meta.dirname, ".."), encoding: "utf8" }).trim();
    const fromOrigin = join(origin, "..", "shared", "corpus");
    if (existsSync(fromOrigin)) return fromOrigin;
  } catch {
    // Not a clone, or git is not there: the corpora are where they should be or nowhere.
  }
  return beside;
}

/** The development corpora extraction is measured on, each a sample of a public benchmark whose other pages are held out. */
export const EXTRACTION_CORPORA = ["extraction-dev", "extraction-segments-dev", "extraction-wceb-dev", "extraction-dragnet-dev"] as const;

/** One page of an extraction corpus, decoded the way fetch_content decodes an unlabelled response. */
export interface CorpusPage {
  id: string;
  /** Size of the HTML as served (after gunzip): the MB in MB/s. */
  bytes: number;
  html: string;
  url: string;
}

/**
 * A corpus is scored one of two ways: against human-written article bodies (ground-truth.json,
 * `{ id: { articleBody, url, comments? } }`, comments being the reader comments the body leaves out) or against
 * segments of main content and boilerplate (segments.json, `{ id: { url, with, without } }`).
 */
export type CorpusTruth =
  | { kind: "articles"; bodies: Record<string, { articleBody: string; url?: string; comments?: string }> }
  | { kind: "segments"; segments: Record<string, PageSegments> };

export interface Corpus {
  pages: CorpusPage[];
  truth?: CorpusTruth;
}

/** Pages without a known URL get one on a reserved domain, so relative links still resolve. */
const PLACEHOLDER_ORIGIN = "https://corpus.invalid/";

function readTruth(dir: string): CorpusTruth | undefined {
  const bodies = join(dir, "ground-truth.json");
  if (existsSync(bodies)) return { kind: "articles", bodies: JSON.parse(readFileSync(bodies, "utf8")) };
  const segments = join(dir, "segments.json");
  if (existsSync(segments)) return { kind: "segments", segments: JSON.parse(readFileSync(segments, "utf8")) };
  return undefined;
}

function urlOf(truth: CorpusTruth | undefined, id: string): string | undefined {
  if (truth?.kind === "articles") return truth.bodies[id]?.url;
  if (truth?.kind === "segments") return truth.segments[id]?.url;
  return undefined;
}

/** Reads DIR/html/*.html and *.html.gz (the id is the name without extensions) and DIR's truth file, if any. */
export function loadCorpus(dir: string): Corpus {
  const truth = readTruth(dir);
  const htmlDir = join(dir, "html");
  const pages = readdirSync(htmlDir)
    .filter((name) => /\.html(?:\.gz)?$/.test(name))
    .sort()
    .map((name): CorpusPage => {
      const id = name.replace(/\.html(?:\.gz)?$/, "");
      const raw = readFileSync(join(htmlDir, name));
      const bytes = name.endsWith(".gz") ? gunzipSync(raw) : raw;
      // As served, without a charset in Content-Type: the decoder finds it in the bytes (WCEB's pages, re-encoded to
      // UTF-8 under their old <meta charset>, prove to be UTF-8).
      const { text } = decodeText(bytes, "text/html", "html");
      return { id, bytes: bytes.byteLength, html: text, url: urlOf(truth, id) ?? `${PLACEHOLDER_ORIGIN}${id}` };
    });
  return truth ? { pages, truth } : { pages };
}
