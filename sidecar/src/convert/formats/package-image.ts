import { escapeInline } from "../../extract/markdown-syntax.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { fileExtension } from "../../sniff/file-extension.ts";
import type { Relationship } from "./ooxml-relationships.ts";
import type { ZipArchive } from "./zip-archive.ts";

/** How pictures are written: by their file name in the package (the default), or small ones inline as data: URIs. */
export type ImageMode = "names" | "inline";

/** Pictures up to this size are inlined when asked; larger ones keep their name (a data: URI of megabytes helps no reader). */
export const MAX_INLINE_IMAGE_BYTES = 32 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  svg: "image/svg+xml",
};

/** A link destination; one with spaces or parentheses goes in angle brackets. */
function destination(target: string): string {
  return /[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, encodeURIComponent)}>` : target;
}

/**
 * A picture of an Office package as `![alt](name)`: its alt text and the file name of the part it is stored in
 * (an external picture keeps its URL). With images "inline", a small stored picture of a web image type is
 * a data: URI instead.
 */
export function packageImageMarkdown(alt: string, relationship: Relationship | undefined, archive: ZipArchive, mode: ImageMode): string {
  const text = escapeInline(oneLine(alt)).replace(/\|/g, "\\|");
  if (!relationship) return `![${text}]()`;
  const { target, external } = relationship;
  if (external) return `![${text}](${destination(target)})`;
  const type = IMAGE_TYPES[fileExtension(target)];
  if (mode === "inline" && type) {
    const bytes = archive.read(target);
    if (bytes.ok && bytes.value && bytes.value.length <= MAX_INLINE_IMAGE_BYTES) {
      return `![${text}](data:${type};base64,${Buffer.from(bytes.value).toString("base64")})`;
    }
  }
  return `![${text}](${destination(target.slice(target.lastIndexOf("/") + 1))})`;
}
