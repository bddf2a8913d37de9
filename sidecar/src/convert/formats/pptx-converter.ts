import type { Document, Element } from "domhandler";
import { fail, ok, type Result } from "@edge-web/shared";
import { isElement, textContent, walk } from "../../extract/dom.ts";
import { escapeInline, escapeLineStart } from "../../extract/markdown-syntax.ts";
import { markdownTable } from "../../extract/markdown-table.ts";
import { oneLine } from "../../extract/whitespace.ts";
import type { ArchiveConverter } from "./document-converter.ts";
import { chartMarkdown } from "./ooxml-chart.ts";
import { type Relationship, readRelationships } from "./ooxml-relationships.ts";
import { type ImageMode, packageImageMarkdown } from "./package-image.ts";
import { readCoreTitle } from "./ooxml-title.ts";
import { pagesToRead } from "./pages-to-read.ts";
import { readXmlPart } from "./read-xml-part.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";
import { localName } from "./local-name.ts";
import { prefixedAttribute } from "./prefixed-attribute.ts";
import type { ZipArchive, ZipCode } from "./zip-archive.ts";

const MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const PRESENTATION = "ppt/presentation.xml";

/** Placeholders whose paragraphs are bullets unless they say otherwise (the slide master's body style). */
const BULLETED_PLACEHOLDERS = new Set(["body", "obj"]);
const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);

interface Paragraph {
  text: string;
  level: number;
  bullet: boolean;
}

/** The placeholder type of a shape: "title", "body" …; "obj" for an untyped placeholder, undefined for a plain shape. */
function placeholderType(shape: Element): string | undefined {
  const [placeholder] = descendantElements(childElements(shape, "nvSpPr")[0] ?? shape, "ph");
  return placeholder && (placeholder.attribs.type ?? "obj");
}

/** A text body's paragraphs (a:p), with the level and bullet each has. */
function paragraphs(body: Element, bulleted: boolean): Paragraph[] {
  return childElements(body, "p").flatMap((paragraph) => {
    const parts: string[] = [];
    walk(paragraph, (node) => {
      if (!isElement(node)) return false;
      const name = localName(node.name);
      if (name === "t") parts.push(textContent(node));
      else if (name === "br") parts.push(" ");
      return name !== "t" && name !== "pPr";
    });
    const text = oneLine(parts.join(""));
    if (!text) return [];
    const [properties] = childElements(paragraph, "pPr");
    const level = Math.min(Number(properties?.attribs.lvl ?? 0) || 0, 8);
    const has = (name: string): boolean => properties !== undefined && childElements(properties, name).length > 0;
    return [{ text, level, bullet: !has("buNone") && (bulleted || level > 0 || has("buChar") || has("buAutoNum")) }];
  });
}

/** Paragraphs as Markdown: bullets indented by level into a list, other paragraphs as blocks. */
function paragraphsMarkdown(items: readonly Paragraph[]): string[] {
  const blocks: string[] = [];
  let list: string[] = [];
  for (const { text, level, bullet } of items) {
    const escaped = escapeInline(text);
    if (bullet) {
      list.push(`${"  ".repeat(level)}- ${escaped}`);
      continue;
    }
    if (list.length > 0) blocks.push(list.join("\n"));
    list = [];
    blocks.push(escapeLineStart(escaped));
  }
  if (list.length > 0) blocks.push(list.join("\n"));
  return blocks;
}

function tableMarkdown(table: Element): string {
  const rows = childElements(table, "tr").map((row) =>
    childElements(row, "tc").map((cell) => {
      const [body] = childElements(cell, "txBody");
      return escapeInline((body ? paragraphs(body, false) : []).map(({ text }) => text).join("\n"));
    }),
  );
  return markdownTable(rows);
}

/** What a slide's pictures and charts are read with: its relationships and the package. */
interface SlideParts {
  archive: ZipArchive;
  relationships: ReadonlyMap<string, Relationship>;
  images: ImageMode;
}

/** A picture (p:pic) as `![alt](name)`: alt text from its cNvPr (descr, else title), the file through its a:blip. */
function pictureMarkdown(picture: Element, parts: SlideParts): string {
  const [properties] = descendantElements(picture, "cNvPr");
  const alt = properties?.attribs.descr?.trim() || properties?.attribs.title?.trim() || "";
  const [blip] = descendantElements(picture, "blip");
  const id = blip ? (prefixedAttribute(blip.attribs, "embed") ?? prefixedAttribute(blip.attribs, "link") ?? "") : "";
  return packageImageMarkdown(alt, parts.relationships.get(id), parts.archive, parts.images);
}

/**
 * A SmartArt diagram's text: the points of its data model (dgm:pt) that hold text, as a list in the model's
 * order (the drawing the diagram makes of them is not read).
 */
function diagramMarkdown(data: Document): string {
  const items = descendantElements(data, "pt").flatMap((point) => {
    const [body] = childElements(point, "t");
    return body ? paragraphs(body, true) : [];
  });
  return paragraphsMarkdown(items).join("\n\n");
}

/** A graphic frame's tables, charts (the chart's title and cached data) and SmartArt diagrams (their text). */
function frameBlocks(frame: Element, parts: SlideParts): Result<string[], ZipCode> {
  const blocks = descendantElements(frame, "tbl").map(tableMarkdown);
  for (const diagram of descendantElements(frame, "relIds")) {
    const relationship = parts.relationships.get(prefixedAttribute(diagram.attribs, "dm") ?? "");
    if (!relationship || relationship.external) continue;
    const part = readXmlPart(parts.archive, relationship.target);
    if (!part.ok) return part;
    if (part.value) blocks.push(diagramMarkdown(part.value));
  }
  for (const chart of descendantElements(frame, "chart")) {
    const relationship = parts.relationships.get(prefixedAttribute(chart.attribs, "id") ?? "");
    if (!relationship || relationship.external) continue;
    const part = readXmlPart(parts.archive, relationship.target);
    if (!part.ok) return part;
    if (part.value) blocks.push(chartMarkdown(part.value));
  }
  return ok(blocks);
}

