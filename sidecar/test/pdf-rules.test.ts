import { describe, expect, it } from "vitest";
import { pageRules, type RuleOps } from "../src/convert/formats/pdf-rules.ts";

// Operator numbers of our own: pageRules reads only the ones it is given.
const OPS: RuleOps = { save: 1, restore: 2, transform: 3, formBegin: 4, formEnd: 5, constructPath: 6, strokes: new Set([20]), fills: new Set([21]) };
const STROKE = 20;
const FILL = 21;
const [MOVE, LINE, CLOSE] = [0, 1, 4];

/** A rectangle's path codes: corner (x, y), width w, height h. */
const rect = (x: number, y: number, w: number, h: number) => [MOVE, x, y, LINE, x + w, y, LINE, x + w, y + h, LINE, x, y + h, CLOSE];
const paint = (paintOp: number, ...paths: Array<number[] | null>) => pageRules([OPS.constructPath], [[paintOp, paths]], OPS);

describe("a PDF page's ruling lines", () => {
  it("reads stroked vertical and horizontal segments, and not short or slanted ones", () => {
    const rules = paint(STROKE, [MOVE, 100, 100, LINE, 100, 300], [MOVE, 50, 200, LINE, 400, 200], [MOVE, 10, 10, LINE, 10, 13], [MOVE, 0, 0, LINE, 100, 100]);
    expect(rules.vertical).toEqual([{ x: 100, bottom: 100, top: 300 }]);
    expect(rules.horizontal).toEqual([{ y: 200, left: 50, right: 400 }]);
  });

  it("reads each thin bar of one fill as its own rule, and a wide bar as none", () => {
    const rules = paint(FILL, [...rect(100, 100, 1, 200), ...rect(300, 100, 1, 200), ...rect(500, 100, 80, 200)]);
    expect(rules.vertical.map((r) => r.x)).toEqual([100.5, 300.5]);
    expect(rules.horizontal).toEqual([]);
  });

  it("skips the null path pdf.js gives for a paint of an empty path", () => {
    expect(paint(FILL, null, rect(10, 10, 1, 50)).vertical).toHaveLength(1);
    expect(paint(STROKE, null).vertical).toEqual([]);
  });

  it("reads a fill of very many points without running out of stack", () => {
    const path: number[] = [MOVE, 0, 0];
    for (let i = 1; i <= 200_000; i++) path.push(LINE, 200 * Math.cos(i), 200 * Math.sin(i));
    expect(paint(FILL, path)).toEqual({ vertical: [], horizontal: [] });
  });

  it("applies the transforms in effect, and a form's matrix until its end", () => {
    const rules = pageRules(
      [OPS.save, OPS.transform, OPS.constructPath, OPS.restore, OPS.formBegin, OPS.constructPath, OPS.formEnd, OPS.constructPath],
      [null, [1, 0, 0, 1, 10, 0], [STROKE, [[MOVE, 0, 0, LINE, 0, 100]]], null, [[1, 0, 0, 1, 50, 0]], [STROKE, [[MOVE, 0, 0, LINE, 0, 100]]], null, [STROKE, [[MOVE, 0, 0, LINE, 0, 100]]]],
      OPS,
    );
    expect(rules.vertical.map((r) => r.x)).toEqual([10, 50, 0]);
  });
});
