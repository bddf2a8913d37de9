import type { ContentKind } from "./content-kind.ts";
import type { PageSignals } from "./html/metadata.ts";

/** Decoded text of one response, with what detection learned about it. */
export interface HandlerInput {
  text: string;
  /** The final URL; relative links resolve against it. */
  url: string;
  mime: string;
  /** Source language for fencing code (set by detection for the "code" kind). */
  language?: string;
  /** The caller's CSS selectors (fetch_content's includeSelectors, excludeSelectors): HTML only. */
  selectors?: ContentSelectors;
}

/** What to read of an HTML page: only what `include` matches (instead of its main content), without what `exclude` matches. */
export interface ContentSelectors {
  include?: readonly string[];
  exclude?: readonly string[];
}

export interface HandlerOutput {
  title?: string;
  /** Readable Markdown (or plain text for the text kind). */
  content: string;
  /** Page metadata, only the keys that were found. */
  metadata?: Record<string, string>;
  /** HTML only: lets a later step decide whether the page needs a reader service (script-rendered pages). */
  signals?: PageSignals;
  /** What the handler could not do as asked (a selector that matched nothing). */
  parseWarning?: string;
}

/** One handler per content family; extract throws when the text is not valid for the family. */
export interface ContentHandler {
  kind: ContentKind;
  extract(input: HandlerInput): HandlerOutput;
}
