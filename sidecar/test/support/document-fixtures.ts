import zlib from "node:zlib";
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import type { ConvertOptions } from "../../src/convert/formats/document-converter.ts";
import { buildZip, deflatedFiller, type ZipEntryInput } from "./document-zip.ts";

/**
 * Documents generated for tests: PDFs with pdf-lib (or written by hand where pdf-lib will not write what is
 * needed: encryption, broken cross-references, absurd nesting), Office documents and OpenDocument
 * spreadsheets as ZIP archives of their XML parts.
 */

// ── PDF ────────────────────────────────────────────────────────────────────────────────

export interface PdfPageSpec {
  /** Drawn at 24 pt at the top. */
  heading?: string;
  /** Drawn at 16 pt below the heading. */
  subheading?: string;
  /** 11 pt body text across the page, wrapped; one blank line between paragraphs. */
  paragraphs?: string[];
  /** Two columns of 11 pt paragraphs below the heading (and the paragraphs, if any). */
  columns?: [string[], string[]];
  /** Full-width paragraphs below the columns. */
  closing?: string[];
  /** Rows of short cells laid out in columns 150 pt apart, below everything else. */
  table?: string[][];
  /** Draw the page's lines bottom first, so the content stream is not in reading order. */
  drawBottomFirst?: boolean;
  /** Text drawn exactly where given (x, y from the bottom left; size in points), after everything else. */
  draws?: { text: string; x: number; y: number; size?: number }[];
  /** Straight lines stroked from (x1, y1) to (x2, y2), `thickness` points wide (1 unless given). */
  strokes?: { x1: number; y1: number; x2: number; y2: number; thickness?: number }[];
  /** Filled rectangles (x, y their bottom left), drawn before the text. */
  fills?: { x: number; y: number; width: number; height: number }[];
}

export interface PdfSpec {
  title?: string;
  /** The pages, or a count of generated pages of two paragraphs each ("Page N paragraph K …"). */
  pages: PdfPageSpec[] | number;
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const BODY_SIZE = 11;
const LEADING = 14;
const GUTTER = 36;

/** Words into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

interface Draw {
  text: string;
  x: number;
  y: number;
  size: number;
}

/** The lines of one page, top down, with their positions. */
function layOut(spec: PdfPageSpec): Draw[] {
  const draws: Draw[] = [];
  let y = PAGE_HEIGHT - MARGIN;
  if (spec.heading) {
    draws.push({ text: spec.heading, x: MARGIN, y, size: 24 });
    y -= 40;
  }
  if (spec.subheading) {
    draws.push({ text: spec.subheading, x: MARGIN, y, size: 16 });
    y -= 28;
  }
  const paragraphs = (texts: readonly string[], x: number, top: number, width: number): number => {
    let at = top;
    for (const text of texts) {
      for (const line of wrap(text, width)) {
        draws.push({ text: line, x, y: at, size: BODY_SIZE });
        at -= LEADING;
      }
      at -= LEADING;
    }
    return at;
  };
  y = paragraphs(spec.paragraphs ?? [], MARGIN, y, 85);
  if (spec.columns) {
    const columnWidth = (PAGE_WIDTH - 2 * MARGIN - GUTTER) / 2;
    y = Math.min(paragraphs(spec.columns[0], MARGIN, y, 38), paragraphs(spec.columns[1], MARGIN + columnWidth + GUTTER, y, 38));
  }
  y = paragraphs(spec.closing ?? [], MARGIN, y, 85);
  for (const row of spec.table ?? []) {
    row.forEach((cell, i) => draws.push({ text: cell, x: MARGIN + i * 150, y, size: BODY_SIZE }));
    y -= LEADING;
  }
  for (const { text, x, y: at, size } of spec.draws ?? []) draws.push({ text, x, y: at, size: size ?? BODY_SIZE });
  return draws;
}

function generatedPage(number: number): PdfPageSpec {
  const sentence = (k: number) =>
    `Page ${number} paragraph ${k} carries ordinary body text about the subject at hand, long enough to wrap over a few lines of the page like prose does.`;
  return { paragraphs: [`${sentence(1)} ${sentence(1)}`, `${sentence(2)} ${sentence(2)}`] };
}

function drawPage(page: PDFPage, font: PDFFont, spec: PdfPageSpec): void {
  for (const { x, y, width, height } of spec.fills ?? []) page.drawRectangle({ x, y, width, height, color: rgb(0.6, 0.6, 0.6) });
  for (const { x1, y1, x2, y2, thickness } of spec.strokes ?? []) page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: thickness ?? 1 });
  const draws = layOut(spec);
  for (const { text, x, y, size } of spec.drawBottomFirst ? draws.reverse() : draws) page.drawText(text, { x, y, size, font });
}

