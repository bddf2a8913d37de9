import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { waitFor } from "../../test-support/wait-for.ts";
import { call, newSession, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");

describe("fetch_content through the worker, the session object and the sidecar", () => {
  it("fetches a page as Markdown and stores it under a responseId", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { url: `${origin}/article.html` });
    expect(res.status).toBe(200);
    expect(res.body.protocolVersion).toBe("0.1.0");
    expect(res.body.responseId).toEqual(expect.any(String));
    expect(res.body.results).toHaveLength(1);
    const [page] = res.body.results;
    expect(page).toMatchObject({ url: `${origin}/article.html`, title: "Local Article", truncated: false, contentType: "text/html" });
    expect(page.content).toContain("The sidecar fetched this page from a loopback origin");
    expect(page.content).toContain("- first point");
    expect(page.content).not.toContain("Home");

    const stored = await tool(id, "get_search_content", { responseId: res.body.responseId });
    expect(stored.status).toBe(200);
    expect(stored.body.result).toEqual({ kind: "fetch", responseId: res.body.responseId, results: res.body.results });
  });

  it("merges url and urls, drops blanks and duplicates, keeps order", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { url: `${origin}/notes.txt`, urls: [" ", `${origin}/data.json`, `${origin}/notes.txt`] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${origin}/notes.txt`, `${origin}/data.json`]);
    expect(res.body.results[1].content).toContain('"name": "widget"');
  });

  it("selects stored items by urlIndex and url, and answers NOT_FOUND for misses", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { urls: [`${origin}/notes.txt`, `${origin}/data.json`] });
    const responseId = res.body.responseId;
    expect((await tool(id, "get_search_content", { responseId, urlIndex: 1 })).body.result.url).toBe(`${origin}/data.json`);
    expect((await tool(id, "get_search_content", { responseId, url: `${origin}/notes.txt` })).body.result.content).toContain("plain notes");
    for (const selector of [{ urlIndex: 2 }, { url: `${origin}/other` }, { queryIndex: 0 }, { query: "x" }]) {
      const miss = await tool(id, "get_search_content", { responseId, ...selector });
      expect(miss.status).toBe(404);
      expect(miss.body.error.code).toBe("NOT_FOUND");
    }
    const unknown = await tool(id, "get_search_content", { responseId: "nope" });
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    const empty = await tool(id, "get_search_content", { responseId: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe("INVALID_INPUT");
    const missing = await tool(id, "get_search_content", {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["responseId"] });
  });

  it("keeps sessions apart", async () => {
    const a = await newSession();
    const b = await newSession();
    const res = await tool(a, "fetch_content", { url: `${origin}/notes.txt` });
    const other = await tool(b, "get_search_content", { responseId: res.body.responseId });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe("NOT_FOUND");
  });

  it("evicts the oldest stored results beyond maxStoredResults", async () => {
    const config = withConfig({ maxStoredResults: 2 });
    const id = await newSession(config);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await tool(id, "fetch_content", { url: `${origin}/notes.txt` }, config)).body.responseId);
    expect((await tool(id, "get_search_content", { responseId: ids[0] }, config)).status).toBe(404);
    expect((await tool(id, "get_search_content", { responseId: ids[1] }, config)).status).toBe(200);
    expect((await tool(id, "get_search_content", { responseId: ids[2] }, config)).status).toBe(200);
  });

  it("caps stored content at maxStoredContentChars and marks it truncated", async () => {
    const config = withConfig({ maxStoredContentChars: 1_000 });
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/big.txt` }, config);
    expect(res.body.results[0].content).toHaveLength(30_000);
    expect(res.body.results[0].truncated).toBe(true);
    const stored = await tool(id, "get_search_content", { responseId: res.body.responseId, urlIndex: 0 }, config);
    expect(stored.body.result.content).toHaveLength(1_000);
    expect(stored.body.result.truncated).toBe(true);
  });

  it("truncates to maxContentChars", async () => {
    const config = withConfig({ maxContentChars: 100 });
    const id = await newSession(config);
    const res = await tool(id, "fetch_content", { url: `${origin}/big.txt` }, config);
    expect(res.body.results[0]).toMatchObject({ content: "x".repeat(100), truncated: true });
  });

  it("forgets stored results when the session is deleted", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { url: `${origin}/notes.txt` });
    await call("DELETE", `/api/sessions/${id}`);
    const after = await tool(id, "get_search_content", { responseId: res.body.responseId });
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe("SESSION_NOT_FOUND");
  });
});

