import { ok, type Result } from "@edge-web/shared";
import { textContent } from "../../extract/dom.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { descendantElements } from "./descendant-elements.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

/** The title an Office Open XML document's properties give (dc:title in docProps/core.xml), if any. */
export function readCoreTitle(archive: ZipArchive): Result<string | undefined, ZipCode> {
  const core = readXmlPart(archive, "docProps/core.xml");
  if (!core.ok) return core;
  const [title] = core.value ? descendantElements(core.value, "title") : [];
  return ok((title && oneLine(textContent(title))) || undefined);
}
