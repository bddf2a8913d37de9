import type { Document } from "domhandler";
import { fail, ok } from "@edge-web/shared";
import mammoth from "mammoth";
import { isElement, walk } from "../extract/dom.ts";
import { htmlToMarkdown } from "../extract/html-markdown.ts";
import { NONCHARACTERS } from "../extract/markdown-emphasis.ts";
import { parseMarkup } from "../extract/parse-markup.ts";
import { errorReason } from "../fetch/error-reason.ts";
import { beforeDeadline, TIMED_OUT } from "./before-deadline.ts";
import type { DocumentConverter } from "./document-converter.ts";
import { readCoreTitle } from "./ooxml-title.ts";
import { openZipArchive } from "./zip-archive.ts";

const MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

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
  mime: MIME,
  mimes: [MIME, "application/vnd.ms-word.document.macroenabled.12"],
  extensions: ["docx", "docm"],
  matches: ({ archive }) => archive?.has("word/document.xml") ?? false,
  async convert(bytes, options) {
    const archive = openZipArchive(bytes, options.maxUnzippedBytes);
    if (!archive.ok) return archive;
    // mammoth unzips with JSZip, which inflates whatever the archive claims: every entry is checked first.
    const verified = archive.value.verify();
    if (!verified.ok) return verified;
    const title = readCoreTitle(archive.value);
    if (!title.ok) return title;
    let html: string;
    try {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const converted = await beforeDeadline(mammoth.convertToHtml({ buffer }, { convertImage: NO_IMAGES, externalFileAccess: false }), options.deadlineMs);
      if (converted === TIMED_OUT) return fail("CONVERT_TIMEOUT", "The Word document could not be converted before the conversion deadline.");
      html = converted.value;
    } catch (error) {
      return fail("CONVERT_FAILED", `The Word document could not be read: ${errorReason(error)}.`);
    }
    const document = parseMarkup(html.replace(NONCHARACTERS, ""));
    unlinkInternalAnchors(document);
    // about:blank resolves absolute links and refuses relative ones: the document has no address of its own.
    const content = htmlToMarkdown(document.children, { baseUrl: "about:blank", skip: () => false });
    return ok({ provider: "mammoth", content, ...(title.value && { title: title.value }), truncated: false, contentType: MIME });
  },
};
