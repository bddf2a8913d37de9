import { fail, ok, type ConvertErrorCode, type Result } from "@edge-web/shared";
import { type getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { escapeInline, escapeLineStart } from "../../extract/markdown-syntax.ts";
import { markdownTable } from "../../extract/markdown-table.ts";
import { errorReason } from "../../error-reason.ts";
import { latin1Prefix } from "../../sniff/latin1-prefix.ts";
import { SIGNATURES } from "../../sniff/signatures.ts";
import { beforeDeadline } from "./before-deadline.ts";
import type { BytesConverter } from "./document-converter.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { layOutPage, linesOf, mayHoldRuledTable, type PageLines, type PlacedText, type TextBlock } from "./pdf-layout.ts";
import { NO_RULES, pageRules, type PageRules, type RuleOps } from "./pdf-rules.ts";

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
/** A word broken across lines is looked up in the document's hyphenated words by at most its last this many characters. */
const MAX_WORD_CHARS = 100;
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

/** Words written with a hyphen inside a line somewhere in the document ("chat-optimized"), lowercased. */
function hyphenatedWords(pages: readonly PdfPage[]): Set<string> {
  const words = new Set<string>();
  for (const { blocks } of pages) {
    for (const { lines } of blocks) {
      // A word starts where no letter precedes it; tried from each of its letters, a long run was read once per letter.
      for (const line of lines) for (const [word] of line.matchAll(/(?<!\p{L})\p{L}+(?:-\p{L}+)+/gu)) words.add(word.toLowerCase());
    }
  }
  return words;
}

/**
 * Joins a block's lines. A hyphen ending a line before a lowercase word is a word broken across the line and is
 * dropped, unless the document writes that word with its hyphen elsewhere ("chat-optimized"); before a capital or
 * a digit it is part of the text ("COVID-19", "Jean-Luc") and stays, without a space.
 *
 * The letters and hyphens the text ends with (its last MAX_WORD_CHARS) are carried from line to line, so no line
 * reads the text before it: testing the joined text for its final hyphen took a block of 8,000 lines 8 s.
 */
function blockText(lines: readonly string[], hyphenated: ReadonlySet<string>): string {
  const parts: string[] = [];
  let written = false;
  let word = "";
  for (const line of lines) {
    const run = trailingWordChars(line);
    if (/\p{L}-$/u.test(word.slice(-3)) && /^[\p{L}\d]/u.test(line)) {
      // The word broken: from after a double hyphen, as "a--chat-" breaks "chat-".
      const cut = word.lastIndexOf("--");
      const before = cut >= 0 ? word.slice(cut + 2) : word.replace(/^-/, "");
      const after = /^\p{L}+/u.exec(line)?.[0] ?? "";
      const keep = !/^\p{Ll}/u.test(line) || hyphenated.has(`${before}${after}`.toLowerCase());
      if (!keep) {
        parts.push((parts.pop() as string).slice(0, -1));
        word = word.slice(0, -1);
      }
      parts.push(line);
      word = (run === line ? word + line : run).slice(-MAX_WORD_CHARS);
    } else {
      if (written) parts.push(" ");
      parts.push(line);
      written ||= line !== "";
      word = run.slice(-MAX_WORD_CHARS);
    }
  }
  return parts.join("");
}

/** The letters and hyphens a line ends with; a run starts where neither precedes it, so each run is read once. */
const trailingWordChars = (line: string): string => /(?<![\p{L}-])[\p{L}-]+$/u.exec(line)?.[0] ?? "";

/**
 * A heading block's lines that belong to the heading: a line continues it only when it is a wrap, its first word
 * too long to have fitted at the end of the line before. A short title followed by an address in the same size
 * is the title, and the address is text.
 */
function headingLines(lines: readonly string[]): number {
  const widest = Math.max(...lines.map((line) => line.length));
  let count = 1;
  while (count < lines.length) {
    const firstWord = (lines[count] as string).split(" ")[0] ?? "";
    if ((lines[count - 1] as string).length + 1 + firstWord.length <= widest) break;
    count++;
  }
  return count;
}

/** Heading sizes within this share of the next larger one are its level, so a title set at 17.8 and 18.2 pt is one level everywhere. */
const SAME_LEVEL = 0.05;

function toMarkdown(pages: readonly PdfPage[]): string {
  const body = bodySize(pages);
  const hyphenated = hyphenatedWords(pages);
  const candidate = ({ lines, size, table }: TextBlock): boolean => !table && size >= body * HEADING_RATIO && lines.length <= MAX_HEADING_LINES;
  // Heading blocks split into the heading and the text it swallowed, before headings are ranked.
  const split = pages.map(({ number, blocks }) => ({
    number,
    blocks: blocks.flatMap((block): TextBlock[] => {
      if (!candidate(block) || block.lines.length === 1) return [block];
      const count = headingLines(block.lines);
      return count === block.lines.length ? [block] : [{ ...block, lines: block.lines.slice(0, count) }, { lines: block.lines.slice(count), size: body }];
    }),
  }));
  const isHeading = (block: TextBlock): boolean => candidate(block) && blockText(block.lines, hyphenated).length <= MAX_HEADING_CHARS;
  // Levels for the whole document: sizes from the largest down, near sizes sharing a level.
  const sizes = [...new Set(split.flatMap(({ blocks }) => blocks.filter(isHeading).map(({ size }) => size)))].sort((a, b) => b - a);
  const levelOf = new Map<number, number>();
  let level = 0;
  let previous = Infinity;
  for (const size of sizes) {
    if (size < previous * (1 - SAME_LEVEL)) level++;
    previous = size;
    levelOf.set(size, Math.min(level, HEADING_LEVELS));
  }
  return split
    .map(({ number, blocks }) => {
      const parts = blocks.map((block) => {
        if (block.table) return markdownTable(tableRows(block.table));
        const text = escapeInline(blockText(block.lines, hyphenated));
        return isHeading(block) ? `${"#".repeat(levelOf.get(block.size) ?? HEADING_LEVELS)} ${text}` : escapeLineStart(text);
      });
      return [`<!-- page ${number} -->`, ...parts].join("\n\n");
    })
    .join("\n\n");
}

/**
 * A found table's rows for Markdown: the first row is the header, except in a form of labels and values (every
 * label ends with ":", in the first of each pair of columns), which becomes a two-column table of its pairs, read
 * row by row, under an empty header.
 */
function tableRows(rows: readonly string[][]): string[][] {
  const cells = rows.map((row) => row.map(escapeInline));
  const width = rows[0]?.length ?? 0;
  const isLabel = (text: string | undefined) => (text ?? "").trim().endsWith(":");
  const form = width % 2 === 0 && rows.every((row) => row.every((cell, i) => i % 2 === 1 || isLabel(cell) || (cell === "" && row[i + 1] === "")));
  if (!form) return cells;
  const pairs = cells.flatMap((row) => Array.from({ length: width / 2 }, (_, k) => [row[2 * k] ?? "", row[2 * k + 1] ?? ""]).filter(([label, value]) => label || value));
  return [["", ""], ...pairs];
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The operators pageRules reads, by pdf.js's numbers. */
async function ruleOps(): Promise<RuleOps> {
  const { OPS } = await getResolvedPDFJS();
  return {
    save: OPS.save,
    restore: OPS.restore,
    transform: OPS.transform,
    formBegin: OPS.paintFormXObjectBegin,
    formEnd: OPS.paintFormXObjectEnd,
    constructPath: OPS.constructPath,
    strokes: new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]),
    fills: new Set([OPS.fill, OPS.eoFill]),
  };
}

