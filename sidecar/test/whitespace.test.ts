import { describe, expect, it } from "vitest";
import { collapseSpaces } from "../src/extract/whitespace.ts";

describe("collapseSpaces", () => {
  it("makes every run of HTML whitespace and no-break spaces one space, and leaves text with lone spaces as it is", () => {
    expect(collapseSpaces("a b c")).toBe("a b c");
    expect(collapseSpaces(" a  b\tc\n\nd\u00a0e\f\rf ")).toBe(" a b c d e f ");
    expect(collapseSpaces("\u00a0")).toBe(" ");
  });

  it("gives what one replace of every run gives, on 20,000 random strings", () => {
    const pieces = ["a", "bc", " ", "  ", "\t", "\n", "\r", "\f", "\u00a0", "\u2003", "é"];
    let seed = 7;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: Math.floor(next() * 8) }, () => pieces[Math.floor(next() * pieces.length)]).join("");
      expect(collapseSpaces(text), JSON.stringify(text)).toBe(text.replace(/[ \t\n\r\f\u00a0]+/g, " "));
    }
  });
});
