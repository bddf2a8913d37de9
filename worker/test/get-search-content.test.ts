import { describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { newSession, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");
const longSearch = inject("localLongSearchUrl");

type Passage = { urlIndex?: number; queryIndex?: number; resultIndex?: number; url: string; offset: number; end: number; text: string; matches: Array<{ offset: number; length: number }> };

/** A session holding one fetch result of the long page and the short notes; answers the stored content of both. */
async function storedPages(config: Partial<Env> = {}) {
  const id = await newSession(config);
  const fetched = await tool(id, "fetch_content", { urls: [`${origin}/long.txt`, `${origin}/notes.txt`] }, config);
  expect(fetched.status).toBe(200);
  const { responseId } = fetched.body;
  const long = fetched.body.results[0].content as string;
  expect(long.length).toBeGreaterThan(20_000);
  return { id, responseId, long, notes: fetched.body.results[1].content as string };
}

/** Reads a page window by window from offset 0, following nextOffset; answers every answer. */
async function pageThrough(id: string, params: object, config: Partial<Env> = {}) {
  const answers = [];
  for (let offset: number | undefined = 0; offset !== undefined && answers.length < 1_000; ) {
    const answer = await tool(id, "get_search_content", { ...params, offset }, config);
    expect(answer.status).toBe(200);
    answers.push(answer.body);
    offset = answer.body.nextOffset;
  }
  return answers;
}

/** Every passage's text is the page's text at its offsets, and every match sits inside it. */
function expectTrue(passages: Passage[], pages: Record<string, string>) {
  for (const passage of passages) {
    const content = pages[passage.url]!;
    expect(passage.text).toBe(content.slice(passage.offset, passage.end));
    for (const match of passage.matches) {
      expect(match.offset).toBeGreaterThanOrEqual(passage.offset);
      expect(match.offset + match.length).toBeLessThanOrEqual(passage.end);
    }
  }
}

const allIndexes = (text: string, needle: RegExp) => [...text.matchAll(needle)].map((m) => m.index);

describe("get_search_content paging", () => {
  it("pages through a stored fetch result with nextOffset, cutting at line breaks, and reconstructs it exactly", async () => {
    const { id, responseId, long } = await storedPages();
    const answers = await pageThrough(id, { responseId, urlIndex: 0, maxChars: 3_000 });
    expect(answers.length).toBeGreaterThan(7);
    let at = 0;
    for (const [i, answer] of answers.entries()) {
      expect(answer.offset).toBe(at);
      expect(answer.totalChars).toBe(long.length);
      expect(answer.end - answer.offset).toBe(answer.result.content.length);
      expect(answer.result.content.length).toBeLessThanOrEqual(3_000);
      expect(answer.result).toMatchObject({ url: `${origin}/long.txt`, truncated: false });
      const last = i === answers.length - 1;
      // Lines are 100 characters, so a break lies in every window's final fifth.
      if (!last) expect(answer.result.content).toMatch(/\n$/);
      expect(answer.nextOffset).toBe(last ? undefined : answer.end);
      at = answer.end;
    }
    expect(at).toBe(long.length);
    expect(answers.map((a) => a.result.content).join("")).toBe(long);
  });

  it("cuts after a paragraph break when one is in the window's final fifth", async () => {
    const { id, responseId } = await storedPages();
    // Paragraphs are 4 lines of 100 plus breaks (405 characters with the blank line).
    const answer = (await tool(id, "get_search_content", { responseId, urlIndex: 0, maxChars: 1_000 })).body;
    expect(answer.result.content).toMatch(/\n\n$/);
    expect(answer.end).toBe(810);
  });

  it("answers exactly today's shape without the new params, and offset alone reads web.maxContentChars", async () => {
    const { id, responseId, long } = await storedPages();
    const plain = await tool(id, "get_search_content", { responseId, urlIndex: 0 });
    expect(Object.keys(plain.body).sort()).toEqual(["protocolVersion", "responseId", "result"]);
    expect(plain.body.result.content).toBe(long);
    const rest = await tool(id, "get_search_content", { responseId, url: `${origin}/long.txt`, offset: 20_000 });
    expect(rest.body).toMatchObject({ offset: 20_000, end: long.length, totalChars: long.length });
    expect(rest.body.nextOffset).toBeUndefined();
    expect(rest.body.result.content).toBe(long.slice(20_000));
    const atEnd = await tool(id, "get_search_content", { responseId, urlIndex: 0, offset: long.length });
    expect(atEnd.body).toMatchObject({ offset: long.length, end: long.length, result: { content: "" } });
  });

  it("caps maxChars at web.maxContentChars", async () => {
    const { id, responseId } = await storedPages();
    const capped = withConfig({ maxContentChars: 2_000 });
    const answer = await tool(id, "get_search_content", { responseId, urlIndex: 0, maxChars: 10_000 }, capped);
    expect(answer.status).toBe(200);
    expect(answer.body.result.content.length).toBeLessThanOrEqual(2_000);
    expect(answer.body.result.content.length).toBeGreaterThan(1_600);
  });

  it("never splits a surrogate pair, and an offset inside one starts at the pair", async () => {
    const id = await newSession();
    const fetched = await tool(id, "fetch_content", { url: `${origin}/parrots.txt` });
    const parrots = fetched.body.results[0].content as string;
    expect(parrots).toBe("\u{1F99C}".repeat(12_000));
    const responseId = fetched.body.responseId;
    const odd = await tool(id, "get_search_content", { responseId, urlIndex: 0, maxChars: 1_001 });
    expect(odd.body).toMatchObject({ offset: 0, end: 1_000, nextOffset: 1_000 });
    const inside = await tool(id, "get_search_content", { responseId, urlIndex: 0, offset: 1_001, maxChars: 10 });
    expect(inside.body).toMatchObject({ offset: 1_000, end: 1_010, result: { content: "\u{1F99C}".repeat(5) } });
    const one = await tool(id, "get_search_content", { responseId, urlIndex: 0, maxChars: 1 });
    expect(one.body).toMatchObject({ offset: 0, end: 2, nextOffset: 2 });
    const answers = await pageThrough(id, { responseId, urlIndex: 0, maxChars: 2_999 });
    expect(answers).toHaveLength(9);
    expect(answers.map((a) => a.result.content).join("")).toBe(parrots);
  });

  it("pages one search result's page, picked by queryIndex or query with resultIndex", async () => {
    const b = withConfig({ provider: "ddgs", ddgs: { baseUrl: longSearch } });
    const id = await newSession(b);
    const query = `long ${crypto.randomUUID()}`;
    const searched = await tool(id, "web_search", { query, includeContent: true }, b);
    expect(searched.status).toBe(200);
    const { responseId } = searched.body;
    const page = searched.body.queries[0].results[0].content.content as string;
    expect(page.length).toBeGreaterThan(20_000);

    const plain = await tool(id, "get_search_content", { responseId, queryIndex: 0, resultIndex: 0 }, b);
    expect(plain.body.result).toEqual(searched.body.queries[0].results[0]);
    const answers = await pageThrough(id, { responseId, query, resultIndex: 0, maxChars: 5_000 }, b);
    expect(answers.length).toBeGreaterThan(4);
    for (const answer of answers) expect(answer.result).toMatchObject({ title: "Long text", snippet: "A long page on the loopback origin.", content: { url: expect.stringContaining("/long.txt") } });
    expect(answers.map((a) => a.result.content.content).join("")).toBe(page);

    const noPage = await tool(id, "get_search_content", { responseId, queryIndex: 0, resultIndex: 1, maxChars: 100 }, b);
    expect(noPage.status).toBe(404);
    expect(noPage.body.error.message).toMatch(/no stored page content/);
    const outOfRange = await tool(id, "get_search_content", { responseId, queryIndex: 0, resultIndex: 5 }, b);
    expect(outOfRange.status).toBe(404);
    expect(outOfRange.body.error.message).toMatch(/resultIndex 5 is out of range/);
  });
});

describe("get_search_content find", () => {
  it("finds a phrase case-insensitively across every page of a fetch result, whitespace matching any whitespace", async () => {
    const { id, responseId, long, notes } = await storedPages();
    const answer = await tool(id, "get_search_content", { responseId, find: "hidden   NEEDLE" });
    expect(answer.status).toBe(200);
    const needles = allIndexes(long, /Hidden Needle/g);
    expect(needles).toHaveLength(3);
    expect(answer.body).toMatchObject({ responseId, find: "hidden   NEEDLE", matchCount: 3 });
    expect(answer.body.capped).toBeUndefined();
    expect(answer.body.nextOffset).toBeUndefined();
    expect(answer.body.result).toBeUndefined();
    const passages = answer.body.passages as Passage[];
    expect(passages).toHaveLength(3);
    expect(passages.map((p) => p.matches)).toEqual(needles.map((offset) => [{ offset, length: 13 }]));
    for (const [i, passage] of passages.entries()) {
      expect(passage).toMatchObject({ urlIndex: 0, url: `${origin}/long.txt`, offset: needles[i]! - 300, end: needles[i]! + 13 + 300 });
    }
    expectTrue(passages, { [`${origin}/long.txt`]: long });

    const acrossLines = await tool(id, "get_search_content", { responseId, find: "plain notes second" });
    expect(acrossLines.body.passages).toEqual([{ urlIndex: 1, url: `${origin}/notes.txt`, offset: 0, end: notes.length, text: notes, matches: [{ offset: 0, length: 18 }] }]);
  });

  it("finds a /regex/ line by line, merging passages that touch, on one picked page", async () => {
    const { id, responseId, long } = await storedPages();
    const answer = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: String.raw`/^paragraph 4\d line 0: the (quick|slow)/i` });
    expect(answer.status).toBe(200);
    const expected = allIndexes(long, /^Paragraph 4\d line 0/gm);
    expect(expected).toHaveLength(10);
    expect(answer.body).toMatchObject({ matchCount: 10, offset: 0, totalChars: long.length });
    const passages = answer.body.passages as Passage[];
    // Line 0 of consecutive paragraphs is 405 characters on: 300 either side overlaps, so one passage.
    expect(passages).toHaveLength(1);
    expect(passages[0]!.matches.map((m) => m.offset)).toEqual(expected);
    expect(passages[0]!.matches.every((m) => m.length === "Paragraph 40 line 0: the quick".length)).toBe(true);
    expectTrue(passages, { [`${origin}/long.txt`]: long });

    const caseSensitive = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "/^paragraph 4/" });
    expect(caseSensitive.body).toMatchObject({ matchCount: 0, passages: [] });
    // A regex matches within a line: ^ is each line's start, and it never runs past a line break.
    const acrossBreak = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: String.raw`/dog\.+\sParagraph/` });
    expect(acrossBreak.body.matchCount).toBe(0);
  });

  it("stops after 100 matches with capped and nextOffset, and going on from nextOffset finds the rest", async () => {
    const { id, responseId, long } = await storedPages();
    const foxes = allIndexes(long, /fox/g);
    expect(foxes).toHaveLength(240);
    const seen: number[] = [];
    const answers = [];
    for (let offset: number | undefined = 0; offset !== undefined && answers.length < 10; ) {
      const answer = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "/fox/", offset });
      expect(answer.status).toBe(200);
      answers.push(answer.body);
      for (const passage of answer.body.passages as Passage[]) seen.push(...passage.matches.map((m) => m.offset));
      expectTrue(answer.body.passages, { [`${origin}/long.txt`]: long });
      offset = answer.body.nextOffset;
    }
    expect(answers.map((a) => a.matchCount)).toEqual([100, 100, 40]);
    expect(answers.map((a) => a.capped)).toEqual(["matches", "matches", undefined]);
    expect(answers[1]!.offset).toBe(foxes[100]);
    expect(seen).toEqual(foxes);
  });

  it("keeps the passages within maxChars, cutting the first to fit", async () => {
    const { id, responseId, long } = await storedPages();
    const answer = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "lazy dog", maxChars: 1_000 });
    expect(answer.body.capped).toBe("maxChars");
    const passages = answer.body.passages as Passage[];
    expect(passages.reduce((sum, p) => sum + p.text.length, 0)).toBeLessThanOrEqual(1_000);
    expect(answer.body.matchCount).toBe(passages.reduce((sum, p) => sum + p.matches.length, 0));
    expectTrue(passages, { [`${origin}/long.txt`]: long });
    const next = answer.body.nextOffset as number;
    expect(next).toBe(allIndexes(long, /lazy dog/g)[answer.body.matchCount]);

    const tiny = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "hidden needle", maxChars: 50 });
    expect(tiny.body).toMatchObject({ capped: "maxChars", matchCount: 1 });
    const [cut] = tiny.body.passages as Passage[];
    expect(cut!.text.length).toBeLessThanOrEqual(50);
    expect(cut!.text).toContain("Hidden Needle");
    expectTrue([cut!], { [`${origin}/long.txt`]: long });
  });

  it("stops once its work budget is spent with capped scan, whatever the pattern's size", async () => {
    const config = withConfig({ maxContentChars: 60_000, maxStoredContentChars: 2_000_000 });
    const id = await newSession(config);
    const urls = Array.from({ length: 20 }, (_, i) => `${origin}/delay?chars=60000&char=${"abcdefghijklmnopqrst"[i]}`);
    const fetched = await tool(id, "fetch_content", { urls }, config);
    expect(fetched.status).toBe(200);
    const scanned = async (find: string) => {
      const answer = await tool(id, "get_search_content", { responseId: fetched.body.responseId, find }, config);
      expect(answer.status).toBe(200);
      expect(answer.body.capped).toBe("scan");
      const pages = (answer.body.passages as Passage[]).map((p) => p.urlIndex);
      // Page after page from the first, each page's line end matched once.
      expect(pages).toEqual(Array.from({ length: pages.length }, (_, i) => i));
      return pages.length;
    };
    const small = await scanned("/[a-t]{10}$/");
    const large = await scanned("/[a-t]{100}$/");
    // The budget is steps, not characters: a pattern ten times the size scans far less.
    expect(small).toBeGreaterThan(2);
    expect(small).toBeLessThan(20);
    expect(large).toBeLessThan(small);
  });

  it("stops at web.timeoutMs between slices with capped scan, and reads on from nextOffset", async () => {
    const config = withConfig({ maxStoredContentChars: 200_000, maxContentChars: 200_000 });
    const id = await newSession(config);
    const fetched = await tool(id, "fetch_content", { url: `${origin}/delay?chars=100000&char=a` }, config);
    expect(fetched.status).toBe(200);
    const { responseId } = fetched.body;
    // Two slices' work: in time, the whole page is searched.
    const whole = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "/b/" }, config);
    expect(whole.body).toMatchObject({ matchCount: 0, totalChars: 100_000 });
    expect(whole.body.capped).toBeUndefined();
    // With a deadline already spent, the search stops at its first yield and says where to go on.
    const late = withConfig({ maxStoredContentChars: 200_000, maxContentChars: 200_000, timeoutMs: 1 });
    const cut = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "/b/" }, late);
    expect(cut.status).toBe(200);
    expect(cut.body).toMatchObject({ matchCount: 0, capped: "scan" });
    expect(cut.body.nextOffset).toBeGreaterThan(0);
    expect(cut.body.nextOffset).toBeLessThan(100_000);
  });

  it("answers a polynomial pattern on a 100,000-character line at once, and finds across window edges", async () => {
    const config = withConfig({ maxStoredContentChars: 200_000, maxContentChars: 200_000 });
    const id = await newSession(config);
    const fetched = await tool(id, "fetch_content", { url: `${origin}/delay?chars=100000&char=a` }, config);
    expect(fetched.status).toBe(200);
    const { responseId } = fetched.body;
    const content = fetched.body.results[0].content as string;
    expect(content).toMatch(/^a{100000}$/);
    for (const find of ["/a*a*a*a*a*a*a*a*a*a*c/", "/(a|aa)*c/", "/(a+)+c/", "/.*.*.*.*.*.*~/", "/(?:a*)*(?:a?){30}b/"]) {
      const answer = await tool(id, "get_search_content", { responseId, urlIndex: 0, find }, config);
      expect(answer.status, find).toBe(200);
      expect(answer.body.matchCount, find).toBe(0);
    }
    // A long line is matched in overlapping windows: one long match is found once, whole up to the overlap.
    const runs = await tool(id, "get_search_content", { responseId, urlIndex: 0, find: "/a{900}/", maxChars: 200_000 }, config);
    expect(runs.status).toBe(200);
    const matches = (runs.body.passages as Passage[]).flatMap((p) => p.matches);
    expect(matches.length).toBe(runs.body.matchCount);
    matches.forEach((match, i) => expect(match).toEqual({ offset: i * 900, length: 900 }));
  });

  it("searches every search result's page, saying which result each passage comes from", async () => {
    const b = withConfig({ provider: "ddgs", ddgs: { baseUrl: longSearch } });
    const id = await newSession(b);
    const searched = await tool(id, "web_search", { query: `long ${crypto.randomUUID()}`, includeContent: true }, b);
    const { responseId } = searched.body;
    const page = searched.body.queries[0].results[0].content.content as string;
    for (const selector of [{}, { queryIndex: 0 }, { queryIndex: 0, resultIndex: 0 }]) {
      const answer = await tool(id, "get_search_content", { responseId, ...selector, find: "Hidden Needle" }, b);
      expect(answer.status).toBe(200);
      expect(answer.body.matchCount).toBe(3);
      for (const passage of answer.body.passages as Passage[]) expect(passage).toMatchObject({ queryIndex: 0, resultIndex: 0, url: searched.body.queries[0].results[0].url });
      expectTrue(answer.body.passages, { [searched.body.queries[0].results[0].url]: page });
    }
  });
});

