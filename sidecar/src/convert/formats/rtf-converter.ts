import { fail, ok, withoutTrailing } from "@edge-web/shared";
import { markdownTable } from "../../extract/markdown-table.ts";
import { escapeInline, escapeLineStart } from "../../extract/markdown-syntax.ts";
import { hasSignature } from "../../sniff/has-signature.ts";
import { SIGNATURES } from "../../sniff/signatures.ts";
import type { BytesConverter } from "./document-converter.ts";

const MIME = "application/rtf";

/**
 * Destinations whose text is not the document's: tables of fonts, colours and styles, document
 * properties, pictures and embedded objects, headers and footers, field instructions (their result is
 * kept), and every destination marked ignorable (`\*`) that is not listed as read.
 */
const SKIPPED = new Set([
  "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "objdata", "header", "headerl", "headerr", "headerf",
  "footer", "footerl", "footerr", "footerf", "fldinst", "themedata", "colorschememapping", "latentstyles", "datastore",
  "xmlnstbl", "listtable", "listoverridetable", "rsidtbl", "generator", "revtbl", "filetbl", "pgdsctbl", "bkmkstart",
  "bkmkend", "xe", "tc", "nonshppict", "shppict", "mmathPr", "wgrffmtfilter", "pnseclvl", "shprslt",
]);
/**
 * Destinations that hold the document's text even inside a skipped one: a text box's text, which
 * Word writes inside its ignorable shape instruction (`{\*\shpinst … {\shptxt …}}`; the shape's
 * fallback drawing, `\shprslt`, repeats it and is skipped).
 */
const READ_IGNORABLE = new Set(["shptxt"]);

/** Real documents nest groups a few dozen deep. */
const MAX_DEPTH = 1_000;

/** Control words that stand for one character. */
const NAMED_CHARACTERS = new Map([
  ["emdash", "\u2014"],
  ["endash", "\u2013"],
  ["bullet", "\u2022"],
  ["lquote", "\u2018"],
  ["rquote", "\u2019"],
  ["ldblquote", "\u201c"],
  ["rdblquote", "\u201d"],
  ["emspace", "\u2003"],
  ["enspace", "\u2002"],
]);

/** Windows code pages (\ansicpg) by the label TextDecoder knows them by. */
const CODE_PAGES: Record<number, string> = { 874: "windows-874", 932: "shift_jis", 936: "gbk", 949: "euc-kr", 950: "big5", 10000: "macintosh", 65001: "utf-8" };
const decoderFor = (codePage: number): InstanceType<typeof TextDecoder> => {
  const label = CODE_PAGES[codePage] ?? (codePage >= 1250 && codePage <= 1258 ? `windows-${codePage}` : "windows-1252");
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder("windows-1252");
  }
};

interface State {
  /** The group's text is not the document's. */
  skip: boolean;
  /** Characters to drop after a \u (its \uc fallback). */
  uc: number;
  bold: boolean;
  italic: boolean;
  /** \outlinelevelN: the paragraph is a heading of level N + 1. */
  outline: number | undefined;
  /** Inside a \listtext or \pntext group: the list's bullet or number. */
  marker: boolean;
  /** \v: hidden text. */
  hidden: boolean;
}

interface Paragraph {
  text: string;
  outline: number | undefined;
  marker: string;
}

/** Reads RTF into paragraphs and tables, in order. */
class RtfReader {
  private readonly source: string;
  private position = 0;
  private decoder = decoderFor(1252);
  private readonly stack: State[] = [];
  /** Groups opened past MAX_DEPTH and not yet closed. */
  private deeper = 0;
  private state: State = { skip: false, uc: 1, bold: false, italic: false, outline: undefined, marker: false, hidden: false };
  /** Bytes of \'hh escapes not yet decoded (a double-byte character comes as two). */
  private bytes: number[] = [];
  private run = "";
  private runStyle = "";
  private paragraph: Paragraph = { text: "", outline: undefined, marker: "" };
  private cells: string[] = [];
  private row: string[] = [];
  private rows: string[][] = [];
  private inTable = false;
  readonly blocks: Array<{ paragraph: Paragraph } | { table: string[][] }> = [];

  constructor(source: string) {
    this.source = source;
  }

