import { fail, ok } from "@edge-web/shared";
import { isElement, textContent } from "../../extract/dom.ts";
import { escapeInline } from "../../extract/markdown-syntax.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { hasOdfMimetype } from "../../sniff/odf-mimetype.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";
import type { ArchiveConverter } from "./document-converter.ts";
import { localName } from "./local-name.ts";
import { bodyHtml, odfMarkdown } from "./odf-text-html.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";
import { readOdfParts } from "./read-odf-parts.ts";

const MIME = "application/vnd.oasis.opendocument.presentation";

/**
 * OpenDocument presentations (LibreOffice Impress), as PPTX slides are read: a `## Slide N: title` section per
 * slide with its text boxes and tables through the page renderer, then its speaker notes under `### Notes`.
 * Pages are the slides.
 */
export const odpConverter: ArchiveConverter = {
  reads: "zip",
  format: "ODP",
  mimes: [MIME],
  extensions: ["odp"],
  matches: (archive, bytes) => archive.has("content.xml") && hasOdfMimetype(bytes, MIME),
  async convert(archive, options) {
    const parts = readOdfParts(archive, "presentation");
    if (!parts.ok) return parts;
    const { content, styles, title: documentTitle } = parts.value;
    const slides = descendantElements(content, "page").filter((page) => page.parent !== null && isElement(page.parent) && localName(page.parent.name) === "presentation");
    if (slides.length === 0) return fail("CONVERT_FAILED", "The presentation has no slides.");
    const selection = pagesToRead(options.pages, slides.length, options.maxPages, "slide");
    if (!selection.ok) return selection;
    const sections: string[] = [];
    let chars = 0;
    let stopped = false;
    for (const number of selection.value.numbers) {
      // Past maxContentChars the rest would be cut anyway.
      if (Date.now() >= options.stopMs || chars >= options.maxContentChars) {
        stopped = true;
        break;
      }
      const slide = slides[number - 1]!;
      let title = "";
      let body = "";
      let notes = "";
      for (const node of slide.children) {
        if (!isElement(node)) continue;
        const kind = localName(node.name);
        if (kind === "notes") notes += childElements(node, "frame").map((frame) => bodyHtml(frame.children, styles)).join("");
        else if (kind === "frame" && prefixedAttribute(node.attribs, "class") === "title") title ||= oneLine(textContent(node));
        else body += bodyHtml([node], styles);
      }
      const heading = `## Slide ${number}${title ? `: ${escapeInline(title)}` : ""}`;
      const notesMarkdown = odfMarkdown(notes);
      const section = [heading, odfMarkdown(body), notesMarkdown && `### Notes\n\n${notesMarkdown}`].filter(Boolean).join("\n\n");
      sections.push(section);
      chars += section.length + 2;
    }
    if (sections.length === 0) return fail("CONVERT_TIMEOUT", "The presentation's slides could not be read before the conversion deadline.");
    return ok({
      provider: "odp",
      contentType: MIME,
      content: sections.join("\n\n"),
      ...(documentTitle && { title: documentTitle }),
      truncated: stopped || selection.value.truncated,
      pages: { total: slides.length, included: sections.length },
    });
  },
};
