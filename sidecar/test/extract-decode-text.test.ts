import { describe, expect, it } from "vitest";
import { decodeText } from "../src/extract/decode-text.ts";

/** Bytes from ASCII strings and raw byte values, so each test spells out the encoding it uses. */
const bytesOf = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? Array.from(part, (ch) => ch.charCodeAt(0)) : part)));

// Known characters in known encodings.
const WINDOWS_1252 = { bytes: [0x80, 0x35, 0x20, 0x93, 0x63, 0x61, 0x66, 0xe9, 0x94], text: "€5 “café”" };
const ISO_8859_2 = { bytes: [0xa3, 0xf3, 0x64, 0xbc], text: "Łódź" };
const SHIFT_JIS = { bytes: [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], text: "日本語" };
const EUC_KR = { bytes: [0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee], text: "한국어" };
const GB18030 = { bytes: [0xd6, 0xd0, 0xce, 0xc4, 0x81, 0x30, 0x87, 0x37], text: "中文É" };
const BIG5 = { bytes: [0xa4, 0xa4, 0xa4, 0xe5], text: "中文" };

describe("decodeText: byte order marks", () => {
  it("UTF-8 BOM wins over a different header charset and is stripped", () => {
    expect(decodeText(bytesOf([0xef, 0xbb, 0xbf], "h", [0xc3, 0xa9]), "text/html; charset=iso-8859-1", "html")).toEqual({
      text: "hé",
      charset: "utf-8",
    });
  });

  it("UTF-16LE BOM", () => {
    expect(decodeText(bytesOf([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00, 0x2c, 0x67]), undefined, "text")).toEqual({ text: "hé本", charset: "utf-16le" });
  });

  it("UTF-16BE BOM", () => {
    expect(decodeText(bytesOf([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9, 0x67, 0x2c]), "text/plain; charset=utf-8", "text")).toEqual({
      text: "hé本",
      charset: "utf-16be",
    });
  });
});

describe("decodeText: Content-Type charset", () => {
  it.each([
    ["text/html; charset=windows-1252", WINDOWS_1252, "windows-1252"],
    ["text/html; charset=ISO-8859-1", WINDOWS_1252, "windows-1252"],
    ['text/html; charset="iso-8859-2"', ISO_8859_2, "iso-8859-2"],
    ["text/plain;charset=Shift_JIS", SHIFT_JIS, "shift_jis"],
    ["text/html; charset=x-sjis", SHIFT_JIS, "shift_jis"],
    ["text/html; charset=euc-kr", EUC_KR, "euc-kr"],
    ["text/html; charset=ks_c_5601-1987", EUC_KR, "euc-kr"],
    ["text/html; charset=gb18030", GB18030, "gb18030"],
    ["text/html; charset=big5", BIG5, "big5"],
  ])("%s", (contentType, sample, charset) => {
    expect(decodeText(new Uint8Array(sample.bytes), contentType, "html")).toEqual({ text: sample.text, charset });
  });

  it("a charset in repeated headers joined with \", \" stops at the comma", () => {
    expect(decodeText(new Uint8Array(ISO_8859_2.bytes), "text/html; charset=iso-8859-2, text/html", "html")).toEqual({
      text: ISO_8859_2.text,
      charset: "iso-8859-2",
    });
  });

  it("UTF-16 without a BOM when the header says so", () => {
    expect(decodeText(bytesOf([0x68, 0x00, 0xe9, 0x00]), "text/plain; charset=utf-16", "text")).toEqual({ text: "hé", charset: "utf-16le" });
  });

  it("the header beats a <meta> declaration", () => {
    const page = bytesOf('<meta charset="shift_jis">', ISO_8859_2.bytes);
    expect(decodeText(page, "text/html; charset=iso-8859-2", "html")).toEqual({ text: `<meta charset="shift_jis">${ISO_8859_2.text}`, charset: "iso-8859-2" });
  });

  it.each(["text/html; charset=x-no-such-encoding", "text/html; charset=iso-2022-kr", "text/html; charset="])(
    "an unknown or unsupported label (%s) falls back to UTF-8",
    (contentType) => {
      expect(decodeText(bytesOf("h", [0xc3, 0xa9]), contentType, "html")).toEqual({ text: "hé", charset: "utf-8" });
    },
  );
});

