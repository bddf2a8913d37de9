import { describe, expect, it } from "vitest";
import { cssSelectorProblem } from "../src/css-selector-problem.ts";

describe("cssSelectorProblem", () => {
  it("accepts the selectors browsers accept", () => {
    for (const selector of ["article h1", "#content .post", "main > p + p ~ ul", "div:has(> p)", "[data-x='1' i]", "a:not(.b, .c)", "*", "ul li:nth-child(2n+1)", "x-card::part(label)", "a, b"]) {
      expect(cssSelectorProblem(selector), selector).toBeUndefined();
    }
  });

  it("says what is wrong with the ones they refuse", () => {
    const cases: Array<[string, RegExp]> = [
      ["div[", /./],
      ["p:not(", /parenthesis/i],
      ["a,,b", /empty/i],
      ["> a", /starts with a combinator/],
      ["article >", /ends with a combinator/],
      ["text=Sign in", /after other parts of a compound/],
      [".a*", /after other parts/],
      ["div:has(p >)", /ends with a combinator/],
    ];
    for (const [selector, problem] of cases) expect(cssSelectorProblem(selector), selector).toMatch(problem);
  });
});
