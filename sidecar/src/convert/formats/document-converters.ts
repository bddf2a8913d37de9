import type { DocumentConverter } from "./document-converter.ts";
import { docxConverter } from "./docx-converter.ts";
import { emlConverter } from "./eml-converter.ts";
import { epubConverter } from "./epub-converter.ts";
import { odpConverter } from "./odp-converter.ts";
import { odsConverter } from "./ods-converter.ts";
import { odtConverter } from "./odt-converter.ts";
import { pdfConverter } from "./pdf-converter.ts";
import { pptxConverter } from "./pptx-converter.ts";
import { rtfConverter } from "./rtf-converter.ts";
import { xlsxConverter } from "./xlsx-converter.ts";

/** Every document format convert_content reads beyond the text formats fetch_content already handles. */
export const DOCUMENT_CONVERTERS: readonly DocumentConverter[] = [pdfConverter, docxConverter, odtConverter, xlsxConverter, pptxConverter, odpConverter, odsConverter, epubConverter, rtfConverter, emlConverter];
