import type { Result } from "@edge-web/shared";
import type { ZipArchive } from "./zip-archive.ts";

export interface ConvertOptions {
  /** The Markdown is cut to this many characters (truncated: true when cut). */
  maxContentChars: number;
  /** Pages to read, like "1-3,7" (1-based, inclusive ranges): PDF pages, PPTX slides, spreadsheet sheets. */
  pages?: string;
  /** At most this many pages (slides, sheets) are read; past it the answer is truncated. */
  maxPages: number;
  /** Rows per spreadsheet sheet; past it the sheet is cut, with a line saying how many rows were left out. */
  maxRows: number;
  /**
   * When conversion must stop (a Date.now() time). A document stopped part way answers what it has, truncated;
   * one that produced nothing by then fails with CONVERT_TIMEOUT.
   */
  deadlineMs: number;
  /** The most bytes all entries of a ZIP-based document (DOCX, XLSX, PPTX, ODS) may unpack to. */
  maxUnzippedBytes: number;
}

export interface ConvertedDocument {
  /** The converter that ran: "unpdf", "mammoth", "xlsx", "ods", "pptx", or the text handler's kind ("html", "csv" …). */
  provider: string;
  /** Markdown. */
  content: string;
  title?: string;
  truncated: boolean;
  /** The detected MIME type. */
  contentType: string;
  /** Paged formats only: PDF pages, PPTX slides, spreadsheet sheets. */
  pages?: { total: number; included: number };
}

export type ConvertCode = "INVALID_INPUT" | "CONVERT_FAILED" | "CONVERT_TIMEOUT" | "FILE_TOO_LARGE";

export type ConvertResult = Result<ConvertedDocument, ConvertCode>;

/** What detection learned from the bytes: the ZIP archive, when they are one that opens. */
export interface DocumentProbe {
  bytes: Uint8Array;
  archive?: ZipArchive;
}

/** One document format (PDF, DOCX …): how to recognise it and how to turn it into Markdown. */
export interface DocumentConverter {
  /** The format's name in messages, e.g. "DOCX". */
  format: string;
  /** The MIME type answered as the content type. */
  mime: string;
  /** MIME types and file extensions (lowercase, no dot) that claim the format when the bytes do not show it. */
  mimes: readonly string[];
  extensions: readonly string[];
  /** Whether the bytes show the format: its signature, or for ZIP-based formats the parts inside. */
  matches(probe: DocumentProbe): boolean;
  /** Never throws: expected failures are results. */
  convert(bytes: Uint8Array, options: ConvertOptions): Promise<ConvertResult>;
}