/** A text PDF drawn with a standard font (Helvetica); see PdfPageSpec for what each page holds. */
export async function buildPdf(spec: PdfSpec): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  if (spec.title) document.setTitle(spec.title);
  const font = await document.embedFont(StandardFonts.Helvetica);
  const pages = typeof spec.pages === "number" ? Array.from({ length: spec.pages }, (_, i) => generatedPage(i + 1)) : spec.pages;
  for (const page of pages) drawPage(document.addPage([PAGE_WIDTH, PAGE_HEIGHT]), font, page);
  return document.save();
}

/** A PNG of solid grey, width × height pixels. */
export function greyPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A "scanned" PDF: each page is one picture and there is no text layer. */
export async function buildImageOnlyPdf(pages = 2): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const image = await document.embedPng(greyPng(64, 64));
  for (let i = 0; i < pages; i++) {
    document.addPage([PAGE_WIDTH, PAGE_HEIGHT]).drawImage(image, { x: 0, y: 0, width: PAGE_WIDTH, height: PAGE_HEIGHT });
  }
  return document.save();
}

/**
 * A PDF written object by object: objects numbered from 1, a cross-reference table whose offsets can be
 * shifted (to break it), and extra trailer entries.
 */
function handWrittenPdf(objects: readonly string[], options: { trailer?: string; xrefShift?: number } = {}): Uint8Array {
  const shift = options.xrefShift ?? 0;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset + shift).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${options.trailer ?? ""}>>\nstartxref\n${xref + shift}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** Catalog, page tree, one page showing `text` in Helvetica, with extra entries in the page dictionary. */
