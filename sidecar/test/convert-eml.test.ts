import { describe, expect, it } from "vitest";
import { convertDocument } from "../src/convert/service/convert-document.ts";
import { documentOptions } from "./support/document-fixtures.ts";

const crlf = (lines: string[]) => new TextEncoder().encode(lines.join("\r\n"));

async function convert(bytes: Uint8Array, hints = {}) {
  const result = await convertDocument(bytes, hints, documentOptions());
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("convertDocument: e-mail messages", () => {
  it("reads the headers, the plain-text alternative and the attachments of a multipart message", async () => {
    const message = crlf([
      "Received: from mail.example.test by mx.example.test; Mon, 2 Dec 2024 09:00:00 +0000",
      "From: =?utf-8?Q?Ana=C3=AFs_Durand?= <anais@example.test>",
      "To: Team <team@example.test>",
      "Subject: =?utf-8?B?VGlkZXMgZm9yIERlY2VtYmVyIOKAkyBwbGFu?=",
      "Date: Mon, 2 Dec 2024 10:00:00 +0100",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "This is a multi-part message.",
      "--outer",
      'Content-Type: multipart/alternative; boundary="inner"',
      "",
      "--inner",
      "Content-Type: text/plain; charset=iso-8859-1",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Hello team,=0A=0AThe tides are high this week =E0 Brest. Bring *boots*.",
      "--inner",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<p>Hello team, the HTML version.</p>",
      "--inner--",
      "--outer",
      'Content-Type: application/pdf; name="tides.pdf"',
      'Content-Disposition: attachment; filename="tides.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      "JVBERi0xLjQK",
      "--outer--",
      "",
    ]);
    const result = await convert(message, { fileName: "tides.eml" });
    expect(result).toMatchObject({ provider: "eml", title: "Tides for December – plan" });
    expect(result.content).toBe(
      [
        "# Tides for December – plan",
        "**From:** Anaïs Durand \\<anais@example.test>  \n**To:** Team \\<team@example.test>  \n**Date:** Mon, 2 Dec 2024 10:00:00 +0100",
        "Hello team,\n\nThe tides are high this week à Brest. Bring \\*boots\\*.",
        "## Attachments\n\n- tides.pdf (application/pdf, 9 bytes)",
      ].join("\n\n"),
    );
  });

  it("renders an HTML-only message through the page renderer, and is known by its headers whatever the name", async () => {
    const message = crlf(["From: a@example.test", "Subject: Only HTML", "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64", "", Buffer.from("<h2>Agenda</h2><ul><li>Tides</li><li>Boats</li></ul>").toString("base64")]);
    const result = await convert(message, { fileName: "upload.bin" });
    expect(result.content).toBe("# Only HTML\n\n**From:** a@example.test\n\n## Agenda\n\n- Tides\n- Boats");
  });

  it("opens multiparts eight deep and no deeper", async () => {
    const nested = (depth: number): string[] =>
      depth === 0
        ? ["Content-Type: text/plain", "", `reached`]
        : [`Content-Type: multipart/mixed; boundary="b${depth}"`, "", `--b${depth}`, ...nested(depth - 1), `--b${depth}--`];
    const message = (depth: number) => crlf(["From: a@example.test", "Subject: Deep", ...nested(depth), ""]);
    expect((await convert(message(7))).content).toContain("reached");
    expect((await convert(message(12))).content).not.toContain("reached");
  });

  it("refuses a file named .eml without mail headers, and does not take a header block longer than 64 KiB for one by its content", async () => {
    const refused = await convertDocument(new TextEncoder().encode("just some words\nand more"), { fileName: "letter.eml" }, documentOptions());
    expect(refused).toMatchObject({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringMatching(/no mail headers/) } });
    const long = crlf(["From: a@example.test", "Subject: Long", ...Array.from({ length: 1_000 }, (_, i) => `X-Note-${i}: ${"n".repeat(80)}`), "", "body"]);
    expect((await convert(long)).provider).not.toBe("eml");
    expect((await convert(long, { fileName: "long.eml" })).content).toContain("body");
  });

  it("decodes RFC 2231 parameters (charset, continuations) and RFC 2047 words in attachment names", async () => {
    const message = crlf([
      "From: =?iso-8859-1?Q?Ren=E9?= <rene@example.test>",
      "Subject: Files",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "See attached.",
      "--b",
      "Content-Type: text/plain; name*=UTF-8''na%C3%AFve.txt",
      "Content-Disposition: attachment; filename*=UTF-8''na%C3%AFve.txt",
      "",
      "abc",
      "--b",
      "Content-Type: application/pdf",
      "Content-Disposition: attachment;",
      " filename*0*=UTF-8''r%C3%A9sum%C3%A9;",
      " filename*1=-2024.pdf",
      "",
      "%PDF",
      "--b",
      "Content-Type: image/png; name=\"=?utf-8?B?w6lwaXRhcGhlLnBuZw==?=\"",
      "Content-Transfer-Encoding: base64",
      "",
      "iVBORw0KGgo=",
      "--b--",
      "",
    ]);
    expect((await convert(message)).content).toBe(
      [
        "# Files",
        "**From:** René \\<rene@example.test>",
        "See attached.",
        "## Attachments\n\n- naïve.txt (text/plain, 3 bytes)\n- résumé-2024.pdf (application/pdf, 4 bytes)\n- épitaphe.png (image/png, 8 bytes)",
      ].join("\n\n"),
    );
  });

  it("escapes header values and attachment names onto their own line, so they cannot forge headings or links", async () => {
    const message = crlf([
      "From: =?utf-8?Q?**Admin**=0A=0A#_Fake?= <a@example.test>",
      "Subject: =?utf-8?Q?Report=0A#_Heading_[link](http://evil.test)?=",
      "Date: Mon, 2 Dec 2024 10:00:00 +0100",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "# Not a heading either",
      "--b",
      "Content-Type: application/octet-stream",
      "Content-Disposition: attachment; filename*=UTF-8''x%0A%0A%23%23%20Injected%5D%28http%3A%2F%2Fevil.test%29",
      "",
      "x",
      "--b--",
      "",
    ]);
    const result = await convert(message);
    expect(result.title).toBe("Report # Heading [link](http://evil.test)");
    expect(result.content).toBe(
      [
        "# Report # Heading \\[link\\](http://evil.test)",
        "**From:** \\*\\*Admin\\*\\* # Fake \\<a@example.test>  \n**Date:** Mon, 2 Dec 2024 10:00:00 +0100",
        "\\# Not a heading either",
        "## Attachments\n\n- x ## Injected\\](http://evil.test) (application/octet-stream, 1 bytes)",
      ].join("\n\n"),
    );
  });

  it("leaves text that merely starts with a header-like line to the text formats", async () => {
    const notes = new TextEncoder().encode("Subject: groceries\nmilk, eggs\n\nand bread");
    const result = await convert(notes, { fileName: "notes.txt" });
    expect(result.provider).not.toBe("eml");
  });
});
