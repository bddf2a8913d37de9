import { NO_RULES, type HorizontalRule, type PageRules, type VerticalRule } from "./pdf-rules.ts";
import { findTables, type FoundTable } from "./pdf-tables.ts";

/**
 * Reading order for one PDF page. Text items are grouped into lines by baseline; a line splits where a gap
 * is wide enough to be a column gutter. Columns are found where few segments cross a stretch of x (readColumns),
 * so two columns read one after the other while a heading across both stays above them. Within a column,
 * lines are read top to bottom and grouped into paragraphs by the vertical gaps between them.
 */

/** A positioned run of text, as pdf.js reports it (PDF user space: origin bottom left, y up). */
export interface PlacedText {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  width: number;
  /** Font size. */
  size: number;
}

/** Consecutive lines of one size with ordinary spacing: a paragraph, or a heading when its size says so; or a table. */
export interface TextBlock {
  lines: string[];
  size: number;
  /** A table's cells by row (its lines are then the rows' text, for counting). */
  table?: string[][];
}

interface Segment {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  y: number;
  size: number;
}

/** Items closer than this share a line: baselines within half the smaller font size. */
const SAME_LINE = 0.5;
/** A gap this many font sizes wide between items on one baseline separates columns, not words. */
const GUTTER = 1.5;
/** Between items on a line, a gap over this many font sizes is a space the text itself does not have. */
const WORD_GAP = 0.15;
/** A gutter is at least this many font sizes wide. */
const MIN_COLUMN_GAP = 1;
/** Columns whose lines are mostly shorter than this (characters) are table cells, not prose. */
const MIN_COLUMN_CHARS = 15;
/** Line spacing more than this times the usual spacing starts a paragraph. */
const PARAGRAPH_GAP = 1.3;
/** Lines further apart than this many font sizes are never one paragraph (double spacing is about 2.3). */
const MAX_LINE_SPACING = 2.5;
/** Lines whose sizes differ by more than this share belong to different blocks. */
const SIZE_CHANGE = 0.1;
/** Regions larger than this, or split deeper, are read as one column (bounds the work on pathological pages). */
const MAX_CUT_SEGMENTS = 2000;
const MAX_CUT_DEPTH = 40;

/** Ascent and descent as shares of the font size, for the box a line occupies. */
const ASCENT = 0.8;
const DESCENT = 0.25;

/**
 * The size most of a segment's characters are set in (the larger on a tie): a line with a few words set large (an
 * address whose street is in the heading's size) is still a line of its main size, not part of a heading.
 */
function mainSize(items: readonly PlacedText[]): number {
  const chars = new Map<number, number>();
  for (const { text, size } of items) chars.set(size, (chars.get(size) ?? 0) + text.trim().length);
  let best = 0;
  let most = -1;
  for (const [size, count] of chars) if (count > most || (count === most && size > best)) [best, most] = [size, count];
  return best;
}

function segmentOf(items: PlacedText[]): Segment {
  let text = "";
  let end = -Infinity;
  for (const item of items) {
    const gap = item.x - end;
    if (text && gap > WORD_GAP * item.size && !/\s$/.test(text) && !/^\s/.test(item.text)) text += " ";
    text += item.text;
    end = Math.max(end, item.x + item.width);
  }
  const size = mainSize(items);
  const first = items[0] as PlacedText;
  return {
    text: text.replace(/\s+/g, " ").trim(),
    left: first.x,
    right: end,
    top: first.y + ASCENT * size,
    bottom: first.y - DESCENT * size,
    y: first.y,
    size,
  };
}

/** A vertical rule this close to the gap between two items, in points, stands between them. */
const RULE_SLACK = 0.5;

/** Whether a vertical rule stands between x from and x to, across the baseline y of text of this size. */
function ruledBetween(rules: readonly VerticalRule[], from: number, to: number, y: number, size: number): boolean {
  return rules.some((rule) => rule.x > from - RULE_SLACK && rule.x < to + RULE_SLACK && rule.bottom <= y + size * ASCENT && rule.top >= y - size * DESCENT);
}

/** A page's text by line (baseline), top down, each line left to right: what the layout reads, grouped once per page. */
export type PageLines = readonly (readonly PlacedText[])[];

/** The items by line (baseline), top down, each line left to right. */
export function linesOf(items: readonly PlacedText[]): PlacedText[][] {
  const sorted = items.filter((item) => item.text.trim() !== "").sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PlacedText[][] = [];
  for (const item of sorted) {
    const line = lines[lines.length - 1];
    const anchor = line?.[0];
    if (line && anchor && Math.abs(anchor.y - item.y) < SAME_LINE * Math.min(anchor.size, item.size)) line.push(item);
    else lines.push([item]);
  }
  for (const line of lines) line.sort((a, b) => a.x - b.x);
  return lines;
}