function onePageObjects(text: string, pageExtra = ""): string[] {
  const stream = `BT /F1 12 Tf 72 700 Td (${text}) Tj ET`;
  return [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> ${pageExtra}>>`,
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
}

/** A one-page PDF whose text is `text`, written by hand (so tests can damage it in known ways). */
export function buildSimplePdf(text = "Hello from a hand-written PDF"): Uint8Array {
  return handWrittenPdf(onePageObjects(text));
}

/**
 * A password-protected PDF: the trailer names a standard security handler (RC4, revision 2) whose user
 * password is not empty, so no reader can open it without the password.
 */
export function buildEncryptedPdf(): Uint8Array {
  const encrypt = `<< /Filter /Standard /V 1 /R 2 /O <${"4f".repeat(32)}> /U <${"a5".repeat(32)}> /P -44 >>`;
  const id = "<0123456789abcdef0123456789abcdef>";
  return handWrittenPdf([...onePageObjects("Secret text"), encrypt], { trailer: `/Encrypt 6 0 R /ID [${id} ${id}] ` });
}

/** A PDF whose cross-reference offsets (and startxref) all point 37 bytes past the objects. */
export function buildBrokenXrefPdf(text = "Recovered text"): Uint8Array {
  return handWrittenPdf(onePageObjects(text), { xrefShift: 37 });
}

/** A PDF whose page dictionary holds arrays nested `depth` deep. */
export function buildNestedPdf(depth = 100_000): Uint8Array {
  return handWrittenPdf(onePageObjects("Nested", `/Deep ${"[".repeat(depth)}${"]".repeat(depth)} `));
}

// ── Office documents ───────────────────────────────────────────────────────────────────

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const RELATIONSHIPS_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const OFFICE_RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function contentTypes(overrides: Record<string, string>): string {
  const parts = Object.entries(overrides).map(([part, type]) => `<Override PartName="/${part}" ContentType="${type}"/>`);
  return `${XML_HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${parts.join("")}</Types>`;
}

interface RelationshipInput {
  id: string;
  type: string;
  target: string;
  external?: boolean;
}

function relationships(items: readonly RelationshipInput[]): string {
  const entries = items.map(
    ({ id, type, target, external }) =>
      `<Relationship Id="${id}" Type="${type.startsWith("http") ? type : `${OFFICE_RELATIONSHIP}/${type}`}" Target="${escapeXml(target)}"${external ? ' TargetMode="External"' : ""}/>`,
  );
  return `${XML_HEADER}<Relationships xmlns="${RELATIONSHIPS_NS}">${entries.join("")}</Relationships>`;
}

function coreProperties(title: string): string {
  return `${XML_HEADER}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(title)}</dc:title></cp:coreProperties>`;
}

const CORE_RELATIONSHIP = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties";
const CORE_TYPE = "application/vnd.openxmlformats-package.core-properties+xml";

export interface DocxSpec {
  title?: string;
  heading?: string;
  paragraph?: string;
  link?: { text: string; url: string };
  bullets?: string[];
  /** A bullet one level down, after the first bullet. */
  nestedBullet?: string;
  numbered?: string[];
  subheading?: string;
  /** The first row is the header. */
  table?: string[][];
  /** Extra paragraphs at the end. */
  paragraphs?: string[];
  /** A last paragraph linking to a bookmark inside the document (as a table of contents does). */
  bookmarkLink?: string;
  /** More archive entries after the document's own parts. */
  entries?: ZipEntryInput[];
  /** Raw body XML (paragraphs, as wordParagraph, wordPicture and the math helpers write) after everything else. */
  xml?: string[];
  /** More relationships of word/document.xml (pictures, comments). */
  relationships?: RelationshipInput[];
}

const DOCX_DEFAULTS: Required<Omit<DocxSpec, "title" | "paragraphs" | "bookmarkLink" | "entries" | "xml" | "relationships">> = {
  heading: "Quarterly Report",
  paragraph: "This report summarises the quarter.",
  link: { text: "the results page", url: "https://example.com/results" },
  bullets: ["Revenue grew", "Costs fell"],
  nestedBullet: "Mostly in logistics",
  numbered: ["Plan the budget", "Hire two engineers"],
  subheading: "Figures",
  table: [
    ["Region", "Sales"],
    ["North", "120"],
    ["South", "95"],
  ],
};

export const wordRun = (text: string): string => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
export const wordParagraph = (content: string, properties = ""): string => `<w:p>${properties ? `<w:pPr>${properties}</w:pPr>` : ""}${content}</w:p>`;

/** A run holding an inline picture (DrawingML) of the part related as `id`, with alt text as Word writes it. */
export function wordPicture(id: string, alt: { descr?: string; title?: string } = {}): string {
  const attributes = `${alt.descr !== undefined ? ` descr="${escapeXml(alt.descr)}"` : ""}${alt.title !== undefined ? ` title="${escapeXml(alt.title)}"` : ""}`;
  return `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture 1"${attributes}/><a:graphic xmlns:a="${DRAWING_NS}"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="image.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
}

const MATH_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math";
/** An m:oMath of the given OMML content (m:r, m:f …); `display` wraps it in an m:oMathPara. */
export function wordMath(content: string, display = false): string {
  const math = `<m:oMath xmlns:m="${MATH_NS}">${content}</m:oMath>`;
  return display ? `<m:oMathPara xmlns:m="${MATH_NS}">${math}</m:oMathPara>` : math;
}
/** An OMML run of text. */
export const mathRun = (text: string): string => `<m:r><m:t>${escapeXml(text)}</m:t></m:r>`;

/** word/comments.xml with the comments given, by id. */
export function wordComments(comments: { id: string; author: string; text: string }[]): string {
  const items = comments.map(({ id, author, text }) => `<w:comment w:id="${id}" w:author="${escapeXml(author)}"><w:p>${wordRun(text)}</w:p></w:comment>`);
  return `${XML_HEADER}<w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${items.join("")}</w:comments>`;
}
const wordListItem = (text: string, numId: number, level: number): string =>
  wordParagraph(wordRun(text), `<w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numId}"/></w:numPr>`);

/**
 * A Word document: a Heading 1, a paragraph with an external link, a bulleted list (with one nested item),
 * a numbered list, a Heading 2 and a table, each overridable.
 */
export function buildDocx(spec: DocxSpec = {}): Uint8Array {
  const { heading, paragraph, link, bullets, nestedBullet, numbered, subheading, table } = { ...DOCX_DEFAULTS, ...spec };
  const tableXml = `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr>${table
    .map((row) => `<w:tr>${row.map((cell) => `<w:tc>${wordParagraph(wordRun(cell))}</w:tc>`).join("")}</w:tr>`)
    .join("")}</w:tbl>`;
  const body = [
    wordParagraph(wordRun(heading), '<w:pStyle w:val="Heading1"/>'),
    wordParagraph(`${wordRun(`${paragraph} See `)}<w:hyperlink r:id="rIdLink">${wordRun(link.text)}</w:hyperlink>${wordRun(".")}`),
    ...bullets.flatMap((text, i) => [wordListItem(text, 1, 0), ...(i === 0 && nestedBullet ? [wordListItem(nestedBullet, 1, 1)] : [])]),
    ...numbered.map((text) => wordListItem(text, 2, 0)),
    wordParagraph(wordRun(subheading), '<w:pStyle w:val="Heading2"/>'),
    tableXml,
    ...(spec.paragraphs ?? []).map((text) => wordParagraph(wordRun(text))),
    ...(spec.bookmarkLink ? [wordParagraph(`<w:hyperlink w:anchor="_Toc1">${wordRun(spec.bookmarkLink)}</w:hyperlink>`)] : []),
    ...(spec.xml ?? []),
  ].join("");
  const document = `${XML_HEADER}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${OFFICE_RELATIONSHIP}"><w:body>${body}<w:sectPr/></w:body></w:document>`;
  const style = (id: string, name: string) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
  const styles = `${XML_HEADER}<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${style("Normal", "Normal")}${style("Heading1", "heading 1")}${style("Heading2", "heading 2")}${style("ListParagraph", "List Paragraph")}</w:styles>`;
  const level = (ilvl: number, format: string) => `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${format === "bullet" ? "•" : `%${ilvl + 1}.`}"/></w:lvl>`;
  const numbering = `${XML_HEADER}<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="0">${level(0, "bullet")}${level(1, "bullet")}</w:abstractNum><w:abstractNum w:abstractNumId="1">${level(0, "decimal")}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`;
  const word = "application/vnd.openxmlformats-officedocument.wordprocessingml";
  return buildZip([
    {
      name: "[Content_Types].xml",
      data: contentTypes({
        "word/document.xml": `${word}.document.main+xml`,
        "word/styles.xml": `${word}.styles+xml`,
        "word/numbering.xml": `${word}.numbering+xml`,
        "docProps/core.xml": CORE_TYPE,
      }),
    },
    {
      name: "_rels/.rels",
      data: relationships([
        { id: "rId1", type: "officeDocument", target: "word/document.xml" },
        { id: "rId2", type: CORE_RELATIONSHIP, target: "docProps/core.xml" },
      ]),
    },
    { name: "word/document.xml", data: document },
    {
      name: "word/_rels/document.xml.rels",
      data: relationships([
        { id: "rIdStyles", type: "styles", target: "styles.xml" },
        { id: "rIdNumbering", type: "numbering", target: "numbering.xml" },
        { id: "rIdLink", type: "hyperlink", target: link.url, external: true },
        ...(spec.relationships ?? []),
      ]),
    },
    { name: "word/styles.xml", data: styles },
    { name: "word/numbering.xml", data: numbering },
    { name: "docProps/core.xml", data: coreProperties(spec.title ?? "") },
    ...(spec.entries ?? []),
  ]);
}

/** A spreadsheet cell: text, a number, a boolean, a date (a serial day number shown in a date format), or empty. */
export type XlsxCell = string | number | boolean | null | { date: number } | { inline: string } | { number: number; format: string | number };

export interface XlsxSpec {
  title?: string;
  /** Rows in order; null cells and empty rows are left out of the XML, leaving gaps in the references. */
  sheets: { name: string; rows: XlsxCell[][]; hidden?: "hidden" | "veryHidden"; merges?: string[] }[];
}

function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** An Excel workbook: shared strings for text, the date format (built-in 14) for dates, sheets in order. */
export function buildXlsx(spec: XlsxSpec): Uint8Array {
  const strings = new Map<string, number>();
  const stringIndex = (text: string): number => {
    const found = strings.get(text);
    if (found !== undefined) return found;
    strings.set(text, strings.size);
    return strings.size - 1;
  };
  // Number formats: a custom code gets an id from 164 on, a built-in is used by its id; each its own cell format after the date one.
  const formats: (string | number)[] = [];
  const styleOf = (format: string | number): number => {
    if (!formats.includes(format)) formats.push(format);
    return 2 + formats.indexOf(format);
  };
  const cellXml = (cell: XlsxCell, reference: string): string => {
    if (cell === null) return "";
    if (typeof cell === "string") return `<c r="${reference}" t="s"><v>${stringIndex(cell)}</v></c>`;
    if (typeof cell === "number") return `<c r="${reference}"><v>${cell}</v></c>`;
    if (typeof cell === "boolean") return `<c r="${reference}" t="b"><v>${cell ? 1 : 0}</v></c>`;
    if ("date" in cell) return `<c r="${reference}" s="1"><v>${cell.date}</v></c>`;
    if ("number" in cell) return `<c r="${reference}" s="${styleOf(cell.format)}"><v>${cell.number}</v></c>`;
    return `<c r="${reference}" t="inlineStr"><is><t>${escapeXml(cell.inline)}</t></is></c>`;
  };
  const sheetXml = (rows: XlsxCell[][], merges: string[] = []): string => {
    const rowsXml = rows
      .map((row, r) => (row.length === 0 ? "" : `<row r="${r + 1}">${row.map((cell, c) => cellXml(cell, `${columnLetters(c)}${r + 1}`)).join("")}</row>`))
      .join("");
    const width = rows.reduce((widest, row) => Math.max(widest, row.length), 1);
    const dimension = `<dimension ref="A1:${columnLetters(width - 1)}${Math.max(1, rows.length)}"/>`;
    const mergeXml = merges.length > 0 ? `<mergeCells count="${merges.length}">${merges.map((ref) => `<mergeCell ref="${ref}"/>`).join("")}</mergeCells>` : "";
    return `${XML_HEADER}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${dimension}<sheetData>${rowsXml}</sheetData>${mergeXml}</worksheet>`;
  };
  const sheets = spec.sheets.map(({ rows, merges }) => sheetXml(rows, merges));
  const sheetEntries = spec.sheets.map(
    ({ name, hidden }, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}"${hidden ? ` state="${hidden}"` : ""} r:id="rIdSheet${i + 1}"/>`,
  );
  const workbook = `${XML_HEADER}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_RELATIONSHIP}"><workbookPr/><sheets>${sheetEntries.join("")}</sheets></workbook>`;
  const sharedStrings = `${XML_HEADER}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.size}" uniqueCount="${strings.size}">${[...strings.keys()]
    .map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`)
    .join("")}</sst>`;
  const formatId = (format: string | number): number => (typeof format === "number" ? format : 164 + formats.indexOf(format));
  const customFormats = formats.filter((format): format is string => typeof format === "string");
  const numFmts = customFormats.length > 0 ? `<numFmts count="${customFormats.length}">${customFormats.map((code) => `<numFmt numFmtId="${formatId(code)}" formatCode="${escapeXml(code)}"/>`).join("")}</numFmts>` : "";
  const xfs = ['<xf numFmtId="0"/>', '<xf numFmtId="14" applyNumberFormat="1"/>', ...formats.map((format) => `<xf numFmtId="${formatId(format)}" applyNumberFormat="1"/>`)];
  const styles = `${XML_HEADER}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${numFmts}<cellXfs count="${xfs.length}">${xfs.join("")}</cellXfs></styleSheet>`;
  const sml = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  return buildZip([
    {
      name: "[Content_Types].xml",
      data: contentTypes({
        "xl/workbook.xml": `${sml}.sheet.main+xml`,
        "xl/sharedStrings.xml": `${sml}.sharedStrings+xml`,
        "xl/styles.xml": `${sml}.styles+xml`,
        "docProps/core.xml": CORE_TYPE,
        ...Object.fromEntries(sheets.map((_, i) => [`xl/worksheets/sheet${i + 1}.xml`, `${sml}.worksheet+xml`])),
      }),
    },
    {
      name: "_rels/.rels",
      data: relationships([
        { id: "rId1", type: "officeDocument", target: "xl/workbook.xml" },
        { id: "rId2", type: CORE_RELATIONSHIP, target: "docProps/core.xml" },
      ]),
    },
    { name: "xl/workbook.xml", data: workbook },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: relationships([
        ...sheets.map((_, i) => ({ id: `rIdSheet${i + 1}`, type: "worksheet", target: `worksheets/sheet${i + 1}.xml` })),
        { id: "rIdStrings", type: "sharedStrings", target: "sharedStrings.xml" },
        { id: "rIdStyles", type: "styles", target: "/xl/styles.xml" },
      ]),
    },
    { name: "xl/sharedStrings.xml", data: sharedStrings },
    { name: "xl/styles.xml", data: styles },
    ...sheets.map((data, i): ZipEntryInput => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
    { name: "docProps/core.xml", data: coreProperties(spec.title ?? "") },
  ]);
}

export interface ZipBombSpec {
  /** What the worksheet really inflates to; default 1 GiB of spaces. */
  inflatedBytes?: number;
  /** The size its headers declare; default the truth. */
  declaredBytes?: number;
}

/** An XLSX whose worksheet is a mass of spaces (about 1 KiB compressed per MiB inflated), built without ever inflating it. */
export function buildZipBomb(spec: ZipBombSpec = {}): Uint8Array {
  const filler = deflatedFiller(spec.inflatedBytes ?? 1024 * 1024 * 1024);
  const workbook = `${XML_HEADER}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_RELATIONSHIP}"><sheets><sheet name="Bomb" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  return buildZip([
    { name: "[Content_Types].xml", data: contentTypes({ "xl/workbook.xml": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml" }) },
    { name: "_rels/.rels", data: relationships([{ id: "rId1", type: "officeDocument", target: "xl/workbook.xml" }]) },
    { name: "xl/workbook.xml", data: workbook },
    { name: "xl/_rels/workbook.xml.rels", data: relationships([{ id: "rId1", type: "worksheet", target: "worksheets/sheet1.xml" }]) },
    {
      name: "xl/worksheets/sheet1.xml",
      data: filler.data,
      deflated: { size: filler.size, crc: filler.crc },
      ...(spec.declaredBytes !== undefined && { declaredSize: spec.declaredBytes }),
    },
  ]);
}

