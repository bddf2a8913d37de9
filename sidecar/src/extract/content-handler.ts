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
}

export interface HandlerOutput {
  title?: string;
  /** Readable Markdown (or plain text for the text kind). */
  content: string;
  /** Page metadata, only the keys that were found. */
  metadata?: Record<string, string>;
  /** HTML only: lets a later step decide whether the page needs a reader service (script-rendered pages). */
  signals?: PageSignals;
}

/** One handler per content family; extract throws when the text is not valid for the family. */
export interface ContentHandler {
  kind: ContentKind;
  extract(input: HandlerInput): HandlerOutput;
}
