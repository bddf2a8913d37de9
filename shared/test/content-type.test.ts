import { describe, expect, it } from "vitest";
import { mediaType, parseContentType } from "../src/content-type.ts";

describe("parseContentType", () => {
  it("lowercases the type and parameter names, unquotes values and keeps their case", () => {
    const type = parseContentType('Text/HTML ; Charset="Shift_JIS"; q=1');
    expect([type?.essence, type?.parameters.get("charset"), type?.parameters.get("q")]).toEqual(["text/html", "Shift_JIS", "1"]);
  });

  it("takes the first of repeated headers joined with \", \", but not at a comma inside quotes", () => {
    expect(parseContentType("text/html; charset=iso-8859-2, text/plain")?.parameters.get("charset")).toBe("iso-8859-2");
    expect(parseContentType('text/html; charset="a,b", text/plain')?.parameters.get("charset")).toBe("a,b");
    expect(mediaType("text/plain, text/html")).toBe("text/plain");
  });

  it.each([undefined, null, "", "text", "text/", "/html", "te xt/html", ", text/html"])("has no type for %j", (header) => {
    expect(parseContentType(header)).toBeUndefined();
    expect(mediaType(header)).toBe("");
  });
});
