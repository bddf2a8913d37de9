/**
 * The ruling lines a PDF page draws: a bordered table's column and row borders. Read from pdf.js's operator
 * list, in page space (the transforms in effect applied): stroked straight vertical and horizontal segments,
 * and filled rectangles thin enough to be lines (how word processors draw cell borders). Paths that only clip are not
 * drawn, and wide filled shapes (a chart's bars) are not rules.
 */

export interface VerticalRule {
  x: number;
  bottom: number;
  top: number;
}

/** A horizontal ruling line: a bordered table's row border. */
export interface HorizontalRule {
  y: number;
  left: number;
  right: number;
}

export interface PageRules {
  vertical: VerticalRule[];
  horizontal: HorizontalRule[];
}

export const NO_RULES: PageRules = Object.freeze({ vertical: [], horizontal: [] }) as PageRules;

/** The operator numbers read here (pdf.js's OPS). */
export interface RuleOps {
  save: number;
  restore: number;
  transform: number;
  /** A form XObject's content: drawn under its own matrix, within a save and a restore. */
  formBegin: number;
  formEnd: number;
  constructPath: number;
  /** Paint operators that stroke a path, and those that fill one. */
  strokes: ReadonlySet<number>;
  fills: ReadonlySet<number>;
}

type Matrix = [number, number, number, number, number, number];

/** pdf.js's path drawing codes inside constructPath's data. */
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;

/** A segment this close to vertical (points of x over its length) is vertical. */
const VERTICAL_SLOPE = 0.02;
/** Shorter vertical segments are glyph-like marks (a bar in a checkbox, a tick), not rules. */
const MIN_RULE_LENGTH = 6;
/** A filled rectangle at most this wide is a line. */
const MAX_RULE_WIDTH = 2;

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/** Adds a straight segment to the page's rules when it is one: long enough, and upright or level. */
function ruleOf(x1: number, y1: number, x2: number, y2: number, rules: PageRules): void {
  const height = Math.abs(y2 - y1);
  const width = Math.abs(x2 - x1);
  if (height >= MIN_RULE_LENGTH && width <= VERTICAL_SLOPE * height) rules.vertical.push({ x: (x1 + x2) / 2, bottom: Math.min(y1, y2), top: Math.max(y1, y2) });
  else if (width >= MIN_RULE_LENGTH && height <= VERTICAL_SLOPE * width) rules.horizontal.push({ y: (y1 + y2) / 2, left: Math.min(x1, x2), right: Math.max(x1, x2) });
}

type Segment = [number, number, number, number];

/** The straight segments of one constructPath's data, in page space, by subpath (each MOVE_TO starts one). */
function subpathsOf(data: ArrayLike<number>, ctm: Matrix): Segment[][] {
  const out: Segment[][] = [];
  let current: Segment[] = [];
  let start: [number, number] | undefined;
  let at: [number, number] | undefined;
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    if (op === MOVE_TO) {
      if (current.length > 0) out.push(current);
      current = [];
      at = start = apply(ctm, data[i] as number, data[i + 1] as number);
      i += 2;
    } else if (op === LINE_TO) {
      const to = apply(ctm, data[i] as number, data[i + 1] as number);
      if (at) current.push([at[0], at[1], to[0], to[1]]);
      at = to;
      i += 2;
    } else if (op === CURVE_TO) {
      at = apply(ctm, data[i + 4] as number, data[i + 5] as number);
      i += 6;
    } else if (op === QUADRATIC_CURVE_TO) {
      at = apply(ctm, data[i + 2] as number, data[i + 3] as number);
      i += 4;
    } else if (op === CLOSE_PATH) {
      if (at && start) current.push([at[0], at[1], start[0], start[1]]);
      at = start;
    } else break; // an unknown code: the rest of this path cannot be read
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** A filled subpath is a rule when the whole of it is a thin bar (a loop, not a spread: a fill may hold many thousands of points). */
function barOf(segments: Segment[], rules: PageRules): void {
  let [left, right, bottom, top] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const [x1, y1, x2, y2] of segments) {
    left = Math.min(left, x1, x2);
    right = Math.max(right, x1, x2);
    bottom = Math.min(bottom, y1, y2);
    top = Math.max(top, y1, y2);
  }
  if (right - left <= MAX_RULE_WIDTH) ruleOf((left + right) / 2, bottom, (left + right) / 2, top, rules);
  else if (top - bottom <= MAX_RULE_WIDTH) ruleOf(left, (bottom + top) / 2, right, (bottom + top) / 2, rules);
}

/** The page's ruling lines, from its operator list. */
export function pageRules(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, ops: RuleOps): PageRules {
  const rules: PageRules = { vertical: [], horizontal: [] };
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore || fn === ops.formEnd) ctm = stack.pop() ?? ctm;
    else if (fn === ops.transform) ctm = multiply(argsArray[i] as Matrix, ctm);
    else if (fn === ops.formBegin) {
      stack.push(ctm);
      const [matrix] = argsArray[i] as [Matrix | null];
      if (matrix) ctm = multiply(matrix, ctm);
    }
    else if (fn === ops.constructPath) {
      const [paint, paths] = argsArray[i] as [number, ArrayLike<ArrayLike<number> | null> | null];
      const stroked = ops.strokes.has(paint);
      if (!stroked && !ops.fills.has(paint)) continue;
      for (const data of Array.from(paths ?? [])) {
        // pdf.js gives a paint of an empty path as a null path.
        if (!data) continue;
        for (const segments of subpathsOf(data, ctm)) {
          if (!stroked) barOf(segments, rules);
          else for (const [x1, y1, x2, y2] of segments) ruleOf(x1, y1, x2, y2, rules);
        }
      }
    }
  }
  return rules;
}
