import type { Element } from "domhandler";
import { ok } from "@edge-web/shared";
import { isElement } from "../../extract/dom.ts";
import { hasOdfMimetype } from "../../sniff/odf-mimetype.ts";
import { descendantElements } from "./descendant-elements.ts";
import type { ArchiveConverter } from "./document-converter.ts";
import { localName } from "./local-name.ts";
import { bodyHtml, odfMarkdown } from "./odf-text-html.ts";
import { readOdfParts } from "./read-odf-parts.ts";

const MIME = "application/vnd.oasis.opendocument.text";

/**
 * OpenDocument text (LibreOffice Writer's format), from content.xml through the page renderer: headings,
 * paragraphs, lists, tables, links, bold and italic. The title is the document's own (meta.xml).
 */
export const odtConverter: ArchiveConverter = {
  reads: "zip",
  format: "ODT",
  mimes: [MIME],
  extensions: ["odt"],
  matches: (archive, bytes) => archive.has("content.xml") && hasOdfMimetype(bytes, MIME),
  async convert(archive, options) {
    const parts = readOdfParts(archive, "text document");
    if (!parts.ok) return parts;
    const { content, styles, title } = parts.value;
    const [text] = descendantElements(content, "text").filter((element: Element) => element.parent !== null && isElement(element.parent) && localName(element.parent.name) === "body");
    const markdown = odfMarkdown(bodyHtml(text?.children ?? [], styles));
    return ok({ provider: "odt", contentType: MIME, content: markdown, truncated: false, ...(title && { title }) });
  },
};