describe("get_search_content picking a fetched page by url", () => {
  it("finds a redirected page by the URL asked for and by the URL it ended on", async () => {
    const id = await newSession();
    const fetched = await tool(id, "fetch_content", { url: `${origin}/to-notes` });
    expect(fetched.status).toBe(200);
    expect(fetched.body.results[0]).toMatchObject({ url: `${origin}/to-notes`, metadata: { finalUrl: `${origin}/notes.txt` } });
    for (const url of [`${origin}/to-notes`, `${origin}/notes.txt`]) {
      const answer = await tool(id, "get_search_content", { responseId: fetched.body.responseId, url });
      expect(answer.status, url).toBe(200);
      expect(answer.body.result.url).toBe(`${origin}/to-notes`);
    }
  });
});

describe("get_search_content bad paging and find values", () => {
  const cases: Array<[string, object, number, string, string[]]> = [
    ["a negative offset", { urlIndex: 0, offset: -1 }, 400, "INVALID_INPUT", ["offset"]],
    ["a fractional offset", { urlIndex: 0, offset: 1.5 }, 400, "INVALID_INPUT", ["offset"]],
    ["offset past the end", { urlIndex: 1, offset: 1_000_000 }, 400, "INVALID_INPUT", ["offset"]],
    ["maxChars 0", { urlIndex: 0, maxChars: 0 }, 400, "INVALID_INPUT", ["maxChars"]],
    ["maxChars as a string", { urlIndex: 0, maxChars: "100" }, 400, "INVALID_INPUT", ["maxChars"]],
    ["offset with no page picked", { offset: 10 }, 400, "INVALID_INPUT", ["offset"]],
    ["offset and maxChars with only a query picked", { queryIndex: 0, offset: 0, maxChars: 10 }, 400, "INVALID_INPUT", ["offset", "maxChars"]],
    ["resultIndex without a query", { resultIndex: 0 }, 400, "INVALID_INPUT", ["resultIndex"]],
    ["find empty", { find: "" }, 400, "INVALID_INPUT", ["find"]],
    ["find blank", { find: "   " }, 400, "INVALID_INPUT", ["find"]],
    ["find too long", { find: "x".repeat(201) }, 400, "INVALID_INPUT", ["find"]],
    ["find not a string", { find: 3 }, 400, "INVALID_INPUT", ["find"]],
    ["find an invalid regex", { find: "/[unclosed/" }, 400, "INVALID_INPUT", ["find"]],
    ["find a backreference", { find: String.raw`/(a)\1/` }, 400, "INVALID_INPUT", ["find"]],
    ["find a lookahead", { find: "/fox(?= jumps)/" }, 400, "INVALID_INPUT", ["find"]],
    ["find a lookbehind", { find: "/(?<=quick )fox/" }, 400, "INVALID_INPUT", ["find"]],
    ["find a repeat count over 1000", { find: "/a{1001}/" }, 400, "INVALID_INPUT", ["find"]],
    ["find a regex compiling past 1,000 steps", { find: "/[a-z]{600}[0-9]{600}/" }, 400, "INVALID_INPUT", ["find"]],
    ["find with offset across pages", { find: "fox", offset: 5 }, 400, "INVALID_INPUT", ["offset"]],
    ["a responseId over 200 characters", { responseId: "x".repeat(201) }, 400, "INVALID_INPUT", ["responseId"]],
    ["a url over 16,384 characters", { url: `http://127.0.0.2/${"x".repeat(16_384)}` }, 400, "INVALID_INPUT", ["url"]],
  ];
  for (const [name, params, status, code, fields] of cases) {
    it(`${name} → ${status} ${code} naming ${fields.join(", ")}`, async () => {
      const { id, responseId } = await storedPages();
      const answer = await tool(id, "get_search_content", { responseId, ...params });
      expect(answer.status).toBe(status);
      expect(answer.body.error).toMatchObject({ code, fields });
      expect(answer.body.error.message.length).toBeGreaterThan(20);
    });
  }

  it("accepts nested repeats and alternations (RE2 never backtracks) and JavaScript's spellings", async () => {
    const { id, responseId } = await storedPages();
    for (const find of [String.raw`/fox \S+ jumps/`, "/(?:lazy )?dog/", "/(ab)+|Needle/", "/(?:l+a+)+zy/", "/(?:a|az)*y dog/", "/(?<animal>fox)/", String.raw`/\u0066ox/`]) {
      const answer = await tool(id, "get_search_content", { responseId, find });
      expect(answer.status).toBe(200);
      expect(answer.body.matchCount).toBeGreaterThan(0);
    }
  });
});