describe("decodeText: in-document declarations", () => {
  it("<meta charset> in HTML", () => {
    const page = bytesOf('<!doctype html><head><meta charset="Shift_JIS"><title>', SHIFT_JIS.bytes, "</title>");
    expect(decodeText(page, "text/html", "html")).toEqual({
      text: `<!doctype html><head><meta charset="Shift_JIS"><title>${SHIFT_JIS.text}</title>`,
      charset: "shift_jis",
    });
  });

  it("<meta http-equiv=Content-Type content=…charset=…> in HTML", () => {
    const page = bytesOf("<META HTTP-EQUIV='content-type' CONTENT='text/html; charset=euc-kr'>", EUC_KR.bytes);
    expect(decodeText(page, undefined, "html")).toEqual({
      text: `<META HTTP-EQUIV='content-type' CONTENT='text/html; charset=euc-kr'>${EUC_KR.text}`,
      charset: "euc-kr",
    });
  });

  it("unquoted <meta charset=big5>", () => {
    expect(decodeText(bytesOf("<meta charset=big5>", BIG5.bytes), undefined, "html")).toEqual({
      text: `<meta charset=big5>${BIG5.text}`,
      charset: "big5",
    });
  });

  it("ignores a <meta> inside a comment", () => {
    const page = bytesOf('<!-- <meta charset="big5"> --><meta charset="iso-8859-2">', ISO_8859_2.bytes);
    expect(decodeText(page, undefined, "html").charset).toBe("iso-8859-2");
  });

  it("ignores a <meta name> whose content mentions a charset without http-equiv", () => {
    const page = bytesOf('<meta name="x" content="charset=big5">h', [0xc3, 0xa9]);
    expect(decodeText(page, undefined, "html")).toEqual({ text: '<meta name="x" content="charset=big5">hé', charset: "utf-8" });
  });

  it("past the first 1024 bytes, a <meta> still counts in the head (a browser's parser changes encoding there)", () => {
    const page = bytesOf("<head>", " ".repeat(1024), '<meta charset="iso-8859-2">', "</head>", ISO_8859_2.bytes);
    expect(decodeText(page, undefined, "html").charset).toBe("iso-8859-2");
  });

  it("a <meta> written inside a script or after <body> begins does not count", () => {
    const inScript = bytesOf("<head><script>", " ".repeat(1024), 'document.write(\'<meta charset="big5">\')</script></head>h', [0xc3, 0xa9]);
    expect(decodeText(inScript, undefined, "html").charset).toBe("utf-8");
    const inBody = bytesOf(" ".repeat(1024), '<body><meta charset="iso-8859-2">h', [0xc3, 0xa9]);
    expect(decodeText(inBody, undefined, "html").charset).toBe("utf-8");
  });

  it("a <meta> claiming UTF-16 means UTF-8 (the page was readable as ASCII)", () => {
    expect(decodeText(bytesOf('<meta charset="utf-16">h', [0xc3, 0xa9]), undefined, "html")).toEqual({
      text: '<meta charset="utf-16">hé',
      charset: "utf-8",
    });
  });

  it("<meta> counts only for HTML", () => {
    expect(decodeText(bytesOf('<meta charset="big5">', WINDOWS_1252.bytes), undefined, "text").charset).toBe("windows-1252");
  });

  it("the XML declaration's encoding", () => {
    const feed = bytesOf('<?xml version="1.0" encoding="GB18030"?><title>', GB18030.bytes, "</title>");
    expect(decodeText(feed, "application/xml", "xml")).toEqual({
      text: `<?xml version="1.0" encoding="GB18030"?><title>${GB18030.text}</title>`,
      charset: "gb18030",
    });
  });

  it("single-quoted XML encoding, with the header charset still winning when present", () => {
    const feed = bytesOf("<?xml version='1.0' encoding='big5'?>", BIG5.bytes);
    expect(decodeText(feed, undefined, "xml")).toEqual({ text: `<?xml version='1.0' encoding='big5'?>${BIG5.text}`, charset: "big5" });
    expect(decodeText(feed, "text/xml; charset=windows-1252", "xml").charset).toBe("windows-1252");
  });
});

