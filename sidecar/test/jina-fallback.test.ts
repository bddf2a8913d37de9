import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, type Origin, routes } from "../../test-support/origin.ts";
import { parseReaderAnswer, readerUrl, readViaReader, wantsReader } from "../src/fetch/jina-fallback.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const base = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), enableJinaFallback: true, ...over });
const long = "word ".repeat(100);

describe("when to ask the reader service", () => {
  it("never when the fallback is off", () => {
    expect(wantsReader({ content: "" }, base({ enableJinaFallback: false }), true)).toBe(false);
  });
  it("always when preferReader is set", () => {
    expect(wantsReader({ content: long }, base(), true)).toBe(true);
  });
  it("for short HTML only with the short-html trigger", () => {
    expect(wantsReader({ content: "tiny" }, base(), false)).toBe(true);
    expect(wantsReader({ content: "tiny" }, base({ jinaTriggers: ["js-heavy-html"] }), false)).toBe(false);
    expect(wantsReader({ content: long }, base(), false)).toBe(false);
  });
  it("for JS-heavy HTML: little body text and more than 3 scripts", () => {
    const heavy = { content: long, signals: { bodyTextChars: 50, scriptTags: 4 } };
    expect(wantsReader(heavy, base({ jinaTriggers: ["js-heavy-html"] }), false)).toBe(true);
    expect(wantsReader({ ...heavy, signals: { bodyTextChars: 50, scriptTags: 3 } }, base({ jinaTriggers: ["js-heavy-html"] }), false)).toBe(false);
    expect(wantsReader(heavy, base({ jinaTriggers: ["short-html"] }), false)).toBe(false);
  });
});

describe("reader answers", () => {
  it("builds the reader URL from a base with or without a slash", () => {
    expect(readerUrl("https://r.jina.ai/", "https://a.test/x?y=1")).toBe("https://r.jina.ai/https://a.test/x?y=1");
    expect(readerUrl("https://reader.test", "https://a.test/")).toBe("https://reader.test/https://a.test/");
  });
  it("splits the title from the Markdown content", () => {
    expect(parseReaderAnswer("Title: Hello\n\nURL Source: https://a.test/\n\nMarkdown Content:\n# Hello\n\nText\n")).toEqual({ title: "Hello", content: "# Hello\n\nText" });
    expect(parseReaderAnswer("just text")).toEqual({ content: "just text" });
  });
});

describe("calling the reader service", () => {
  let reader: Origin;
  const deps = createSidecarDeps(settingsFromEnv({}));
  const policy = { allowPrivateNetwork: false, allowHosts: ["127.0.0.5"] };
  const seen: Array<Record<string, string | string[] | undefined>> = [];

  beforeAll(async () => {
    reader = await startOrigin("127.0.0.5", routes({
      "/ok/https://page.test/a": (req, res) => {
        seen.push(req.headers);
        res.writeHead(200, { "content-type": "text/plain" }).end("Title: Page A\n\nMarkdown Content:\nRendered **A**");
      },
      "/empty/https://page.test/a": send(200, "text/plain", "   "),
      "/down/https://page.test/a": send(503, "text/plain", "busy"),
      "/slow/https://page.test/a": (_req, res) => {
        res.writeHead(200);
        setTimeout(() => res.end("late"), 3_000).unref();
      },
    }));
  });
  afterAll(async () => {
    await reader.close();
    await deps.dispatchers.close();
  });

  const ask = (path: string, over: Partial<FetchOptions> = {}, apiKey?: string, keyOrigin = reader.url) =>
    readViaReader("https://page.test/a", base({ jinaBaseUrl: `${reader.url}${path}`, ...over }), policy, { ...deps, ...(apiKey && { reader: { apiKey, origin: new URL(keyOrigin).origin } }) });

  it("returns the rendering and sends the key as a bearer token", async () => {
    const r = await ask("/ok/", {}, "reader-key");
    expect(r).toEqual({ ok: true, value: { title: "Page A", content: "Rendered **A**" } });
    expect(seen.at(-1)?.authorization).toBe("Bearer reader-key");
  });
  it("sends the key only to the reader origin it was set for, never to another base URL", async () => {
    const r = await ask("/ok/", {}, "reader-key", "https://r.jina.ai/");
    expect(r.ok).toBe(true);
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });
  it("keeps the original extraction on an empty or non-2xx answer", async () => {
    expect(await ask("/empty/")).toEqual({ ok: true, value: undefined });
    expect(await ask("/down/")).toEqual({ ok: true, value: undefined });
  });
  it("times out as CONTENT_FETCH_TIMEOUT after jinaTimeoutMs", async () => {
    const r = await ask("/slow/", { jinaTimeoutMs: 300 });
    expect(!r.ok && r.error.code).toBe("CONTENT_FETCH_TIMEOUT");
  });
  it("fails as CONTENT_FETCH_FAILED when the reader cannot be reached", async () => {
    const r = await readViaReader("https://page.test/a", base({ jinaBaseUrl: "http://127.0.0.5:9/" }), policy, deps);
    expect(!r.ok && r.error.code).toBe("CONTENT_FETCH_FAILED");
  });
});