export interface PptxSlideSpec {
  title?: string;
  /** Bullets in the body placeholder; a [text, level] pair is indented (level 0 is the top). */
  bullets?: (string | [string, number])[];
  /** A text box of plain paragraphs (no bullets). */
  text?: string[];
  /** The first row is the header. */
  table?: string[][];
  notes?: string;
  /** Pictures after the other shapes, each stored as ppt/media/<file>. */
  pictures?: { file: string; descr?: string; title?: string }[];
  /** A chart after the pictures (a bar chart part with cached categories and values). */
  chart?: PptxChartSpec;
  /** Text boxes inside a group shape (nested one group deeper from the second on), after everything else. */
  group?: string[];
  /** A SmartArt diagram whose data model holds these texts, after the group. */
  diagram?: string[];
}

export interface PptxChartSpec {
  title?: string;
  categories: string[];
  series: { name: string; values: number[] }[];
}

/** A chart part (c:chartSpace) with a bar chart of the series, categories and values as string and number caches. */
export function chartXml(chart: PptxChartSpec): string {
  const strCache = (texts: string[]) => `<c:strCache><c:ptCount val="${texts.length}"/>${texts.map((text, i) => `<c:pt idx="${i}"><c:v>${escapeXml(text)}</c:v></c:pt>`).join("")}</c:strCache>`;
  const series = chart.series.map(
    ({ name, values }, i) =>
      `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx><c:strRef><c:f>Sheet1!$${String.fromCharCode(66 + i)}$1</c:f>${strCache([name])}</c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2:$A$9</c:f>${strCache(chart.categories)}</c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B$9</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values.map((value, k) => `<c:pt idx="${k}"><c:v>${value}</c:v></c:pt>`).join("")}</c:numCache></c:numRef></c:val></c:ser>`,
  );
  const title = chart.title ? `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${escapeXml(chart.title)}</a:t></a:r></a:p></c:rich></c:tx></c:title>` : "";
  return `${XML_HEADER}<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="${DRAWING_NS}" xmlns:r="${OFFICE_RELATIONSHIP}"><c:chart>${title}<c:plotArea><c:barChart><c:barDir val="col"/>${series.join("")}</c:barChart></c:plotArea></c:chart></c:chartSpace>`;
}

