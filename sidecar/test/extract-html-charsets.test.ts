import { describe, expect, it } from "vitest";
import { decodeText } from "../src/extract/decode-text.ts";
import { htmlHandler } from "../src/extract/html-handler.ts";

/** Bytes as served → decodeText → htmlHandler: a correctly labelled page never comes out as mojibake. */

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));
const hex = (value: string): number[] => (value.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16));
/** A page whose only paragraph holds `word`, encoded, with `head` in <head>. */
const page = (head: string, word: number[]): Uint8Array =>
  new Uint8Array([...ascii(`<html><head>${head}<title>t</title></head><body><p>`), ...word, ...ascii("</p></body></html>")]);
const markdown = (bytes: Uint8Array, contentType?: string): string =>
  htmlHandler.extract({ text: decodeText(bytes, contentType, "html").text, url: "https://example.test/", mime: "text/html" }).content;

describe("html charsets end to end", () => {
  it.each([
    ["windows-1252 via <meta charset>", '<meta charset="windows-1252">', "636166E920962093789420", "café – “x”"],
    ["ISO-8859-1 label (decoded as windows-1252, as browsers do)", '<meta charset="iso-8859-1">', "636166E920962093789420", "café – “x”"],
    ["ISO-8859-2 via http-equiv", '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">', "A3F364BC", "Łódź"],
    ["ISO-8859-5", '<meta charset="iso-8859-5">', "BFE0D8D2D5E2", "Привет"],
    ["Shift_JIS", '<meta charset="Shift_JIS">', "93FA967B8CEA", "日本語"],
    ["EUC-KR", "<meta charset=euc-kr>", "C7D1B1B9BEEE", "한국어"],
    ["GB18030 (gb2312 label)", '<meta charset="gb2312">', "D6D0CEC4", "中文"],
    ["Big5", '<meta charset="big5">', "A4A4A4E5", "中文"],
  ])("%s", (_name, head, word, expected) => {
    expect(markdown(page(head, hex(word)))).toBe(expected);
  });

  it("the Content-Type charset wins over <meta>", () => {
    expect(markdown(page('<meta charset="windows-1252">', hex("93FA967B8CEA")), "text/html; charset=shift_jis")).toBe("日本語");
  });

  it("a UTF-8 byte order mark wins over both, and is not shown", () => {
    const bytes = page('<meta charset="windows-1252">', [...new TextEncoder().encode("naïve")]);
    expect(markdown(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]), "text/html; charset=iso-8859-1")).toBe("naïve");
  });

  it("a page re-saved as UTF-8 under its old <meta charset=iso-8859-1> is read as UTF-8, not as mojibake", () => {
    expect(markdown(page('<meta charset="iso-8859-1">', [...new TextEncoder().encode("Rücker’s “report”")]))).toBe("Rücker’s “report”");
  });

  it("unlabelled bytes that are not UTF-8 fall back to windows-1252", () => {
    expect(markdown(page("", hex("636166E920962093789420")))).toBe("café – “x”");
  });

  it("entities decode the same whatever the charset", () => {
    const bytes = new Uint8Array(ascii('<meta charset="shift_jis"><p>&eacute;&#x65E5;&#26412; &lt;b&gt; &amp;amp; &nbsp;x</p>'));
    expect(markdown(bytes)).toBe("é日本 \\<b> \\&amp; x");
  });
});