/** A slide's title and its content blocks. */
interface SlideShapes {
  title?: string;
  blocks: string[];
}

/**
 * A slide's title and its content blocks (shapes' text, pictures, tables and charts), in the order the slide lists
 * its shapes; grouped shapes are read in place, in their group's order.
 */
function readShapes(slide: Document, parts: SlideParts): Result<SlideShapes, ZipCode> {
  let title: string | undefined;
  const blocks: string[] = [];
  let failed: Result<never, ZipCode> | undefined;
  walk(slide, (node) => {
    if (!isElement(node) || failed) return false;
    switch (localName(node.name)) {
      // Alternate content repeats its shapes for older readers.
      case "Fallback":
        return false;
      case "pic":
        blocks.push(pictureMarkdown(node, parts));
        return false;
      case "graphicFrame": {
        const frame = frameBlocks(node, parts);
        if (frame.ok) blocks.push(...frame.value);
        else failed = frame;
        return false;
      }
      case "sp": {
        const type = placeholderType(node);
        const [body] = childElements(node, "txBody");
        const items = body ? paragraphs(body, BULLETED_PLACEHOLDERS.has(type ?? "")) : [];
        if (type && TITLE_PLACEHOLDERS.has(type) && title === undefined) title = items.map(({ text }) => text).join(" ");
        else blocks.push(...paragraphsMarkdown(items));
        return false;
      }
      default:
        return true;
    }
  });
  if (failed) return failed;
  return ok({ ...(title && { title }), blocks: blocks.filter(Boolean) });
}

/** The speaker notes' text: the body placeholder of the slide's notes page (the rest is the slide image and page number). */
function readNotes(notes: Document): string[] {
  const blocks: string[] = [];
  for (const shape of descendantElements(notes, "sp")) {
    const [body] = childElements(shape, "txBody");
    if (body && placeholderType(shape) === "body") blocks.push(...paragraphsMarkdown(paragraphs(body, false)));
  }
  return blocks;
}

function slideMarkdown(archive: ZipArchive, part: string, number: number, images: ImageMode): Result<string, ZipCode> {
  const slide = readXmlPart(archive, part);
  if (!slide.ok) return slide;
  const relationships = readRelationships(archive, part);
  if (!relationships.ok) return relationships;
  const shapes: Result<SlideShapes, ZipCode> = slide.value ? readShapes(slide.value, { archive, relationships: relationships.value, images }) : ok({ blocks: [] });
  if (!shapes.ok) return shapes;
  const { title, blocks } = shapes.value;
  const notesPart = [...relationships.value.values()].find(({ type, external }) => type === "notesSlide" && !external)?.target;
  const notes = notesPart ? readXmlPart(archive, notesPart) : ok(undefined);
  if (!notes.ok) return notes;
  const notesBlocks = notes.value ? readNotes(notes.value) : [];
  const heading = `## Slide ${number}${title ? `: ${escapeInline(title)}` : ""}`;
  return ok([heading, ...blocks, ...(notesBlocks.length > 0 ? ["### Notes", ...notesBlocks] : [])].join("\n\n"));
}

/**
 * PowerPoint presentations, read directly: slides in the presentation's order, each a "## Slide N: title"
 * section with its shapes' text (bullets by level), pictures, tables, charts (title and data), SmartArt text, and
 * speaker notes under "### Notes".
 */
export const pptxConverter: ArchiveConverter = {
  reads: "zip",
  format: "PPTX",
  mimes: [MIME, "application/vnd.ms-powerpoint.presentation.macroenabled.12"],
  extensions: ["pptx", "pptm"],
  matches: (archive) => archive.has(PRESENTATION),
  async convert(archive, options) {
    const presentation = readXmlPart(archive, PRESENTATION);
    if (!presentation.ok) return presentation;
    if (!presentation.value) return fail("CONVERT_FAILED", `The presentation has no ${PRESENTATION}; it is not a PowerPoint file.`);
    const relationships = readRelationships(archive, PRESENTATION);
    if (!relationships.ok) return relationships;
    const slides = descendantElements(presentation.value, "sldId").flatMap((slide) => {
      const relationship = relationships.value.get(prefixedAttribute(slide.attribs, "id") ?? "");
      return relationship?.type === "slide" && !relationship.external ? [relationship.target] : [];
    });
    if (slides.length === 0) return fail("CONVERT_FAILED", "The presentation has no slides.");
    const selection = pagesToRead(options.pages, slides.length, options.maxPages, "slide");
    if (!selection.ok) return selection;
    const title = readCoreTitle(archive);
    if (!title.ok) return title;

    const sections: string[] = [];
    let chars = 0;
    let stopped = false;
    for (const number of selection.value.numbers) {
      // Past maxContentChars the rest would be cut anyway.
      if (Date.now() >= options.stopMs || chars >= options.maxContentChars) {
        stopped = true;
        break;
      }
      const section = slideMarkdown(archive, slides[number - 1] as string, number, options.images ?? "names");
      if (!section.ok) return section;
      sections.push(section.value);
      chars += section.value.length + 2;
    }
    if (sections.length === 0) return fail("CONVERT_TIMEOUT", "The presentation's slides could not be read before the conversion deadline.");
    return ok({
      provider: "pptx",
      content: sections.join("\n\n"),
      ...(title.value && { title: title.value }),
      truncated: stopped || selection.value.truncated,
      contentType: MIME,
      pages: { total: slides.length, included: sections.length },
    });
  },
};