const DRAWING_NS = "http://schemas.openxmlformats.org/drawingml/2006/main";
const PRESENTATION_NS = "http://schemas.openxmlformats.org/presentationml/2006/main";

const drawingParagraph = (text: string, level = 0): string =>
  `<a:p>${level > 0 ? `<a:pPr lvl="${level}"/>` : ""}<a:r><a:rPr lang="en-US"/><a:t>${escapeXml(text)}</a:t></a:r></a:p>`;

function shapeXml(id: number, placeholder: string | undefined, paragraphs: string): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr>${placeholder ?? ""}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`;
}

function slideXml(slide: PptxSlideSpec): string {
  const shapes: string[] = [];
  if (slide.title) shapes.push(shapeXml(2, '<p:ph type="title"/>', drawingParagraph(slide.title)));
  if (slide.bullets) {
    const paragraphs = slide.bullets.map((bullet) => (typeof bullet === "string" ? drawingParagraph(bullet) : drawingParagraph(bullet[0], bullet[1])));
    shapes.push(shapeXml(3, '<p:ph idx="1"/>', paragraphs.join("")));
  }
  if (slide.text) shapes.push(shapeXml(4, undefined, slide.text.map((text) => drawingParagraph(text)).join("")));
  if (slide.table) {
    const rows = slide.table.map((row) => `<a:tr h="370840">${row.map((cell) => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/>${drawingParagraph(cell)}</a:txBody><a:tcPr/></a:tc>`).join("")}</a:tr>`);
    shapes.push(
      `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Table 5"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid/>${rows.join("")}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`,
    );
  }
  (slide.pictures ?? []).forEach(({ descr, title }, i) => {
    const attributes = `${descr !== undefined ? ` descr="${escapeXml(descr)}"` : ""}${title !== undefined ? ` title="${escapeXml(title)}"` : ""}`;
    shapes.push(`<p:pic><p:nvPicPr><p:cNvPr id="${10 + i}" name="Picture ${i + 1}"${attributes}/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rIdPic${i + 1}"/></p:blipFill><p:spPr/></p:pic>`);
  });
  if (slide.chart) {
    shapes.push(
      `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="30" name="Chart 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart"/></a:graphicData></a:graphic></p:graphicFrame>`,
    );
  }
  if (slide.group) {
    const [first = "", ...rest] = slide.group;
    const group = (inner: string) => `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="40" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${inner}</p:grpSp>`;
    shapes.push(group(shapeXml(41, undefined, drawingParagraph(first)) + (rest.length > 0 ? group(rest.map((text, i) => shapeXml(42 + i, undefined, drawingParagraph(text))).join("")) : "")));
  }
  if (slide.diagram) {
    shapes.push(
      `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="50" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></p:graphicFrame>`,
    );
  }
  return `${XML_HEADER}<p:sld xmlns:a="${DRAWING_NS}" xmlns:p="${PRESENTATION_NS}" xmlns:r="${OFFICE_RELATIONSHIP}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes.join("")}</p:spTree></p:cSld></p:sld>`;
}