describe("decodeText: unlabeled bytes", () => {
  it("valid UTF-8 is UTF-8", () => {
    expect(decodeText(bytesOf("h", [0xc3, 0xa9, 0xe6, 0x97, 0xa5]), undefined, "html")).toEqual({ text: "hé日", charset: "utf-8" });
  });

  it.each(["html", "text", "markdown", "csv"] as const)("invalid UTF-8 %s that reads as Western text is windows-1252", (kind) => {
    expect(decodeText(new Uint8Array(WINDOWS_1252.bytes), undefined, kind)).toEqual({ text: WINDOWS_1252.text, charset: "windows-1252" });
  });

  it("a lone high byte at the very end of ASCII text is windows-1252 (café), not a cut-off UTF-8 character", () => {
    expect(decodeText(bytesOf("caf", [0xe9]), undefined, "text")).toEqual({ text: "café", charset: "windows-1252" });
  });

  it("UTF-8 text cut inside its last character (the byte cap) stays UTF-8 and drops the fragment", () => {
    expect(decodeText(bytesOf("h", [0xc3, 0xa9], " w", [0xc3]), undefined, "html")).toEqual({ text: "hé w", charset: "utf-8" });
  });

  it("labelled UTF-8 cut inside its last character drops the fragment instead of showing U+FFFD", () => {
    expect(decodeText(bytesOf("ab", [0xe6, 0x97]), "text/plain; charset=utf-8", "text")).toEqual({ text: "ab", charset: "utf-8" });
  });

  it.each(["json", "yaml", "xml"] as const)("%s is UTF-8 by definition: invalid bytes become U+FFFD, no windows-1252 guess", (kind) => {
    expect(decodeText(bytesOf('"caf', [0xe9], ' x"'), undefined, kind)).toEqual({ text: '"caf\uFFFD x"', charset: "utf-8" });
  });
});

describe("decodeText: bytes that prove to be UTF-8 beat a declared legacy encoding", () => {
  const UTF8 = { bytes: [0x63, 0x61, 0x66, 0xc3, 0xa9, 0x20, 0xe2, 0x80, 0x9c, 0x78, 0xe2, 0x80, 0x9d], text: "café “x”" };

  it("a page re-saved as UTF-8 that kept its <meta charset=iso-8859-1>", () => {
    const page = bytesOf('<meta charset="iso-8859-1">', UTF8.bytes);
    expect(decodeText(page, "text/html", "html")).toEqual({ text: `<meta charset="iso-8859-1">${UTF8.text}`, charset: "utf-8" });
  });

  it("a server's default charset on UTF-8 bytes, for any kind", () => {
    expect(decodeText(new Uint8Array(UTF8.bytes), "text/plain; charset=ISO-8859-1", "text")).toEqual({ text: UTF8.text, charset: "utf-8" });
    expect(decodeText(new Uint8Array(UTF8.bytes), "text/html; charset=windows-1251", "html")).toEqual({ text: UTF8.text, charset: "utf-8" });
  });

  it("UTF-8 cut inside its last character under a legacy label stays UTF-8 and drops the fragment", () => {
    expect(decodeText(bytesOf("h", [0xc3, 0xa9], " w", [0xe2, 0x80]), "text/html; charset=iso-8859-1", "html")).toEqual({ text: "hé w", charset: "utf-8" });
  });

  it("text in the declared encoding stays in it: the legacy bytes are not valid UTF-8", () => {
    expect(decodeText(bytesOf('<meta charset="iso-8859-1">', WINDOWS_1252.bytes), undefined, "html").charset).toBe("windows-1252");
    expect(decodeText(new Uint8Array(GB18030.bytes), "text/html; charset=gb18030", "html").charset).toBe("gb18030");
  });

  it("ASCII bytes prove nothing: a 7-bit encoding (ISO-2022-JP's escapes) is read as declared", () => {
    const bytes = bytesOf([0x1b, 0x24, 0x42], "F|K\\", [0x1b, 0x28, 0x42]);
    expect(decodeText(bytes, "text/plain; charset=iso-2022-jp", "text")).toEqual({ text: "日本", charset: "iso-2022-jp" });
  });

  it("declared UTF-16 is read as UTF-16 even where its code units happen to be UTF-8 sequences", () => {
    expect(decodeText(bytesOf([0xc3, 0xa9]), "text/plain; charset=utf-16be", "text")).toEqual({ text: "\uC3A9", charset: "utf-16be" });
  });
});