/** A gap between items wider than this many font sizes, yet narrower than a gutter, may be a ruled cell border. */
const CELL_GAP = 0.5;

/**
 * Whether the page may hold a bordered table that only its rules can show: a line with a gap wider than a
 * loose word space but narrower than a gutter (one such row is enough: the rows with wider gaps split at
 * their gutters anyway). Reading a page's drawing costs about as much as reading its text, so pages of plain
 * prose are spared it.
 */
export function mayHoldRuledTable(lines: PageLines): boolean {
  return lines.some((line) => {
    let end: number | undefined;
    return line.some((item) => {
      const gap = end === undefined ? 0 : item.x - end;
      end = Math.max(end ?? -Infinity, item.x + item.width);
      return gap > CELL_GAP * item.size && gap <= GUTTER * item.size;
    });
  });
}

/** Lines by baseline, each split into segments at gutter-wide gaps and at vertical rules (a bordered table's cells). */
function segments(lines: PageLines, rules: readonly VerticalRule[]): Segment[] {
  const out: Segment[] = [];
  for (const line of lines) {
    let run: PlacedText[] = [];
    let end = -Infinity;
    for (const item of line) {
      if (run.length > 0 && (item.x - end > GUTTER * item.size || ruledBetween(rules, end, item.x, item.y, item.size))) {
        out.push(segmentOf(run));
        run = [];
      }
      run.push(item);
      end = Math.max(end, item.x + item.width);
    }
    if (run.length > 0) out.push(segmentOf(run));
  }
  return out.filter((segment) => segment.text !== "");
}

/** The upper quartile of the segments' text lengths: how long a side's lines of prose are, among short lines and cells. */
function lineLength(region: readonly Segment[]): number {
  const lengths = region.map((s) => s.text.length).sort((a, b) => a - b);
  return lengths[Math.floor((lengths.length * 3) / 4)] ?? 0;
}

/**
 * The x-range of a column gutter in the region, or undefined when the region is one column. Coverage along
 * x counts the segments over each stretch; the gutter is the least covered stretch with lines on both sides,
 * and what crosses it (a title, an abstract) must be the lesser part. Columns of short cells are a table,
 * better read row by row, so both sides must hold lines of prose.
 */