describe("fetch_content errors", () => {
  // The code stays the seed's; the status says whose fault it is, and `details` says it too.
  const policy = { fault: "policy" };
  const cases: Array<[string, unknown, number, string, RegExp?, object?]> = [
    ["no url", {}, 400, "INVALID_INPUT", /url/],
    ["blank urls", { urls: ["", "  "] }, 400, "INVALID_INPUT"],
    ["unparseable url", { url: "not a url" }, 400, "CONTENT_FETCH_INVALID_URL"],
    ["non-http scheme", { url: "file:///etc/passwd" }, 400, "CONTENT_FETCH_INVALID_URL"],
    ["localhost", { url: "http://localhost/" }, 403, "CONTENT_FETCH_FAILED", /blocked/i, policy],
    ["private IP", { url: "http://10.0.0.1/" }, 403, "CONTENT_FETCH_FAILED", /blocked/i, policy],
    ["loopback not in allowHosts", { url: "http://127.0.0.3/" }, 403, "CONTENT_FETCH_FAILED", /blocked/i, policy],
    ["redirect to localhost", { url: `${origin}/to-localhost` }, 403, "CONTENT_FETCH_FAILED", /blocked/i, policy],
    ["HTTP 404", { url: `${origin}/missing` }, 404, "CONTENT_FETCH_FAILED", /404/, { fault: "not-found", upstreamStatus: 404 }],
    ["HTTP 410", { url: `${origin}/gone` }, 410, "CONTENT_FETCH_FAILED", /410/, { fault: "not-found", upstreamStatus: 410 }],
    ["PDF", { url: `${origin}/report.pdf` }, 415, "CONTENT_FETCH_FAILED", /convert_content/, { fault: "unsupported-type" }],
    ["image", { url: `${origin}/photo.png` }, 415, "CONTENT_FETCH_FAILED", /image/, { fault: "unsupported-type" }],
    ["HTTP 500", { url: `${origin}/broken` }, 502, "CONTENT_FETCH_FAILED", /500/, { fault: "upstream", upstreamStatus: 500 }],
    ["HTTP 403 from the origin", { url: `${origin}/private` }, 502, "CONTENT_FETCH_FAILED", /403/, { fault: "upstream", upstreamStatus: 403 }],
    ["connection refused", { url: `${new URL(origin).protocol}//${new URL(origin).hostname}:9/` }, 502, "CONTENT_FETCH_FAILED", /failed/, { fault: "upstream" }],
    ["slow page", { url: `${origin}/slow` }, 504, "CONTENT_FETCH_TIMEOUT"],
  ];
  for (const [name, params, status, code, message, details] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      const id = await newSession();
      const res = await tool(id, "fetch_content", params);
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe(code);
      if (message) expect(res.body.error.message).toMatch(message);
      expect(res.body.error.details).toEqual(details);
      expect(res.body.protocolVersion).toBe("0.1.0");
    });
  }

  it("rejects wrong param types with field paths", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { url: 5, urls: ["a", 3], preferReader: "yes" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_INPUT");
    expect(res.body.error.fields).toEqual(["url", "urls.1", "preferReader"]);
  });

  it("refuses a waitForSelector that is not CSS before anything is fetched, saying what to send", async () => {
    const id = await newSession();
    for (const waitForSelector of ["div[", "article >", "p:not(", "text=Sign in", "a,,b"]) {
      const res = await tool(id, "fetch_content", { url: `${origin}/article.html`, render: "always", waitForSelector });
      expect(res.status, waitForSelector).toBe(400);
      expect(res.body.error, waitForSelector).toMatchObject({ code: "INVALID_INPUT", fields: ["waitForSelector"] });
      expect(res.body.error.message).toMatch(/must be a CSS selector .*for example "article h1"/);
    }
    const fine = await tool(id, "fetch_content", { url: `${origin}/article.html`, render: "never", waitForSelector: "main > article:has(> h1), #content .post" });
    expect(fine.status).toBe(200);
  });

  it("rejects invalid JSON bodies as INVALID_INPUT", async () => {
    const id = await newSession();
    const res = await call("POST", `/api/sessions/${id}/tools/fetch_content`, "{");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_INPUT");
  });

  it("fails the whole call when one of several URLs fails", async () => {
    const id = await newSession();
    const res = await tool(id, "fetch_content", { urls: [`${origin}/notes.txt`, `${origin}/missing`] });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/404/), details: { fault: "not-found" } });
  });

  it("fails a separate call at once when the session's queue is full", async () => {
    const config = withConfig({ concurrency: { maxConcurrent: 1, maxQueueSize: 1 } });
    const id = await newSession(config);
    const running = tool(id, "fetch_content", { url: `${origin}/delay?ms=600` }, config);
    const waiting = tool(id, "fetch_content", { url: `${origin}/delay?ms=600&n=2` }, config);
    // Both earlier calls are in the session object (one on the slot, one queued) before this one arrives: it is answered at once.
    await waitFor(async () => (await call("GET", `/api/sessions/${id}/state`, undefined, config)).body.state.pendingMessageCount === 2, "both calls in the session object");
    // A page the fetch cache does not hold: a cached one is answered without a slot.
    const res = await tool(id, "fetch_content", { url: `${origin}/notes.txt?queue=full` }, config);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("CONTENT_FETCH_FAILED");
    expect(res.body.error.details).toEqual({ fault: "too-many-requests" });
    expect(res.body.error.message).toMatch(/1 requests running and 1 calls waiting \(web\.concurrency\)/);
    expect((await running).status).toBe(200);
    expect((await waiting).status).toBe(200);
  });

  it("answers 404 for unknown sessions and unknown tools", async () => {
    expect((await tool(crypto.randomUUID(), "fetch_content", { url: `${origin}/notes.txt` })).body.error.code).toBe("SESSION_NOT_FOUND");
    const id = await newSession();
    expect((await tool(id, "nope", {})).status).toBe(404);
  });
});
