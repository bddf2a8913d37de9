import type { Document } from "domhandler";
import { fail, ok } from "@edge-web/shared";
import mammoth from "mammoth";
import { isElement, walk } from "../../extract/dom.ts";
import { htmlToMarkdown } from "../../extract/html/markdown.ts";
import { parseMarkup } from "../../extract/parse-markup.ts";
import { errorReason } from "../../error-reason.ts";
import type { DocumentConverter } from "./document-converter.ts";
import { readCoreTitle } from "./ooxml-title.ts";
import { writeStoredZip } from "./write-stored-zip.ts";
import { openZipArchive } from "./zip-archive.ts";

const MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const MAIN_PART = "word/document.xml";
/**
 * How fast mammoth reads the main part, generously (a slow machine manages a fifth of this). It cannot be
 * stopped once called, so a document it could not finish in the time left even at this speed is not started.
 */
const MAMMOTH_BYTES_PER_MS = 4000;

/** Pictures are left out, so their bytes are never read or inlined as data URLs (which the Markdown would drop anyway). */
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

/** Word documents through mammoth's HTML, rendered whole by the page renderer: a document is all content. */
export const docxConverter: DocumentConverter = {
  format: "DOCX",
  mimes: [MIME, "application/vnd.ms-word.document.macroenabled.12"],
  extensions: ["docx", "docm"],
  matches: ({ archive }) => archive?.has(MAIN_PART) ?? false,
  async convert(bytes, options) {
    const archive = openZipArchive(bytes, options.maxUnzippedBytes);
    if (!archive.ok) return archive;
    const entries = archive.value.readAll();
    if (!entries.ok) return entries;
    const title = readCoreTitle(archive.value);
    if (!title.ok) return title;
    const mainBytes = entries.value.find(({ name }) => name === MAIN_PART)?.data.length ?? 0;
    if (Date.now() + mainBytes / MAMMOTH_BYTES_PER_MS >= options.stopMs) {
      return fail("CONVERT_TIMEOUT", "The Word document cannot be converted in the time left before the conversion deadline; raise timeoutMs.");
    }
    let html: string;
    try {
      // mammoth unzips with JSZip, which reads an archive its own way (names from extra fields, offsets shifted
      // past a gap): it is handed a plain copy of the entries checked here, so it reads exactly those.
      const copy = writeStoredZip(entries.value);
      const converted = await mammoth.convertToHtml({ buffer: Buffer.from(copy.buffer) }, { convertImage: NO_IMAGES, externalFileAccess: false });
      html = converted.value;
    } catch (error) {
      return fail("CONVERT_FAILED", `The Word document could not be read: ${errorReason(error)}.`);
    }
    const document = parseMarkup(html);
    unlinkInternalAnchors(document);
    // about:blank resolves absolute links and refuses relative ones: the document has no address of its own.
    const content = htmlToMarkdown(document.children, { baseUrl: "about:blank", skip: () => false });
    return ok({ provider: "mammoth", content, ...(title.value && { title: title.value }), truncated: false, contentType: MIME });
  },
};
