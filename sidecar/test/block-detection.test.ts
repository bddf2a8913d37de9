import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPORA_DIR, loadCorpus } from "../../bench/extract-corpus.ts";
import { detectBlock } from "../src/block/detect-block.ts";
import { pageAnswer } from "../src/block/page-answer.ts";
import { decodeText } from "../src/extract/decode-text.ts";
import { detectContentType } from "../src/extract/detect-type.ts";
import { extractContent } from "../src/extract/extract-content.ts";
import { htmlHandler } from "../src/extract/html-handler.ts";
import { CHALLENGE_PAGES } from "./support/challenge-pages.ts";

/** Read as the fetch pipeline reads an answer: its type, its text, its extraction. */
async function answerOf(status: number, headers: Record<string, string>, body: string, url = "https://example.test/page") {
  const bytes = Buffer.from(body);
  const type = await detectContentType({ contentType: headers["content-type"], url, bytes });
  if (!type.ok) throw new Error(type.message);
  const { text } = decodeText(bytes, headers["content-type"], type.kind);
  return pageAnswer(status, headers, text, extractContent(type.kind, { text, url, mime: type.mime }));
}

describe("blocked-page detection", () => {
  it.each(CHALLENGE_PAGES.map((page) => [page.name, page] as const))("recognises %s", async (_name, page) => {
    expect(detectBlock(await answerOf(page.status, page.headers, page.body))).toBeDefined();
  });

  it("leaves ordinary short answers alone: a login form with a captcha, a 401 asking for credentials, a 403 without refusal wording, a 503 maintenance page", async () => {
    const login = `<html><head><title>Sign in</title><script src="https://www.google.com/recaptcha/api.js"></script></head><body><form><input name="user"><input type="password" name="pw"><div class="g-recaptcha" data-sitekey="x"></div></form><p>Are you a robot? Prove it.</p></body></html>`;
    expect(detectBlock(await answerOf(403, { "content-type": "text/html" }, login))).toBeUndefined();
    expect(detectBlock(await answerOf(401, { "content-type": "text/html", "www-authenticate": 'Basic realm="x"' }, "<title>401</title><h1>Access denied</h1>"))).toBeUndefined();
    expect(detectBlock(await answerOf(403, { "content-type": "text/html" }, "<title>403 Forbidden</title><h1>403 Forbidden</h1><hr><center>nginx</center>"))).toBeUndefined();
    expect(detectBlock(await answerOf(503, { "content-type": "text/html" }, "<title>Down for maintenance</title><p>We'll be back in an hour.</p>"))).toBeUndefined();
    // DataDome's header rides on every answer of a protected site.
    expect(detectBlock(await answerOf(200, { "content-type": "text/html", "x-datadome": "protected" }, "<title>Shop</title><main><p>Cheap bolts.</p></main>"))).toBeUndefined();
  });

  it("reads a short page's markup once, whatever tags and attributes it leaves open", async () => {
    // 400 KB of each opening with no end, in a script (so the page stays short), then the thing itself.
    const page = (open: string, last: string) => `<html><head><title>Access denied</title><script>${open.repeat(400_000 / open.length)}</script></head><body>${last}<p>Access denied.</p></body></html>`;
    const html = { "content-type": "text/html" };
    const widget = await answerOf(403, html, page("class=", `<div class="x g-recaptcha"></div>`));
    expect(detectBlock(widget)).toEqual({ sign: "captcha-page", reason: "a reCAPTCHA page answered with HTTP 403" });
    expect(detectBlock(await answerOf(403, html, page("class=", "")))).toEqual({ sign: "block-page", reason: 'a block page answered with HTTP 403 ("Access denied")' });
    // A password field after them: a sign-in page, not a block.
    expect(detectBlock(await answerOf(403, html, page("<input ", `<input type="password">`)))).toBeUndefined();
    const incident = await answerOf(200, html, page("_Incapsula_Resource?", `<iframe src="/_Incapsula_Resource?SWUDNSAI=31&incident_id=7"></iframe>`));
    expect(detectBlock(incident)).toEqual({ sign: "block-page", reason: "a bot manager's incident page" });
  });

  const corpora = readdirSync(CORPORA_DIR).filter((name) => existsSync(join(CORPORA_DIR, name, "html")));

  it("finds the shared corpora", () => {
    expect(corpora.length).toBeGreaterThanOrEqual(4);
  });

  // None of the corpora's pages may be flagged, answered 200 as they were, nor even answered 403 (only the wording and shape can flag them then).
  for (const corpus of corpora) {
    it(`flags none of ${corpus}'s pages, answered 200 or 403`, () => {
      const { pages } = loadCorpus(join(CORPORA_DIR, corpus));
      expect(pages.length).toBeGreaterThan(0);
      const flagged: string[] = [];
      for (const page of pages) {
        const extracted = htmlHandler.extract({ text: page.html, url: page.url, mime: "text/html" });
        for (const status of [200, 403]) {
          const found = detectBlock(pageAnswer(status, { "content-type": "text/html" }, page.html, extracted));
          if (found) flagged.push(`${page.id} (${status}): ${found.reason}`);
        }
      }
      expect(flagged).toEqual([]);
    }, 300_000);
  }
});
