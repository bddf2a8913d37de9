import { ok, type Result } from "@edge-web/shared";
import { readXmlPart } from "./read-xml-part.ts";
import { resolvePart } from "./resolve-part.ts";
import { descendantElements } from "./descendant-elements.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

/** One relationship of an Office Open XML part: which other part (or URL) it points to, and as what. */
export interface Relationship {
  /** The last segment of the relationship type, e.g. "worksheet", "slide", "notesSlide". */
  type: string;
  /** The part name inside the archive (no leading slash), or the URL of an external target. */
  target: string;
  external: boolean;
}

/** The relationships of a part ("" for the package itself), by id; none when the part has no .rels file. */
export function readRelationships(archive: ZipArchive, part: string): Result<Map<string, Relationship>, ZipCode> {
  const slash = part.lastIndexOf("/") + 1;
  const document = readXmlPart(archive, `${part.slice(0, slash)}_rels/${part.slice(slash)}.rels`);
  if (!document.ok) return document;
  const relationships = new Map<string, Relationship>();
  for (const element of document.value ? descendantElements(document.value, "Relationship") : []) {
    const { Id: id, Type: type = "", Target: target, TargetMode: mode } = element.attribs;
    if (id === undefined || target === undefined) continue;
    const external = mode === "External";
    relationships.set(id, { type: type.slice(type.lastIndexOf("/") + 1), target: external ? target : resolvePart(part, target), external });
  }
  return ok(relationships);
}