function findGutter(region: readonly Segment[]): { left: number; right: number } | undefined {
  const edges = region.flatMap((s): [number, number][] => [[s.left, 1], [s.right, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const minWidth = MIN_COLUMN_GAP * region.reduce((smallest, s) => Math.min(smallest, s.size), Infinity);
  let best: { left: number; right: number; coverage: number } | undefined;
  let starts = 0;
  let ends = 0;
  for (let i = 0; i < edges.length - 1; i++) {
    const [left, change] = edges[i] as [number, number];
    if (change > 0) starts++;
    else ends++;
    const right = (edges[i + 1] as [number, number])[0];
    const coverage = starts - ends;
    // Segments wholly before the stretch have ended; those wholly after it have not started.
    const before = ends;
    const after = region.length - starts;
    if (right - left < minWidth || before < 2 || after < 2 || coverage > Math.min(before, after)) continue;
    if (!best || coverage < best.coverage || (coverage === best.coverage && right - left > best.right - best.left)) best = { left, right, coverage };
  }
  if (!best) return undefined;
  const { left, right } = best;
  const sides = [region.filter((s) => s.right <= left), region.filter((s) => s.left >= right)];
  return sides.every((side) => lineLength(side) >= MIN_COLUMN_CHARS) ? { left, right } : undefined;
}

const byReadingLine = (a: Segment, b: Segment): number => b.y - a.y || a.left - b.left;

/**
 * Orders a region's segments into columns. Segments across the gutter (a heading over two columns) cut the
 * region into bands read top to bottom; a band without any splits into its columns, read left to right.
 */
function readColumns(region: Segment[], depth: number, out: Segment[][]): void {
  const gutter = region.length <= MAX_CUT_SEGMENTS && depth < MAX_CUT_DEPTH ? findGutter(region) : undefined;
  if (!gutter) {
    out.push([...region].sort(byReadingLine));
    return;
  }
  const crosses = (s: Segment): boolean => s.left < gutter.right && s.right > gutter.left;
  if (!region.some(crosses)) {
    readColumns(region.filter((s) => s.right <= gutter.left), depth + 1, out);
    readColumns(region.filter((s) => s.right > gutter.left), depth + 1, out);
    return;
  }
  let band: Segment[] = [];
  let bandCrosses = false;
  for (const segment of [...region].sort((a, b) => b.top - a.top || a.left - b.left)) {
    if (band.length > 0 && crosses(segment) !== bandCrosses) {
      readColumns(band, depth + 1, out);
      band = [];
    }
    bandCrosses = crosses(segment);
    band.push(segment);
  }
  readColumns(band, depth + 1, out);
}

/** The usual distance between consecutive baselines of same-size lines within paragraphs, or undefined when no two are found. */
function usualSpacing(columns: Segment[][]): number | undefined {
  const spacings: number[] = [];
  for (const column of columns) {
    for (let i = 1; i < column.length; i++) {
      const above = column[i - 1] as Segment;
      const below = column[i] as Segment;
      const spacing = above.y - below.y;
      if (spacing > 0 && Math.abs(above.size - below.size) <= SIZE_CHANGE * above.size) spacings.push(spacing);
    }
  }
  // Lines within paragraphs are the closest and most common; the lower quartile finds them among paragraph gaps.
  spacings.sort((a, b) => a - b);
  return spacings[Math.floor(spacings.length / 4)];
}

/**
 * The page's text as blocks in reading order, its lines split at `rules` too (pdf-rules.ts). Tables found in the
 * layout (pdf-tables.ts) are blocks of their own;
 * the text above, between and below them is laid out band by band. A page without a table is one band.
 */
export function layOutPage(lines: PageLines, rules: PageRules = NO_RULES): TextBlock[] {
  const all = segments(lines, rules.vertical);
  const tables = findTables(all);
  if (tables.length === 0) return flowBlocks(all);
  const blocks: TextBlock[] = [];
  let rest = all;
  for (const table of tables) {
    const outside = rest.filter((segment) => !table.segments.has(segment));
    blocks.push(...flowBlocks(outside.filter((segment) => segment.y > table.top)));
    let size = Infinity;
    for (const segment of table.segments) size = Math.min(size, segment.size);
    const rows = joinWrappedRows(table, rules.horizontal);
    blocks.push({ lines: rows.map((row) => row.filter(Boolean).join(" ")), size, table: rows });
    rest = outside.filter((segment) => segment.y <= table.top);
  }
  blocks.push(...flowBlocks(rest));
  return blocks;
}

/** A horizontal rule spans a table when it covers this share of the table's width. */
const SPANS_TABLE = 0.8;

/**
 * A table drawn with row borders: lines of text between the same two borders are one row, a cell's text
 * wrapped over lines, and are joined cell by cell. A table without two borders across it keeps its lines.
 */
function joinWrappedRows(table: FoundTable<Segment>, horizontal: readonly HorizontalRule[]): string[][] {
  // Loops, not Math.min/max over a spread: a table of over 100,000 cells is more arguments than a call takes.
  let left = Infinity;
  let right = -Infinity;
  for (const cell of table.segments) {
    left = Math.min(left, cell.left);
    right = Math.max(right, cell.right);
  }
  const borders = horizontal.filter((rule) => Math.min(rule.right, right) - Math.max(rule.left, left) >= SPANS_TABLE * (right - left));
  if (borders.length < 2) return table.rows;
  const rows: string[][] = [];
  table.rows.forEach((row, i) => {
    const above = table.ys[i - 1];
    const y = table.ys[i] as number;
    const last = rows[rows.length - 1];
    if (last && above !== undefined && !borders.some((rule) => rule.y < above && rule.y > y)) {
      row.forEach((cell, c) => (last[c] = [last[c], cell].filter(Boolean).join(" ")));
    } else rows.push([...row]);
  });
  return rows;
}

/** Segments as blocks in reading order: columns found, lines grouped into paragraphs by their spacing. */
function flowBlocks(all: Segment[]): TextBlock[] {
  if (all.length === 0) return [];
  const columns: Segment[][] = [];
  readColumns(all, 0, columns);
  const spacing = usualSpacing(columns);
  const blocks: TextBlock[] = [];
  for (const column of columns) {
    let block: TextBlock | undefined;
    let previous: Segment | undefined;
    for (const segment of column) {
      const gap = previous ? previous.y - segment.y : 0;
      const sameSize = previous !== undefined && Math.abs(previous.size - segment.size) <= SIZE_CHANGE * Math.max(previous.size, segment.size);
      const limit = Math.min(PARAGRAPH_GAP * (spacing ?? segment.size * 1.2), MAX_LINE_SPACING * segment.size);
      if (block && sameSize && gap <= limit) block.lines.push(segment.text);
      else {
        block = { lines: [segment.text], size: segment.size };
        blocks.push(block);
      }
      previous = segment;
    }
  }
  return blocks;
}