function notesXml(notes: string): string {
  const image = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>`;
  const body = shapeXml(3, '<p:ph type="body" idx="1"/>', notes.split("\n").map((line) => drawingParagraph(line)).join(""));
  const number = shapeXml(4, '<p:ph type="sldNum" idx="5"/>', drawingParagraph("1"));
  return `${XML_HEADER}<p:notes xmlns:a="${DRAWING_NS}" xmlns:p="${PRESENTATION_NS}" xmlns:r="${OFFICE_RELATIONSHIP}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${image}${body}${number}</p:spTree></p:cSld></p:notes>`;
}

/**
 * A PowerPoint presentation. Slide files are numbered in reverse (the first slide is the last file), so
 * only presentation.xml and its relationships give the order.
 */
export function buildPptx(spec: { title?: string; slides: PptxSlideSpec[] }): Uint8Array {
  const count = spec.slides.length;
  const fileOf = (i: number) => `slide${count - i}.xml`;
  const entries: ZipEntryInput[] = [];
  spec.slides.forEach((slide, i) => {
    entries.push({ name: `ppt/slides/${fileOf(i)}`, data: slideXml(slide) });
    const related: RelationshipInput[] = [];
    if (slide.notes !== undefined) {
      entries.push({ name: `ppt/notesSlides/notesSlide${i + 1}.xml`, data: notesXml(slide.notes) });
      related.push({ id: "rId2", type: "notesSlide", target: `../notesSlides/notesSlide${i + 1}.xml` });
    }
    (slide.pictures ?? []).forEach(({ file }, k) => {
      entries.push({ name: `ppt/media/${file}`, data: greyPng(2, 2) });
      related.push({ id: `rIdPic${k + 1}`, type: "image", target: `../media/${file}` });
    });
    if (slide.chart) {
      entries.push({ name: `ppt/charts/chart${i + 1}.xml`, data: chartXml(slide.chart) });
      related.push({ id: "rIdChart", type: "chart", target: `../charts/chart${i + 1}.xml` });
    }
    if (slide.diagram) {
      const points = slide.diagram.map((text, k) => `<dgm:pt modelId="{${k + 1}}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/>${drawingParagraph(text)}</dgm:t></dgm:pt>`);
      const data = `${XML_HEADER}<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="${DRAWING_NS}"><dgm:ptLst><dgm:pt modelId="{0}" type="doc"><dgm:prSet/><dgm:spPr/></dgm:pt>${points.join("")}</dgm:ptLst><dgm:cxnLst/></dgm:dataModel>`;
      entries.push({ name: `ppt/diagrams/data${i + 1}.xml`, data });
      related.push({ id: "rIdDm", type: "diagramData", target: `../diagrams/data${i + 1}.xml` });
    }
    if (related.length > 0) entries.push({ name: `ppt/slides/_rels/${fileOf(i)}.rels`, data: relationships(related) });
  });
  const slideIds = spec.slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rIdSlide${i + 1}"/>`);
  const presentation = `${XML_HEADER}<p:presentation xmlns:a="${DRAWING_NS}" xmlns:p="${PRESENTATION_NS}" xmlns:r="${OFFICE_RELATIONSHIP}"><p:sldIdLst>${slideIds.join("")}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`;
  const pml = "application/vnd.openxmlformats-officedocument.presentationml";
  return buildZip([
    {
      name: "[Content_Types].xml",
      data: contentTypes({
        "ppt/presentation.xml": `${pml}.presentation.main+xml`,
        "docProps/core.xml": CORE_TYPE,
        ...Object.fromEntries(spec.slides.map((_, i) => [`ppt/slides/${fileOf(i)}`, `${pml}.slide+xml`])),
      }),
    },
    {
      name: "_rels/.rels",
      data: relationships([
        { id: "rId1", type: "officeDocument", target: "ppt/presentation.xml" },
        { id: "rId2", type: CORE_RELATIONSHIP, target: "docProps/core.xml" },
      ]),
    },
    { name: "ppt/presentation.xml", data: presentation },
    {
      name: "ppt/_rels/presentation.xml.rels",
      data: relationships(spec.slides.map((_, i) => ({ id: `rIdSlide${i + 1}`, type: "slide", target: `slides/${fileOf(i)}` }))),
    },
    ...entries,
    { name: "docProps/core.xml", data: coreProperties(spec.title ?? "") },
  ]);
}

