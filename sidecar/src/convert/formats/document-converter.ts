import type { ConvertedDocument, ConvertErrorCode, Result } from "@edge-web/shared";
import type { ImageMode } from "./package-image.ts";
import type { ZipArchive } from "./zip-archive.ts";

export interface ConvertOptions {
  /** The Markdown is cut to this many characters (truncated: true when cut). */
  maxContentChars: number;
  /**
   * Pages to read, like "1-3,7" (1-based, inclusive ranges): PDF pages, PPTX slides in the presentation's order,
   * XLSX worksheets and ODS sheets in the workbook's order. A malformed selection fails (INVALID_INPUT) whatever the
   * format; for a paged format, so does one naming none of its pages. DOCX and the text formats have no pages:
   * a selection is ignored and the whole document is answered, without `pages` in the result.
   */
  pages?: string;
  /** At most this many pages (slides, sheets) are read; past it the answer is truncated. */
  maxPages: number;
  /** Rows per spreadsheet sheet; past it the sheet is cut, with a line saying how many rows were left out. */
  maxRows: number;
  /**
   * When the answer is due (a Date.now() time). A document stopped part way answers what it has, truncated;
   * one that produced nothing in time fails with CONVERT_TIMEOUT.
   */
  deadlineMs: number;
  /** The most bytes all entries of a ZIP-based document (DOCX, XLSX, PPTX, ODS) may unpack to. */
  maxUnzippedBytes: number;
  /** DOCX and PPTX pictures: `![alt](file name)` ("names", the default), or small ones as data: URIs ("inline"). */
  images?: ImageMode;
  /** DOCX comments as footnotes next to the text they comment on; left out by default. */
  comments?: boolean;
}

/**
 * What a converter makes of the bytes: the Markdown and what the document says of itself, in the answered
 * document's own fields. The service adds the source and the file's facts (name, size, duration).
 */
export interface ConverterOutput
  extends Pick<ConvertedDocument, "provider" | "content" | "truncated">,
    Pick<NonNullable<ConvertedDocument["metadata"]>, "title" | "pages"> {
  /** The detected MIME type. */
  contentType: string;
}

export type ConverterResult = Result<ConverterOutput, ConvertErrorCode>;

/** What a converter is given: the call's options, and when to stop reading. */
export interface ConverterOptions extends ConvertOptions {
  /**
   * When reading stops (a Date.now() time): a margin before deadlineMs, left for assembling and sending the
   * answer. Only assembling what was read (rendering the sheets read) may go on past it, into that margin.
   */
  stopMs: number;
}

/** What every document format declares: its name, and what claims it when the bytes do not show it. */
interface DocumentFormat {
  /** The format's name in messages, e.g. "DOCX". */
  format: string;
  /** MIME types and file extensions (lowercase, no dot) that claim the format when the bytes do not show it. */
  mimes: readonly string[];
  extensions: readonly string[];
}

/** A format read from its bytes (PDF, RTF, e-mail). */
export interface BytesConverter extends DocumentFormat {
  reads: "bytes";
  /** Whether the bytes show the format: its signature or header. */
  matches(bytes: Uint8Array): boolean;
  /** Never throws: expected failures are results. */
  convert(bytes: Uint8Array, options: ConverterOptions): Promise<ConverterResult>;
}

/**
 * A format stored as a ZIP archive of parts (DOCX, XLSX, PPTX, OpenDocument, EPUB): it is given the archive that
 * detection opened (within maxUnzippedBytes), not the bytes to open again.
 */
export interface ArchiveConverter extends DocumentFormat {
  reads: "zip";
  /** Whether the archive's parts (and its first bytes, where OpenDocument and EPUB name their type) show the format. */
  matches(archive: ZipArchive, bytes: Uint8Array): boolean;
  /** Never throws: expected failures are results. */
  convert(archive: ZipArchive, options: ConverterOptions): Promise<ConverterResult>;
}

/** One document format (PDF, DOCX …): how to recognise it and how to turn it into Markdown. */
export type DocumentConverter = BytesConverter | ArchiveConverter;
