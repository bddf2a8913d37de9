import { fail, ok, type ConvertErrorCode, type Result } from "@edge-web/shared";
import { type getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { escapeInline, escapeLineStart } from "../../extract/markdown-syntax.ts";
import { errorReason } from "../../error-reason.ts";
import { latin1Prefix } from "../../sniff/latin1-prefix.ts";
import { SIGNATURES } from "../../sniff/signatures.ts";
import { beforeDeadline } from "./before-deadline.ts";
import type { DocumentConverter } from "./document-converter.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { layOutPage, type PlacedText, type TextBlock } from "./pdf-layout.ts";

/**
 * PDF through pdf.js (unpdf's serverless build, which parses in this thread). Every page begins with a
 * `<!-- page N -->` line, invisible when the Markdown is shown and a page number to cite when it is read.
 */

const MIME = "application/pdf";

/** A line this much larger than the body text is a heading. */
const HEADING_RATIO = 1.15;
/** Longer blocks are text set large (a pull quote, a cover), not headings. */
const MAX_HEADING_CHARS = 200;
const MAX_HEADING_LINES = 3;
/** Heading sizes from the largest down take #, ## and ###; smaller ones stay ###. */
const HEADING_LEVELS = 3;

/** Refuses every request for data outside the document. */
class NoExternalData {
  fetch(): Promise<never> {
    return Promise.reject(new Error("external data is not loaded"));
  }
}

/**
 * pdf.js must never reach out. With useWorkerFetch off, CMaps, standard fonts and wasm decoders are asked of
 * the BinaryDataFactory, which refuses; fonts the PDF does not embed fall back to built-in metrics, which
 * is all text extraction needs.
 */
const DOCUMENT_OPTIONS = {
  useWorkerFetch: false,
  BinaryDataFactory: NoExternalData,
  useSystemFonts: false,
  disableFontFace: true,
  useWasm: false,
  // Errors only: damaged files make pdf.js warn on every object it repairs.
  verbosity: 0,
};

interface PdfPage {
  number: number;
  blocks: TextBlock[];
}

/** The failure for an error pdf.js threw, by its exception name. */
function pdfFailure(error: unknown) {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "PasswordException") return fail<ConvertErrorCode>("CONVERT_FAILED", "The PDF is encrypted and needs a password to open; it cannot be converted.");
  const reason = errorReason(error).replace(/\.$/, "");
  if (name === "InvalidPDFException") return fail<ConvertErrorCode>("CONVERT_FAILED", `The file is not a readable PDF (${reason}): it is damaged or not a PDF.`);
  return fail<ConvertErrorCode>("CONVERT_FAILED", `The PDF could not be read: ${reason}.`);
}

/** The font size most of the text is set in (weighted by characters, to half a point). */
function bodySize(pages: readonly PdfPage[]): number {
  const chars = new Map<number, number>();
  for (const { blocks } of pages) {
    for (const { lines, size } of blocks) {
      const key = Math.round(size * 2) / 2;
      chars.set(key, (chars.get(key) ?? 0) + lines.join("").length);
    }
  }
  let best = 0;
  let most = -1;
  for (const [size, count] of chars) if (count > most) [best, most] = [size, count];
  return best;
}

/** Joins a block's lines; a word hyphenated across a line break is joined again. */
function blockText(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) {
    if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text = text ? `${text} ${line}` : line;
  }
  return text;
}

