import type { Document } from "domhandler";
import { fail, ok } from "@edge-web/shared";
import mammoth from "mammoth";
import { isElement, walk } from "../../extract/dom.ts";
import { parseHtml } from "../../extract/parse-html.ts";
import { errorReason } from "../../error-reason.ts";
import type { ArchiveConverter } from "./document-converter.ts";
import { documentMarkdown } from "./document-markdown.ts";
import { commentFootnotes, readComments } from "./docx-comments.ts";
import { markDocument } from "./docx-markers.ts";
import { readRelationships } from "./ooxml-relationships.ts";
import { readCoreTitle } from "./ooxml-title.ts";
import { decodeText } from "../../extract/decode-text.ts";
import { writeStoredZip } from "./write-stored-zip.ts";

const MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const MAIN_PART = "word/document.xml";
/**
 * How fast mammoth reads the main part, generously (a slow machine manages a fifth of this). It cannot be
 * stopped once called, so a document it could not finish in the time left even at this speed is not started.
 */
const MAMMOTH_BYTES_PER_MS = 4000;

/**
 * Pictures mammoth would read are marked beforehand (docx-markers.ts); any it still meets are left out, so their
 * bytes are never read or inlined as data URLs (which the Markdown would drop anyway).
 */
const NO_IMAGES = mammoth.images.imgElement(() => Promise.resolve({ src: "" }));

/**
 * Links to the document's own bookmarks and footnotes (#_Toc…, #footnote-1) lead nowhere once it is Markdown;
 * their text stays, unlinked.
 */
function unlinkInternalAnchors(document: Document): void {
  walk(document, (node) => {
    if (isElement(node) && node.name === "a" && node.attribs.href?.startsWith("#")) delete node.attribs.href;
    return true;
  });
}

/**
 * Word documents through mammoth's HTML, rendered whole by the page renderer: a document is all content.
 * Pictures (`![alt](name)`), equations (LaTeX) and, when asked, comments (footnotes) are written from the
 * document's XML, where mammoth drops them. Tracked changes read as accepted: insertions kept, deletions gone.
 */
export const docxConverter: ArchiveConverter = {
  reads: "zip",
  format: "DOCX",
  mimes: [MIME, "application/vnd.ms-word.document.macroenabled.12"],
  extensions: ["docx", "docm"],
  matches: (archive) => archive.has(MAIN_PART),
  async convert(archive, options) {
    const entries = archive.readAll();
    if (!entries.ok) return entries;
    const title = readCoreTitle(archive);
    if (!title.ok) return title;
    const main = entries.value.find(({ name }) => name === MAIN_PART);
    const mainBytes = main?.data.length ?? 0;
    if (Date.now() + mainBytes / MAMMOTH_BYTES_PER_MS >= options.stopMs) {
      return fail("CONVERT_TIMEOUT", "The Word document cannot be converted in the time left before the conversion deadline; raise timeoutMs.");
    }
    const relationships = readRelationships(archive, MAIN_PART);
    if (!relationships.ok) return relationships;
    const comments = options.comments ? readComments(archive, relationships.value) : ok(new Map<string, string>());
    if (!comments.ok) return comments;
    const marked = main
      ? markDocument(decodeText(main.data, undefined, "xml").text, {
          relationships: relationships.value,
          archive,
          images: options.images ?? "names",
          comments: new Set(comments.value.keys()),
        })
      : undefined;
    const parts = marked ? entries.value.map((entry) => (entry === main ? { name: entry.name, data: new TextEncoder().encode(marked.xml) } : entry)) : entries.value;
    let html: string;
    try {
      // mammoth unzips with JSZip, which reads an archive its own way (names from extra fields, offsets shifted
      // past a gap): it is handed a plain copy of the entries checked here, so it reads exactly those.
      const copy = writeStoredZip(parts);
      const converted = await mammoth.convertToHtml({ buffer: Buffer.from(copy.buffer) }, { convertImage: NO_IMAGES, externalFileAccess: false });
      html = converted.value;
    } catch (error) {
      return fail("CONVERT_FAILED", `The Word document could not be read: ${errorReason(error)}.`);
    }
    const document = parseHtml(html);
    unlinkInternalAnchors(document);
    // about:blank resolves absolute links and refuses relative ones: the document has no address of its own.
    const rendered = documentMarkdown(document.children);
    const notes = marked ? commentFootnotes(comments.value, marked.commentOrder) : "";
    // A chart fills its marker with blocks, set apart by blank lines that may meet others.
    const filled = marked ? marked.fill(rendered).replace(/\n{3,}/g, "\n\n").trim() : rendered;
    const content = [filled, notes].filter(Boolean).join("\n\n");
    return ok({ provider: "mammoth", content, ...(title.value && { title: title.value }), truncated: false, contentType: MIME });
  },
};
