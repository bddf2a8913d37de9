import { describe, expect, it } from "vitest";
import { convertLimitsFrom, DEFAULT_WEB_CONFIG } from "../src/index.ts";

describe("convertLimitsFrom", () => {
  it("carries the call's pages, images and comments with the configured limits, maxContentChars capped", () => {
    const limits = convertLimitsFrom(DEFAULT_WEB_CONFIG, { maxContentChars: 10_000_000, pages: "1-2", images: "inline", comments: true });
    expect(limits).toEqual({ ...DEFAULT_WEB_CONFIG.convert, maxContentChars: DEFAULT_WEB_CONFIG.convert.maxContentChars, pages: "1-2", images: "inline", comments: true });
  });

  it("leaves out what the call does not ask for", () => {
    expect(convertLimitsFrom(DEFAULT_WEB_CONFIG, { maxContentChars: 500 })).toEqual({ ...DEFAULT_WEB_CONFIG.convert, maxContentChars: 500 });
  });
});
