import type { Element } from "domhandler";
import { fail, ok } from "@edge-web/shared";
import { findElement, textContent } from "../../extract/dom.ts";
import { decodeText } from "../../extract/decode-text.ts";
import { parseHtml } from "../../extract/parse-html.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { hasOdfMimetype } from "../../sniff/odf-mimetype.ts";
import { descendantElements } from "./descendant-elements.ts";
import type { ArchiveConverter } from "./document-converter.ts";
import { documentMarkdown } from "./document-markdown.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { resolvePart } from "./resolve-part.ts";

const MIME = "application/epub+zip";
const CONTAINER = "META-INF/container.xml";

/** A manifest href as a part name: relative to the package document, percent-decoded, without its fragment. */
function partName(opf: string, href: string): string {
  const path = href.split("#")[0] ?? "";
  try {
    return resolvePart(opf, decodeURIComponent(path));
  } catch {
    return resolvePart(opf, path);
  }
}

/**
 * EPUB e-books: the chapters of the spine in its order, each an XHTML file rendered whole by the page renderer
 * (a book is all content). Pages are the spine's chapters. Pictures and links inside the book point to its own
 * files, which have no address: their text stays.
 */
export const epubConverter: ArchiveConverter = {
  reads: "zip",
  format: "EPUB",
  mimes: [MIME],
  extensions: ["epub"],
  matches: (_archive, bytes) => hasOdfMimetype(bytes, MIME),
  async convert(archive, options) {
    const container = readXmlPart(archive, CONTAINER);
    if (!container.ok) return container;
    const [rootfile] = container.value ? descendantElements(container.value, "rootfile") : [];
    const opfPath = rootfile?.attribs["full-path"];
    const opf = opfPath ? readXmlPart(archive, opfPath) : ok(undefined);
    if (!opf.ok) return opf;
    if (!opfPath || !opf.value) return fail("CONVERT_FAILED", "The e-book names no package document (META-INF/container.xml); it is not a readable EPUB.");
    const [titleElement] = descendantElements(opf.value, "title");
    const title = titleElement ? oneLine(textContent(titleElement)) : "";
    const manifest = new Map<string, string>();
    for (const item of descendantElements(opf.value, "item")) {
      const { id, href } = item.attribs;
      if (id !== undefined && href !== undefined) manifest.set(id, partName(opfPath, href));
    }
    const chapters = descendantElements(opf.value, "itemref").flatMap((ref) => {
      const part = manifest.get(ref.attribs.idref ?? "");
      return part ? [part] : [];
    });
    if (chapters.length === 0) return fail("CONVERT_FAILED", "The e-book's spine lists no chapters.");
    const selection = pagesToRead(options.pages, chapters.length, options.maxPages, "chapter");
    if (!selection.ok) return selection;

    const sections: string[] = [];
    let chars = 0;
    let stopped = false;
    let read = 0;
    for (const number of selection.value.numbers) {
      if (Date.now() >= options.stopMs || chars >= options.maxContentChars) {
        stopped = true;
        break;
      }
      const part = archive.read(chapters[number - 1] as string);
      if (!part.ok) return part;
      read++;
      if (!part.value) continue;
      const document = parseHtml(decodeText(part.value, undefined, "html").text);
      const body = findElement(document, (element: Element) => element.name === "body");
      const markdown = documentMarkdown((body ?? document).children);
      if (markdown) sections.push(markdown);
      chars += markdown.length + 2;
    }
    if (read === 0 && stopped) return fail("CONVERT_TIMEOUT", "The e-book's chapters could not be read before the conversion deadline.");
    return ok({
      provider: "epub",
      content: sections.join("\n\n"),
      ...(title && { title }),
      truncated: stopped || selection.value.truncated,
      contentType: MIME,
      pages: { total: chapters.length, included: read },
    });
  },
};
