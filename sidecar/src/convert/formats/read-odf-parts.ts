import type { Document } from "domhandler";
import { fail, ok, type Result } from "@edge-web/shared";
import { textContent } from "../../extract/dom.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { descendantElements } from "./descendant-elements.ts";
import { readStyles, type Styles } from "./odf-text-html.ts";
import { readXmlPart } from "./read-xml-part.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

/** What an OpenDocument text or presentation is read from: its content, its styles, its own title. */
export interface OdfParts {
  content: Document;
  styles: Styles;
  title: string;
}

/** The parts of an OpenDocument file of `kind` ("text document", "presentation"); a file without content.xml is not one. */
export function readOdfParts(archive: ZipArchive, kind: string): Result<OdfParts, ZipCode> {
  const content = readXmlPart(archive, "content.xml");
  if (!content.ok) return content;
  if (!content.value) return fail("CONVERT_FAILED", `The file has no content.xml; it is not an OpenDocument ${kind}.`);
  const styles = readXmlPart(archive, "styles.xml");
  if (!styles.ok) return styles;
  const meta = readXmlPart(archive, "meta.xml");
  if (!meta.ok) return meta;
  const [titleElement] = meta.value ? descendantElements(meta.value, "title") : [];
  return ok({ content: content.value, styles: readStyles([content.value, styles.value]), title: titleElement ? oneLine(textContent(titleElement)) : "" });
}