/** A page's text by line, with positions and font sizes, and its ruling lines; the page's resources are released after. */
async function pageItems(document: PdfDocument, number: number, ops: RuleOps, stopMs: number): Promise<Result<{ lines: PageLines; rules: PageRules }, "CONVERT_TIMEOUT">> {
  const page = await beforeDeadline(document.getPage(number), stopMs);
  if (!page.ok) return page;
  try {
    const content = await beforeDeadline(page.value.getTextContent(), stopMs);
    if (!content.ok) return content;
    const items: PlacedText[] = [];
    for (const item of content.value.items) {
      // Marked-content entries have no text.
      if (!("str" in item)) continue;
      const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
      items.push({ text: item.str, x, y, width: item.width, size: Math.hypot(c, d) || item.height });
    }
    const lines = linesOf(items);
    if (!mayHoldRuledTable(lines)) return ok({ lines, rules: NO_RULES });
    // The drawing only refines the page's table; when it cannot be read in time, the text is read without it.
    const drawn = await beforeDeadline(page.value.getOperatorList(), stopMs);
    return ok({ lines, rules: drawn.ok ? pageRules(drawn.value.fnArray, drawn.value.argsArray, ops) : NO_RULES });
  } finally {
    page.value.cleanup();
  }
}

export const pdfConverter: BytesConverter = {
  reads: "bytes",
  format: "PDF",
  mimes: [MIME, "application/x-pdf"],
  extensions: ["pdf"],
  // Readers accept the header anywhere in the first KiB, after junk some generators write first.
  matches: (bytes) => latin1Prefix(bytes, 1024).includes(SIGNATURES.pdf),
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
      const ops = await ruleOps();
      let chars = 0;
      let stopped = false;
      for (const number of selection.value.numbers) {
        // Past maxContentChars the rest would be cut anyway.
        if (Date.now() >= options.stopMs || chars > options.maxContentChars) {
          stopped = true;
          break;
        }
        const read = await pageItems(document, number, ops, options.stopMs);
        if (!read.ok) {
          stopped = true;
          break;
        }
        const blocks = layOutPage(read.value.lines, read.value.rules);
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
