import type { ContentKind } from "../../extract/content-kind.ts";
import { decodeText } from "../../extract/decode-text.ts";
import { extractContent } from "../../extract/extract-content.ts";
import type { ConverterOutput } from "./document-converter.ts";

/** A text type as detectContentType found it. */
export interface TextType {
  kind: ContentKind;
  mime: string;
  language?: string;
}

/**
 * Text formats (HTML, Markdown, CSV, JSON, XML, YAML, code, plain text) are read exactly as fetch_content
 * reads them. Without an address, relative links have nothing to resolve against and keep only their text.
 */
export function convertText(bytes: Uint8Array, hints: { contentType?: string; url?: string }, type: TextType): ConverterOutput {
  const { text } = decodeText(bytes, hints.contentType, type.kind);
  const extracted = extractContent(type.kind, { text, url: hints.url ?? "about:blank", mime: type.mime, ...(type.language && { language: type.language }) });
  return { provider: type.kind, content: extracted.content, ...(extracted.title && { title: extracted.title }), truncated: false, contentType: type.mime };
}