  read(stopMs: number): boolean {
    const { source } = this;
    let steps = 0;
    while (this.position < source.length) {
      if (++steps % 4096 === 0 && Date.now() >= stopMs) return false;
      const char = source[this.position++] as string;
      if (char === "{") {
        this.flushBytes();
        // Groups nested past any real document's depth share their parent's state: memory stays bounded.
        if (this.stack.length >= MAX_DEPTH) this.deeper++;
        else {
          this.stack.push(this.state);
          this.state = { ...this.state, marker: false };
        }
      } else if (char === "}") {
        this.flushBytes();
        this.closeRun();
        if (this.deeper > 0) this.deeper--;
        else this.state = this.stack.pop() ?? this.state;
      } else if (char === "\\") this.control();
      else if (char === "\r" || char === "\n") continue;
      else this.text(char);
    }
    this.flushBytes();
    this.endParagraph();
    this.endTable();
    return true;
  }

  private control(): void {
    const { source } = this;
    const next = source[this.position] ?? "";
    if (!/[a-zA-Z]/.test(next)) {
      this.position++;
      if (next === "'") {
        const hex = source.slice(this.position, this.position + 2);
        this.position += 2;
        if (/^[0-9a-fA-F]{2}$/.test(hex) && !this.state.skip && !this.state.hidden) this.bytes.push(Number.parseInt(hex, 16));
        return;
      }
      if (next === "*") {
        // An ignorable destination is skipped; one whose text is read (READ_IGNORABLE) says so with its own word next.
        this.state.skip = true;
        return;
      }
      if (next === "~") this.text("\u00a0");
      else if (next === "_") this.text("\u2011");
      else if (next === "\\" || next === "{" || next === "}") this.text(next);
      else if (next === "\n" || next === "\r") this.endParagraph();
      return;
    }
    const match = /^([a-zA-Z]+)(-?\d+)? ?/.exec(source.slice(this.position, this.position + 40)) as RegExpExecArray;
    this.position += match[0].length;
    const word = match[1] as string;
    const value = match[2] === undefined ? undefined : Number(match[2]);
    this.flushBytes();
    if (READ_IGNORABLE.has(word)) {
      this.state.skip = false;
      return;
    }
    if (SKIPPED.has(word)) {
      this.state.skip = true;
      return;
    }
    const named = NAMED_CHARACTERS.get(word);
    if (named !== undefined) {
      this.text(named);
      return;
    }
    switch (word) {
      case "ansicpg":
        this.decoder = decoderFor(value ?? 1252);
        return;
      case "uc":
        this.state.uc = value ?? 1;
        return;
      case "u": {
        const code = (value ?? 0) < 0 ? (value as number) + 65536 : (value ?? 0);
        this.text(String.fromCharCode(code));
        this.skipFallback(this.state.uc);
        return;
      }
      case "par":
      case "sect":
      case "page":
        this.endParagraph();
        return;
      case "line":
        this.text("\n");
        return;
      case "tab":
        this.text(this.state.marker ? " " : "\t");
        return;
      case "b":
        this.closeRun();
        this.state.bold = value !== 0;
        return;
      case "i":
        this.closeRun();
        this.state.italic = value !== 0;
        return;
      case "plain":
        this.closeRun();
        this.state.bold = this.state.italic = false;
        return;
      case "pard":
        this.closeRun();
        this.paragraph.outline = undefined;
        this.state.outline = undefined;
        this.inTable = false;
        return;
      case "outlinelevel":
        this.state.outline = value;
        return;
      case "listtext":
      case "pntext":
        this.state.marker = true;
        return;
      case "v":
        this.state.hidden = value !== 0;
        return;
      case "bin":
        // Raw binary data of that many bytes follows.
        this.position += Math.max(0, value ?? 0);
        return;
      case "intbl":
        this.inTable = true;
        return;
      case "cell":
        this.endCell();
        return;
      case "row":
        // Text after the last \cell (writers that close rows without it) is a last cell.
        this.closeRun();
        if (this.paragraph.text.trim()) this.endCell();
        if (this.row.some((cell) => cell !== "")) this.rows.push(this.row);
        this.row = [];
        return;
      default:
    }
  }

  /** After \u, its fallback for readers without Unicode: `count` characters, an escape or a character each. */
  private skipFallback(count: number): void {
    for (let left = count; left > 0 && this.position < this.source.length; left--) {
      const char = this.source[this.position];
      if (char === "{" || char === "}") return;
      if (char === "\\") {
        if (this.source[this.position + 1] === "'") this.position += 4;
        else return; // a control word is not part of the fallback
      } else this.position++;
    }
  }

  private flushBytes(): void {
    if (this.bytes.length === 0) return;
    const decoded = this.decoder.decode(new Uint8Array(this.bytes));
    this.bytes = [];
    this.append(decoded);
  }

  /** Text after any escaped bytes still waiting to be decoded. */
  private text(text: string): void {
    this.flushBytes();
    this.append(text);
  }

