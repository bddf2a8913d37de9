import { fail, ok } from "@edge-web/shared";
import { errorReason } from "../../error-reason.ts";
import { truncateContent } from "../../fetch/truncate-content.ts";
import { convertArchive } from "./convert-archive.ts";
import { detectDocument, type DocumentHints } from "./detect-document.ts";
import { UnzipBudget } from "./unzip-budget.ts";
import type { ConverterResult, ConvertOptions } from "../formats/document-converter.ts";
import { parsePageSelection } from "../formats/parse-page-selection.ts";
import { convertText } from "../formats/text-document.ts";

/** Converters stop reading this long before the deadline, at least, to assemble and send what they read by then… */
const MIN_MARGIN_MS = 50;
/** …or this share of the time left when conversion starts, when that is longer (larger documents take longer to assemble). */
const MARGIN_SHARE = 0.05;

/**
 * Converts a document (PDF, DOCX, XLSX, ODS, PPTX) or a text file (HTML, Markdown, CSV, JSON, XML, YAML,
 * plain text) to Markdown, cut to maxContentChars. Pure and self-contained: nothing is fetched or read
 * from disk; run it where a runaway document can be stopped (it checks the deadline between pages, sheets
 * and chunks, but a library call in progress runs to its end).
 */
export function convertDocument(bytes: Uint8Array, hints: DocumentHints, options: ConvertOptions): Promise<ConverterResult> {
  return convert(bytes, hints, options, new UnzipBudget(options.maxUnzippedBytes), false);
}

/**
 * convertDocument, for a file alone or for one inside an archive (`inArchive`: an archive there is not opened), its
 * unpacking taken from `budget`, which the archive's files share.
 */
async function convert(bytes: Uint8Array, hints: DocumentHints, options: ConvertOptions, budget: UnzipBudget, inArchive: boolean): Promise<ConverterResult> {
  // Checked for every format, so a malformed selection fails alike everywhere; the paged formats apply it, the others ignore it.
  if (options.pages !== undefined) {
    const selection = parsePageSelection(options.pages);
    if (!selection.ok) return selection;
  }
  if (bytes.length === 0) return fail("CONVERT_FAILED", "The file is empty; there is nothing to convert.");
  const now = Date.now();
  if (now >= options.deadlineMs) return fail("CONVERT_TIMEOUT", "The conversion deadline passed before conversion could start.");
  const stopMs = options.deadlineMs - Math.max(MIN_MARGIN_MS, (options.deadlineMs - now) * MARGIN_SHARE);
  const detected = await detectDocument(bytes, hints, options.maxUnzippedBytes);
  if (!detected.ok) return detected;
  const found = detected.value;
  if (found.type === "archive" && inArchive) return fail("CONVERT_FAILED", "It is an archive inside the archive, which is not opened.");
  // Taken once here for whatever the converter unpacks: it opens the same bytes, within the same declared sizes.
  const zip = found.type === "zip-document" || found.type === "archive" ? found.archive : undefined;
  if (zip) {
    const taken = budget.take(zip.unpackedBytes);
    if (!taken.ok) return taken;
  }
  let converted: ConverterResult;
  try {
    if (found.type === "document") converted = await found.converter.convert(bytes, { ...options, stopMs });
    else if (found.type === "zip-document") converted = await found.converter.convert(found.archive, { ...options, stopMs });
    else if (found.type === "archive") {
      // Each file as if sent alone, by the time left; a page selection is the archive's, not its files'.
      const { pages: _pages, ...perFile } = options;
      converted = await convertArchive(found.archive, { ...options, stopMs }, (file, fileName) => convert(file, { fileName }, { ...perFile, deadlineMs: stopMs }, budget, true));
    } else converted = ok(convertText(bytes, hints, found));
  } catch (error) {
    // Expected failures are results; this is a document that broke a reader.
    const what = found.type === "document" || found.type === "zip-document" ? found.converter.format : found.type === "archive" ? "ZIP" : found.kind.toUpperCase();
    return fail("CONVERT_FAILED", `The ${what} file could not be converted: ${errorReason(error)}.`);
  }
  if (!converted.ok) return converted;
  const cut = truncateContent(converted.value.content, options.maxContentChars);
  return ok({ ...converted.value, content: cut.text, truncated: converted.value.truncated || cut.truncated });
}
