import { describe, expect, it } from "vitest";
import { parseUrl } from "../src/fetch/parse-url.ts";

describe("parseUrl", () => {
  it.each([
    ["https://example.test/a?b=1#c", "https://example.test/a?b=1#c"],
    ["  http://Example.TEST:8080/x  ", "http://example.test:8080/x"],
    ["HTTP://example.test", "http://example.test/"],
    ["http://2130706433/", "http://127.0.0.1/"],
  ])("accepts %j", (raw, href) => {
    const result = parseUrl(raw);
    expect(result).toEqual({ ok: true, value: expect.any(URL) });
    expect(result.ok && result.value.href).toBe(href);
  });

  it.each(["ftp://example.test/", "file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi", "gopher://example.test/", "ws://example.test/"])(
    "rejects the scheme of %j and says what is accepted",
    (raw) => {
      const result = parseUrl(raw);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe("invalid-url");
      expect(result.error.message).toContain("http:// or https://");
    },
  );

  it.each(["", "   ", "not a url", "//example.test/path", "/relative", "http://", "http://[::1", "http://exa mple.test/", "http://999.1.1.1/"])(
    "rejects unparseable %j",
    (raw) => {
      const result = parseUrl(raw);
      expect(result).toEqual({ ok: false, error: { code: "invalid-url", message: expect.stringContaining("http:// or https://") } });
    },
  );

  it("never echoes the raw text, which may hold credentials", () => {
    const result = parseUrl("http://user:s3cret@exa mple.test/");
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain("s3cret");
  });
});
