import type { Document } from "domhandler";
import { ok, type Result } from "@edge-web/shared";
import { decodeText } from "../../extract/decode-text.ts";
import { parseXml } from "../../extract/parse-xml.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

/** A small XML part of a ZIP-based document as a tree (parseXml caps its nesting); undefined when missing. */
export function readXmlPart(archive: ZipArchive, name: string): Result<Document | undefined, ZipCode> {
  const bytes = archive.read(name);
  if (!bytes.ok) return bytes;
  return ok(bytes.value && parseXml(decodeText(bytes.value, undefined, "xml").text));
}
