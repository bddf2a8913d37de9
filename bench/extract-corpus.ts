import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { decodeText } from "../sidecar/src/extract/decode-text.ts";

/** One page of an extraction corpus, decoded the way fetch_content decodes an unlabelled response. */
export interface CorpusPage {
  id: string;
  /** Size of the HTML as served (after gunzip): the MB in MB/s. */
  bytes: number;
  html: string;
  url: string;
}

export interface Corpus {
  pages: CorpusPage[];
  /** ground-truth.json when the corpus has one: { id: { articleBody, url } }. */
  truth?: Record<string, { articleBody: string; url?: string }>;
}

/** Pages without a known URL get one on a reserved domain, so relative links still resolve. */
const PLACEHOLDER_ORIGIN = "https://corpus.invalid/";

/** Reads DIR/html/*.html and *.html.gz (the id is the name without extensions) and DIR/ground-truth.json. */
export function loadCorpus(dir: string): Corpus {
  const truthPath = join(dir, "ground-truth.json");
  const truth = existsSync(truthPath)
    ? (JSON.parse(readFileSync(truthPath, "utf8")) as Record<string, { articleBody: string; url?: string }>)
    : undefined;
  const htmlDir = join(dir, "html");
  const pages = readdirSync(htmlDir)
    .filter((name) => /\.html(?:\.gz)?$/.test(name))
    .sort()
    .map((name): CorpusPage => {
      const id = name.replace(/\.html(?:\.gz)?$/, "");
      const raw = readFileSync(join(htmlDir, name));
      const bytes = name.endsWith(".gz") ? gunzipSync(raw) : raw;
      const { text } = decodeText(bytes, undefined, "html");
      return { id, bytes: bytes.byteLength, html: text, url: truth?.[id]?.url ?? `${PLACEHOLDER_ORIGIN}${id}` };
    });
  return truth ? { pages, truth } : { pages };
}
