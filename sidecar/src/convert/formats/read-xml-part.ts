import type { Document } from "domhandler";
import { ok, type Result } from "@edge-web/shared";
import { decodeText } from "../../extract/decode-text.ts";
import { parseMarkup } from "../../extract/parse-markup.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

/** A small XML part of a ZIP-based document as a tree (parseMarkup caps its nesting); undefined when missing. */
export function readXmlPart(archive: ZipArchive, name: string): Result<Document | undefined, ZipCode> {
  const bytes = archive.read(name);
  if (!bytes.ok) return bytes;
  return ok(bytes.value && parseMarkup(decodeText(bytes.value, undefined, "xml").text, true));
}
