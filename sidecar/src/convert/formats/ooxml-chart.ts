import type { Document, Element } from "domhandler";
import { textContent } from "../../extract/dom.ts";
import { escapeInline } from "../../extract/markdown-syntax.ts";
import { markdownTable } from "../../extract/markdown-table.ts";
import { oneLine } from "../../extract/whitespace.ts";
import { childElements } from "./child-elements.ts";
import { descendantElements } from "./descendant-elements.ts";

/** Charts with more categories than this are cut (a line says how many were left out): a chart summarises, its table need not be long. */
const MAX_CATEGORIES = 200;

/** The points of a cache (c:strCache, c:numCache, c:multiLvlStrCache's first level) by index. */
function cachedPoints(reference: Element | undefined): Map<number, string> {
  const points = new Map<number, string>();
  if (!reference) return points;
  const [cache] = [...descendantElements(reference, "strCache"), ...descendantElements(reference, "numCache"), ...descendantElements(reference, "lvl")];
  // A literal (c:strLit, c:numLit) holds its points directly.
  for (const point of descendantElements(cache ?? reference, "pt")) {
    const index = Number(point.attribs.idx);
    const [value] = childElements(point, "v");
    if (Number.isInteger(index) && value && !points.has(index)) points.set(index, oneLine(textContent(value)));
  }
  return points;
}

/** A chart title's text: its rich text runs, or the cell text it refers to. */
function titleText(title: Element | undefined): string {
  if (!title) return "";
  const runs = descendantElements(title, "t").map(textContent).join("");
  return oneLine(runs || [...cachedPoints(title).values()].join(" "));
}

/**
 * A chart part (c:chartSpace) as Markdown: its title, then its data as a table of categories by series, from the
 * values the part caches (the workbook behind it is not read). Empty when the chart has no series.
 */
export function chartMarkdown(chart: Document): string {
  const [space] = descendantElements(chart, "chart");
  if (!space) return "";
  const [titleElement] = childElements(space, "title");
  const title = titleText(titleElement);
  const series = descendantElements(space, "ser").map((ser, i) => {
    const [name] = childElements(ser, "tx");
    const [categories] = [...childElements(ser, "cat"), ...childElements(ser, "xVal")];
    const [values] = [...childElements(ser, "val"), ...childElements(ser, "yVal")];
    return { name: titleText(name) || `Series ${i + 1}`, categories: cachedPoints(categories), values: cachedPoints(values) };
  });
  const heading = `**Chart${title ? `: ${escapeInline(title)}` : ""}**`;
  if (series.length === 0) return heading;
  // A loop, not Math.max over a spread: a chart of over 100,000 points is more arguments than a call takes.
  let count = 0;
  for (const { categories, values } of series) for (const points of [categories, values]) for (const index of points.keys()) count = Math.max(count, index + 1);
  const labels = series.find(({ categories }) => categories.size > 0)?.categories ?? new Map<number, string>();
  const rows: string[][] = [["Category", ...series.map(({ name }) => escapeInline(name))]];
  for (let index = 0; index < Math.min(count, MAX_CATEGORIES); index++) {
    rows.push([escapeInline(labels.get(index) ?? String(index + 1)), ...series.map(({ values }) => escapeInline(values.get(index) ?? ""))]);
  }
  const cut = count > MAX_CATEGORIES ? [`(${count - MAX_CATEGORIES} more categories not shown)`] : [];
  return [heading, markdownTable(rows), ...cut].join("\n\n");
}