/** An ODS cell: text, a number, a typed value with the text it shows, a run of repeated copies, or empty. */
export type OdsCell =
  | string
  | number
  | null
  | { value: string; type: "float" | "percentage" | "date" | "boolean"; text?: string }
  | { repeat: number; cell: OdsCell }
  /** A cell merged over columns × rows, and the cells it covers. */
  | { merged: string; columns: number; rows: number }
  | { covered: number };

/** An ODS row, or one repeated (table:number-rows-repeated). */
export type OdsRow = OdsCell[] | { repeat: number; cells: OdsCell[] };

export interface OdsSpec {
  title?: string;
  /** Each sheet ends, as LibreOffice writes it, with a million-row run of empty rows 1,024 cells wide. */
  sheets: { name: string; rows: OdsRow[]; hidden?: boolean }[];
}

const ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet";

function odsCell(cell: OdsCell): string {
  if (cell === null) return "<table:table-cell/>";
  if (typeof cell === "string") return `<table:table-cell office:value-type="string"><text:p>${escapeXml(cell)}</text:p></table:table-cell>`;
  if (typeof cell === "number") return `<table:table-cell office:value-type="float" office:value="${cell}"><text:p>${cell}</text:p></table:table-cell>`;
  if ("repeat" in cell) return odsCell(cell.cell).replace("<table:table-cell", `<table:table-cell table:number-columns-repeated="${cell.repeat}"`);
  if ("merged" in cell) {
    return `<table:table-cell table:number-columns-spanned="${cell.columns}" table:number-rows-spanned="${cell.rows}" office:value-type="string"><text:p>${escapeXml(cell.merged)}</text:p></table:table-cell>`;
  }
  if ("covered" in cell) return `<table:covered-table-cell${cell.covered > 1 ? ` table:number-columns-repeated="${cell.covered}"` : ""}/>`;
  const attribute = cell.type === "date" ? "date-value" : cell.type === "boolean" ? "boolean-value" : "value";
  const text = cell.text === undefined ? "" : `<text:p>${escapeXml(cell.text)}</text:p>`;
  return `<table:table-cell office:value-type="${cell.type}" office:${attribute}="${escapeXml(cell.value)}">${text}</table:table-cell>`;
}

