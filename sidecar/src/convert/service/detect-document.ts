import { failWith, mediaType, ok, type ConvertErrorCode, type Result } from "@edge-web/shared";
import { detectContentType } from "../../extract/detect-type.ts";
import { fileExtension } from "../../sniff/file-extension.ts";
import { hasSignature } from "../../sniff/has-signature.ts";
import { hasOdfMimetype } from "../../sniff/odf-mimetype.ts";
import { SIGNATURES } from "../../sniff/signatures.ts";
import { urlFileName } from "../../sniff/url-file-name.ts";
import type { ArchiveConverter, BytesConverter, DocumentConverter } from "../formats/document-converter.ts";
import { DOCUMENT_CONVERTERS } from "../formats/document-converters.ts";
import type { TextType } from "../formats/text-document.ts";
import { openZipArchive, type ZipArchive } from "../formats/zip-archive.ts";

export interface DocumentHints {
  contentType?: string;
  fileName?: string;
  url?: string;
}

/**
 * A document read from its bytes, a document stored as a ZIP archive (with the archive detection opened, for its
 * converter to read), an archive of files, or text.
 */
export type DetectedDocument =
  | { type: "document"; converter: BytesConverter }
  | { type: "zip-document"; converter: ArchiveConverter; archive: ZipArchive }
  | { type: "archive"; archive: ZipArchive }
  | ({ type: "text" } & TextType);

const SUPPORTED = "convert_content converts PDF, DOCX, ODT, XLSX, ODS, PPTX, ODP, EPUB and RTF documents, e-mail messages (EML), HTML, text, Markdown, CSV, JSON, XML and YAML files, and ZIP archives of them";

/** OpenDocument's own mimetype entry, for naming its formats that are not read (drawings, formulas …). */
const ODF_MIME_PREFIX = "application/vnd.oasis.opendocument.";

const unsupported = (what: string) => failWith<ConvertErrorCode>("CONVERT_FAILED", `This file is ${what}, which cannot be converted: ${SUPPORTED}.`, { fault: "unsupported-type" });

/** The streams that name what a compound file (OLE2) holds, as UTF-16LE names in its directory. */
const COMPOUND_STREAMS: [string, string][] = [
  ["EncryptedPackage", "a password-protected Office document; remove the password (save it again without one) and convert that"],
  ["WordDocument", "a legacy Word document (.doc); save it as DOCX"],
  ["Workbook", "a legacy Excel workbook (.xls); save it as XLSX"],
  ["Book", "a legacy Excel workbook (.xls); save it as XLSX"],
  ["PowerPoint Document", "a legacy PowerPoint presentation (.ppt); save it as PPTX"],
];

/** What a compound file is, by the first stream name its directory shows. */
function compoundFileName(bytes: Uint8Array): string {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = COMPOUND_STREAMS.find(([stream]) => data.includes(Buffer.from(`${stream}\0`, "utf16le")));
  return found ? found[1] : "a legacy Microsoft Office file (.doc, .xls or .ppt) or a password-protected Office document; save it as DOCX, XLSX or PPTX without a password";
}

const BYTES_CONVERTERS = DOCUMENT_CONVERTERS.filter((converter): converter is BytesConverter => converter.reads === "bytes");
const ARCHIVE_CONVERTERS = DOCUMENT_CONVERTERS.filter((converter): converter is ArchiveConverter => converter.reads === "zip");

/**
 * A converter that the Content-Type or extension names for bytes that do not show its format: a ZIP-based format
 * is opened here all the same, and fails as the damaged (or other) archive the bytes are.
 */
function claimed(converter: DocumentConverter, bytes: Uint8Array, maxUnzippedBytes: number): Result<DetectedDocument, ConvertErrorCode> {
  if (converter.reads === "bytes") return ok({ type: "document", converter });
  const archive = openZipArchive(bytes, maxUnzippedBytes);
  return archive.ok ? ok({ type: "zip-document", converter, archive: archive.value }) : archive;
}

/**
 * Which converter reads the bytes: what the bytes show first (a PDF header, the parts of a ZIP archive;
 * one no converter takes is an archive of files),
 * then the Content-Type (a document type, or a text type for fetch_content's handlers), then the file
 * extension; other bytes go to fetch_content's type detection, which finds the text formats and names the
 * binary ones.
 */
export async function detectDocument(bytes: Uint8Array, hints: DocumentHints, maxUnzippedBytes: number): Promise<Result<DetectedDocument, ConvertErrorCode>> {
  const isZip = hasSignature(bytes, SIGNATURES.zip) || hasSignature(bytes, SIGNATURES.emptyZip);
  const archive = isZip ? openZipArchive(bytes, maxUnzippedBytes) : undefined;
  if (archive && !archive.ok) return archive;
  if (archive) {
    const shown = ARCHIVE_CONVERTERS.find((converter) => converter.matches(archive.value, bytes));
    if (shown) return ok({ type: "zip-document", converter: shown, archive: archive.value });
    // An OpenDocument format no converter reads is that document, not an archive of files.
    return hasOdfMimetype(bytes, ODF_MIME_PREFIX) ? unsupported("an OpenDocument file of a kind that is not read (drawing, formula, database)") : ok({ type: "archive", archive: archive.value });
  }
  const shown = BYTES_CONVERTERS.find((converter) => converter.matches(bytes));
  if (shown) return ok({ type: "document", converter: shown });
  if (hasSignature(bytes, SIGNATURES.compoundFile)) return unsupported(compoundFileName(bytes));

  const mime = mediaType(hints.contentType);
  const claimedByType = mime === "" ? undefined : DOCUMENT_CONVERTERS.find((converter) => converter.mimes.includes(mime));
  if (claimedByType) return claimed(claimedByType, bytes, maxUnzippedBytes);

  const url = hints.fileName !== undefined ? `file:///${encodeURIComponent(hints.fileName)}` : (hints.url ?? "");
  const type = await detectContentType({ ...(hints.contentType !== undefined && { contentType: hints.contentType }), url, bytes });
  // The type found is the header's own only when the header names a text type. Such a header wins over the
  // extension: a sign-in page served as text/html from …/paper.pdf is that page, not a broken PDF.
  const textByHeader = type.ok && mime !== "" && type.mime === mime;
  // The file name's extension, else the URL path's.
  const extension = fileExtension(hints.fileName ?? urlFileName(hints.url ?? "") ?? "");
  const claimedByExtension = textByHeader || extension === "" ? undefined : DOCUMENT_CONVERTERS.find((converter) => converter.extensions.includes(extension));
  if (claimedByExtension) return claimed(claimedByExtension, bytes, maxUnzippedBytes);
  if (type.ok) return ok({ type: "text", kind: type.kind, mime: type.mime, ...(type.language && { language: type.language }) });
  return unsupported(mime && mime !== "application/octet-stream" ? `of type ${mime}` : extension ? `a .${extension} file` : "binary data of a format that was not recognised");
}
