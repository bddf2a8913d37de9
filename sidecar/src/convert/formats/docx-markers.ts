import type { Element } from "domhandler";
import { Parser } from "htmlparser2";
import { escapeInline } from "../../extract/markdown-syntax.ts";
import { parseXml } from "../../extract/parse-xml.ts";
import { descendantElements } from "./descendant-elements.ts";
import { localName } from "./local-name.ts";
import { chartMarkdown } from "./ooxml-chart.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { linearMathText, ommlToLatex } from "./omml-latex.ts";
import type { Relationship } from "./ooxml-relationships.ts";
import { type ImageMode, packageImageMarkdown } from "./package-image.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";
import type { ZipArchive } from "./zip-archive.ts";

/**
 * What mammoth drops from a Word document (pictures' names, charts, equations, comment anchors) is written by us
 * instead: before mammoth reads word/document.xml, each such element is replaced by a run of marker text, a
 * private-use character pair around a number, which passes through mammoth's HTML and the Markdown renderer
 * unchanged; the markers are then replaced by the Markdown made here.
 */

export interface MarkerOptions {
  relationships: ReadonlyMap<string, Relationship>;
  archive: ZipArchive;
  images: ImageMode;
  /** Comment ids whose anchors get a footnote reference; none without the comments option. */
  comments?: ReadonlySet<string>;
}

export interface MarkedDocument {
  xml: string;
  /** Replaces the markers in the rendered Markdown. */
  fill(markdown: string): string;
  /** Comment ids in the order their references were met. */
  commentOrder: string[];
}

/** Elements mammoth leaves out or cannot name: pictures, equations and comment references. */
const MARKED = new Set(["drawing", "pict", "oMathPara", "oMath", "commentReference"]);

/** First private-use pair not in the document, so a marker can never be confused with its text. */
function markerPair(xml: string): [string, string] | undefined {
  for (let code = 0xe000; code < 0xe0ff; code += 2) {
    const open = String.fromCharCode(code);
    const close = String.fromCharCode(code + 1);
    if (!xml.includes(open) && !xml.includes(close)) return [open, close];
  }
  return undefined;
}

/** The picture's alt text and relationship: wp:docPr's descr (or title) and the first a:blip; v:imagedata in VML. */
function pictureOf(element: Element, relationships: ReadonlyMap<string, Relationship>): { alt: string; relationship?: Relationship } | undefined {
  const [blip] = descendantElements(element, "blip");
  if (blip) {
    const id = prefixedAttribute(blip.attribs, "embed") ?? prefixedAttribute(blip.attribs, "link") ?? "";
    const [properties] = descendantElements(element, "docPr");
    const alt = properties?.attribs.descr?.trim() || properties?.attribs.title?.trim() || "";
    const relationship = relationships.get(id);
    return { alt, ...(relationship && { relationship }) };
  }
  const [imageData] = descendantElements(element, "imagedata");
  if (!imageData || descendantElements(element, "textbox").length > 0) return undefined;
  const relationship = relationships.get(prefixedAttribute(imageData.attribs, "id") ?? "");
  const [shape] = descendantElements(element, "shape");
  const alt = prefixedAttribute(imageData.attribs, "title")?.trim() || shape?.attribs.alt?.trim() || "";
  return { alt, ...(relationship && { relationship }) };
}

/** A chart drawn in the text (c:chart): its title and cached data, set apart as blocks; undefined for other drawings. */
function chartOf(element: Element, options: MarkerOptions): string | undefined {
  const [chart] = descendantElements(element, "chart");
  const relationship = chart && options.relationships.get(prefixedAttribute(chart.attribs, "id") ?? "");
  if (!relationship || relationship.external) return undefined;
  const part = readXmlPart(options.archive, relationship.target);
  const markdown = part.ok && part.value ? chartMarkdown(part.value) : "";
  return markdown ? `\n\n${markdown}\n\n` : undefined;
}

/** An equation as LaTeX between $ (inline) or $$ (its own paragraph); its plain text when no LaTeX comes of it. */
function equationMarkdown(element: Element): string {
  let latex = "";
  try {
    latex = ommlToLatex(element);
  } catch {
    // An equation broken in a way the converter does not expect still has its text.
  }
  if (!latex) return escapeInline(linearMathText(element));
  return localName(element.name) === "oMathPara" ? `$$${latex}$$` : `$${latex}$`;
}

/** Marks word/document.xml; undefined when it holds nothing to mark (the document converts exactly as mammoth reads it). */
export function markDocument(xml: string, options: MarkerOptions): MarkedDocument | undefined {
  if (!/<(?:[\w.-]+:)?(?:drawing|pict|oMath|commentReference)\b/.test(xml)) return undefined;
  const pair = markerPair(xml);
  if (!pair) return undefined;
  const [open, close] = pair;
  const replacements: string[] = [];
  const commentOrder: string[] = [];
  const pieces: string[] = [];
  let copied = 0;
  let wordPrefix = "w:";
  let capture: { start: number; depth: number; name: string } | undefined;
  let depth = 0;

  const mark = (start: number, end: number, name: string): void => {
    const fragment = parseXml(xml.slice(start, end)).children.find((node): node is Element => node.type === "tag");
    if (!fragment) return;
    let markdown: string | undefined;
    let inRun = true;
    switch (name) {
      case "drawing":
      case "pict": {
        const picture = pictureOf(fragment, options.relationships);
        if (picture) markdown = packageImageMarkdown(picture.alt, picture.relationship, options.archive, options.images);
        else markdown = chartOf(fragment, options);
        break;
      }
      case "commentReference": {
        const id = prefixedAttribute(fragment.attribs, "id") ?? "";
        if (options.comments?.has(id)) {
          if (!commentOrder.includes(id)) commentOrder.push(id);
          markdown = `[^c${commentOrder.indexOf(id) + 1}]`;
        }
        break;
      }
      default:
        inRun = false;
        markdown = equationMarkdown(fragment);
    }
    if (markdown === undefined) return;
    const text = `<${wordPrefix}t xml:space="preserve">${open}${replacements.length}${close}</${wordPrefix}t>`;
    replacements.push(markdown);
    pieces.push(xml.slice(copied, start), inRun ? text : `<${wordPrefix}r>${text}</${wordPrefix}r>`);
    copied = end;
  };

  const parser: Parser = new Parser(
    {
      onopentag(name) {
        depth++;
        const local = localName(name);
        if (local === "document" || local === "body") wordPrefix = name.slice(0, name.length - local.length);
        if (!capture && MARKED.has(local)) capture = { start: parser.startIndex, depth, name: local };
      },
      onclosetag() {
        if (capture && capture.depth === depth) {
          mark(capture.start, parser.endIndex + 1, capture.name);
          capture = undefined;
        }
        depth--;
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  if (replacements.length === 0) return undefined;
  pieces.push(xml.slice(copied));
  const pattern = new RegExp(`${open}(\\d+)${close}`, "g");
  return {
    xml: pieces.join(""),
    fill: (markdown) => markdown.replace(pattern, (_, index: string) => replacements[Number(index)] ?? ""),
    commentOrder,
  };
}