/** An OpenDocument spreadsheet: the stored mimetype entry first, content.xml with the sheets, meta.xml with the title. */
export function buildOds(spec: OdsSpec): Uint8Array {
  const tables = spec.sheets.map(({ name, rows, hidden }) => {
    const rowsXml = rows.map((row) => {
      const [cells, repeat] = Array.isArray(row) ? [row, 1] : [row.cells, row.repeat];
      return `<table:table-row${repeat > 1 ? ` table:number-rows-repeated="${repeat}"` : ""}>${cells.map(odsCell).join("")}<table:table-cell table:number-columns-repeated="1000"/></table:table-row>`;
    });
    const tail = '<table:table-row table:number-rows-repeated="1048500"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>';
    return `<table:table table:name="${escapeXml(name)}"${hidden ? ' table:style-name="taHidden"' : ""}><table:table-column table:number-columns-repeated="1024"/>${rowsXml.join("")}${tail}</table:table>`;
  });
  const namespaces =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"';
  const content = `${XML_HEADER}<office:document-content ${namespaces} office:version="1.3"><office:automatic-styles><style:style style:name="taHidden" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles><office:body><office:spreadsheet>${tables.join("")}</office:spreadsheet></office:body></office:document-content>`;
  const meta = `${XML_HEADER}<office:document-meta ${namespaces} office:version="1.3"><office:meta>${spec.title ? `<dc:title>${escapeXml(spec.title)}</dc:title>` : ""}</office:meta></office:document-meta>`;
  const manifest = `${XML_HEADER}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODS_MIME}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  return buildZip([
    { name: "mimetype", data: ODS_MIME, store: true },
    { name: "content.xml", data: content },
    { name: "meta.xml", data: meta },
    { name: "META-INF/manifest.xml", data: manifest },
  ]);
}

// ── EPUB ───────────────────────────────────────────────────────────────────────────────

export interface EpubSpec {
  title?: string;
  /** Chapters' XHTML bodies, in spine order; files are stored in reverse (so only the spine gives the order). */
  chapters: string[];
}

/** An EPUB: the stored mimetype first, the container pointing at OEBPS/content.opf, a manifest and a spine. */
export function buildEpub(spec: EpubSpec): Uint8Array {
  const count = spec.chapters.length;
  const file = (i: number) => `Text/chapter ${count - i}.xhtml`;
  const items = spec.chapters.map((_, i) => `<item id="c${i + 1}" href="${encodeURI(file(i))}" media-type="application/xhtml+xml"/>`);
  const spine = spec.chapters.map((_, i) => `<itemref idref="c${i + 1}"/>`);
  const opf = `${XML_HEADER}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${spec.title ? `<dc:title>${escapeXml(spec.title)}</dc:title>` : ""}</metadata><manifest>${items.join("")}</manifest><spine>${spine.join("")}</spine></package>`;
  const container = `${XML_HEADER}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
  return buildZip([
    { name: "mimetype", data: "application/epub+zip", store: true },
    { name: "META-INF/container.xml", data: container },
    { name: "OEBPS/content.opf", data: opf },
    ...spec.chapters.map((body, i): ZipEntryInput => ({
      name: `OEBPS/${file(i)}`,
      data: `${XML_HEADER}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title></head><body>${body}</body></html>`,
    })),
  ]);
}

// ── Options ────────────────────────────────────────────────────────────────────────────

/** Conversion limits as a deployment might set them (deadline 20 s from now), with overrides. */
export function documentOptions(overrides: Partial<ConvertOptions> = {}): ConvertOptions {
  return { maxContentChars: 1_000_000, maxPages: 500, maxRows: 1000, deadlineMs: Date.now() + 20_000, maxUnzippedBytes: 100 * 1024 * 1024, ...overrides };
}