  private append(text: string): void {
    if (this.state.skip || this.state.hidden) return;
    if (this.state.marker) {
      this.paragraph.marker += text;
      return;
    }
    // As the page renderer writes emphasis: ** bold, * italic, *** both.
    const style = (this.state.bold ? "**" : "") + (this.state.italic ? "*" : "");
    if (style !== this.runStyle) this.closeRun();
    this.runStyle = style;
    this.run += text;
    if (this.state.outline !== undefined) this.paragraph.outline = this.state.outline;
  }

  /** The text set in one style, emphasised when it is bold or italic (spaces kept outside the marks). */
  private closeRun(): void {
    const { run, runStyle } = this;
    this.run = "";
    if (!run) return;
    const escaped = escapeInline(run.replace(/[\t ]+/g, " "));
    if (!runStyle || !escaped.trim()) {
      this.paragraph.text += escaped;
      return;
    }
    // trimStart/trimEnd, not a pattern at the end (\s*$), which reads each space run from every space in it.
    const start = escaped.length - escaped.trimStart().length;
    const end = escaped.trimEnd().length;
    this.paragraph.text += `${escaped.slice(0, start)}${runStyle}${escaped.slice(start, end)}${runStyle}${escaped.slice(end)}`;
  }

  private endCell(): void {
    this.closeRun();
    this.row.push(this.paragraph.text.replace(/\s+/g, " ").trim());
    this.paragraph = { text: "", outline: undefined, marker: "" };
  }

  private endParagraph(): void {
    this.closeRun();
    const paragraph = this.paragraph;
    this.paragraph = { text: "", outline: undefined, marker: "" };
    if (this.inTable) {
      // A paragraph inside a cell: the cell's text goes on.
      this.paragraph.text = paragraph.text ? `${paragraph.text} ` : "";
      return;
    }
    this.endTable();
    if (paragraph.text.trim() || paragraph.marker.trim()) this.blocks.push({ paragraph });
  }

  private endTable(): void {
    if (this.rows.length > 0) this.blocks.push({ table: this.rows });
    this.rows = [];
  }
}

/** A list marker as Markdown: numbers ("1.", "a)") stay, any bullet symbol becomes "-". */
function listMarker(marker: string): string {
  const trimmed = marker.trim();
  if (!trimmed) return "";
  return /^[\dA-Za-z]{1,4}[.)]$/.test(trimmed) ? `${trimmed} ` : "- ";
}

/**
 * A line without the spaces at its ends, cut by hand: a pattern for spaces around a line break reads each space run
 * from every space in it.
 */
function withoutEdgeSpaces(line: string): string {
  return withoutTrailing(line.replace(/^ +/, ""), " ");
}

/**
 * RTF documents (Word, WordPad, TextEdit): paragraphs, bold and italic, headings from outline levels,
 * lists from their bullet and number text, tables from their rows and cells, and every character in its
 * code page or Unicode; fonts, colours, styles, pictures, headers, footers and document properties are not
 * text.
 */
export const rtfConverter: BytesConverter = {
  reads: "bytes",
  format: "RTF",
  mimes: [MIME, "text/rtf"],
  extensions: ["rtf"],
  matches: (bytes) => hasSignature(bytes, SIGNATURES.rtf),
  async convert(bytes, options) {
    const reader = new RtfReader(new TextDecoder("latin1").decode(bytes));
    const complete = reader.read(options.stopMs);
    let content = "";
    let listed = false;
    for (const block of reader.blocks) {
      let part: string;
      let item = false;
      if ("table" in block) {
        part = markdownTable(block.table);
      } else {
        const { text, outline, marker } = block.paragraph;
        const line = text.split("\n").map(withoutEdgeSpaces).join("\n").trim();
        item = listMarker(marker) !== "";
        // A heading set in bold (or italic) throughout needs no emphasis of its own.
        const heading = () => line.replace(/\n/g, " ").replace(/^(\*{1,3})([^*].*[^*]|[^*])\1$/, "$2");
        part = outline !== undefined && outline >= 0 && outline < 6 && !item ? `${"#".repeat(outline + 1)} ${heading()}` : `${listMarker(marker)}${escapeLineStart(line)}`;
      }
      // A list's items follow one another line by line.
      content += content === "" ? part : `${listed && item ? "\n" : "\n\n"}${part}`;
      listed = item;
    }
    if (!content && !complete) return fail("CONVERT_TIMEOUT", "The RTF document could not be read before the conversion deadline.");
    return ok({ provider: "rtf", contentType: MIME, content, truncated: !complete });
  },
};