function toMarkdown(pages: readonly PdfPage[]): string {
  const body = bodySize(pages);
  const isHeading = ({ lines, size }: TextBlock): boolean =>
    size >= body * HEADING_RATIO && lines.length <= MAX_HEADING_LINES && blockText(lines).length <= MAX_HEADING_CHARS;
  const headingSizes = [...new Set(pages.flatMap(({ blocks }) => blocks.filter(isHeading).map(({ size }) => Math.round(size * 2) / 2)))].sort((a, b) => b - a);
  const level = (size: number): number => Math.min(headingSizes.indexOf(Math.round(size * 2) / 2) + 1, HEADING_LEVELS);
  return pages
    .map(({ number, blocks }) => {
      const parts = blocks.map((block) => {
        const text = escapeInline(blockText(block.lines));
        return isHeading(block) ? `${"#".repeat(level(block.size))} ${text}` : escapeLineStart(text);
      });
      return [`<!-- page ${number} -->`, ...parts].join("\n\n");
    })
    .join("\n\n");
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** A page's text items with their positions and font sizes; the page's resources are released after. */
async function pageItems(document: PdfDocument, number: number, stopMs: number): Promise<Result<PlacedText[], "CONVERT_TIMEOUT">> {
  const page = await beforeDeadline(document.getPage(number), stopMs);
  if (!page.ok) return page;
  try {
    const content = await beforeDeadline(page.value.getTextContent(), stopMs);
    if (!content.ok) return content;
    const placed: PlacedText[] = [];
    for (const item of content.value.items) {
      // Marked-content entries have no text.
      if (!("str" in item)) continue;
      const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
      placed.push({ text: item.str, x, y, width: item.width, size: Math.hypot(c, d) || item.height });
    }
    return ok(placed);
  } finally {
    page.value.cleanup();
  }
}

export const pdfConverter: DocumentConverter = {
  format: "PDF",
  mimes: [MIME, "application/x-pdf"],
  extensions: ["pdf"],
  // Readers accept the header anywhere in the first KiB, after junk some generators write first.
  matches: ({ bytes }) => latin1Prefix(bytes, 1024).includes(SIGNATURES.pdf),
  async convert(bytes, options) {
    // Loaded on first use, which takes a while on a cold thread.
    const pdfjs = await beforeDeadline(getResolvedPDFJS(), options.stopMs);
    if (!pdfjs.ok) return fail("CONVERT_TIMEOUT", "The PDF reader could not be loaded before the conversion deadline.");
    const { getDocument } = pdfjs.value;
    // pdf.js takes ownership of (detaches) the buffer it is given; the caller's bytes stay intact.
    const task = getDocument({ ...DOCUMENT_OPTIONS, data: bytes.slice() });
    try {
      const opened = await beforeDeadline(task.promise, options.stopMs);
      if (!opened.ok) return fail("CONVERT_TIMEOUT", "The PDF could not be opened before the conversion deadline.");
      const document = opened.value;
      const total = document.numPages;
      const selection = pagesToRead(options.pages, total, options.maxPages, "page");
      if (!selection.ok) return selection;
      const metadata = await beforeDeadline(document.getMetadata(), options.stopMs);
      const info = metadata.ok ? (metadata.value.info as { Title?: unknown }) : undefined;
      const title = typeof info?.Title === "string" ? info.Title.trim() : "";

      const pages: PdfPage[] = [];
      let chars = 0;
      let stopped = false;
      for (const number of selection.value.numbers) {
        // Past maxContentChars the rest would be cut anyway.
        if (Date.now() >= options.stopMs || chars > options.maxContentChars) {
          stopped = true;
          break;
        }
        const items = await pageItems(document, number, options.stopMs);
        if (!items.ok) {
          stopped = true;
          break;
        }
        const blocks = layOutPage(items.value);
        for (const block of blocks) chars += block.lines.join("").length;
        pages.push({ number, blocks });
      }
      if (chars === 0) {
        if (stopped) return fail("CONVERT_TIMEOUT", "The PDF's text could not be read before the conversion deadline.");
        if (pages.length === 0) return fail("CONVERT_FAILED", "The PDF has no pages.");
        const which = pages.length === total ? "The PDF has" : "The pages read have";
        return fail("CONVERT_FAILED", `${which} no text layer (the PDF is probably scanned or made of images); reading it would need OCR, which is not offered.`);
      }
      return ok({
        provider: "unpdf",
        content: toMarkdown(pages),
        ...(title && { title }),
        truncated: stopped || selection.value.truncated,
        contentType: MIME,
        pages: { total, included: pages.length },
      });
    } catch (error) {
      return pdfFailure(error);
    } finally {
      await task.destroy();
    }
  },
};
