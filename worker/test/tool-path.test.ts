import { PROTOCOL_VERSION } from "@edge-web/shared";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it, vi } from "vitest";
import type { Env } from "../src/env.ts";
import type { SessionObject } from "../src/session/session-object.ts";
import { call, newSession, openStream, tool, withConfig } from "./helpers.ts";
import { sseReader } from "../../test-support/sse-reader.ts";

const origin = inject("originUrl");
const localSearch = inject("localSearchUrl");
const bindings = env as unknown as Env;
const stubOf = (id: string) => bindings.SESSIONS.get(bindings.SESSIONS.idFromName(id));

/** The largest stored row of each table that holds copies of tool answers, in UTF-8 bytes. */
async function largestRows(id: string) {
  return runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) => {
    const largest = (table: string, column: string) =>
      state.storage.sql.exec<{ n: number | null }>(`SELECT MAX(LENGTH(CAST(${column} AS BLOB))) AS n FROM ${table}`).one().n ?? 0;
    return { results: largest("results", "body"), messages: largest("messages", "body"), frames: largest("frames", "text") };
  });
}

describe("cached values are immutable", () => {
  it("a search with includeContent never changes what another session's plain search gets from the cache", async () => {
    const config = withConfig({ ddgs: { baseUrl: localSearch } });
    const query = `immutable ${crypto.randomUUID()}`;
    const a = await newSession(config);
    const withContent = await tool(a, "web_search", { query, includeContent: true }, config);
    expect(withContent.status).toBe(200);
    expect(withContent.body.queries[0].results[0].content.content).toContain("loopback origin");

    const b = await newSession(config);
    const plain = await tool(b, "web_search", { query }, config);
    expect(plain.headers.get("x-cache")).toBe("HIT");
    expect(plain.body.queries[0].results.length).toBeGreaterThan(0);
    for (const result of plain.body.queries[0].results) expect(result).not.toHaveProperty("content");

    // And the other way round: the first search's stored answer keeps its content.
    const again = await tool(a, "web_search", { query, includeContent: true }, config);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.body.queries[0].results[0].content.content).toContain("loopback origin");
  });
});

describe("every stored copy honours web.maxStoredContentChars", () => {
  it("caps the result, the message history and the replay frames; the live stream and the answer stay whole", async () => {
    const config = withConfig({ maxStoredContentChars: 2_000 });
    const id = await newSession(config);
    const live = sseReader((await openStream(id, {}, config)).body!);
    const res = await tool(id, "fetch_content", { url: `${origin}/big.txt` }, config);
    expect(res.body.results[0].content).toHaveLength(30_000);

    const liveFrames = await live.take(4);
    expect(liveFrames[2]!.data.chunk.output.results[0].content).toHaveLength(30_000);
    await live.cancel();

    const stored = await tool(id, "get_search_content", { responseId: res.body.responseId, urlIndex: 0 }, config);
    expect(stored.body.result.content).toHaveLength(2_000);

    const { messages } = (await call("GET", `/api/sessions/${id}/messages?format=ui`, undefined, config)).body;
    const output = messages[0].parts[0].output;
    expect(output.responseId).toBe(res.body.responseId);
    expect(output.results[0]).toMatchObject({ truncated: true });
    expect(output.results[0].content).toHaveLength(2_000);

    const replay = sseReader((await openStream(id, { "Last-Event-ID": "0" }, config)).body!);
    const replayed = await replay.take(4);
    const replayedOutput = replayed[2]!.data.chunk.output;
    expect(replayedOutput.responseId).toBe(res.body.responseId);
    expect(replayedOutput.results[0].content).toHaveLength(2_000);
    await replay.cancel();
    expect(JSON.stringify(messages).length).toBeLessThan(6_000);
  });

  it("keeps every stored row under the 2 MB a Durable Object row can hold, whatever the caps allow", async () => {
    const config = withConfig({ maxStoredContentChars: 10_000_000, maxContentChars: 5_000_000, maxResponseBytes: 8_000_000, timeoutMs: 10_000 });
    const id = await newSession(config);
    // 1.5 million two-byte characters: 3 MB of UTF-8 in every copy.
    const res = await tool(id, "fetch_content", { url: `${origin}/delay?chars=1500000&char=%C3%A9` }, config);
    expect(res.status).toBe(200);
    expect(res.body.results[0].content).toHaveLength(1_500_000);
    // Written in the task after the answer.
    const rows = await vi.waitFor(async () => {
      const largest = await largestRows(id);
      expect(largest.results).toBeGreaterThan(0);
      return largest;
    });
    for (const bytes of Object.values(rows)) {
      expect(bytes).toBeGreaterThan(1_000_000);
      expect(bytes).toBeLessThanOrEqual(2_000_000);
    }
    const stored = await tool(id, "get_search_content", { responseId: res.body.responseId, urlIndex: 0 }, config);
    expect(stored.body.result.truncated).toBe(true);
  });
});

describe("fan-out of one call", () => {
  it("refuses more URLs than web.maxUrlsPerCall, naming the limit", async () => {
    const id = await newSession();
    const urls = Array.from({ length: 21 }, (_, i) => `${origin}/notes.txt?${i}`);
    const res = await tool(id, "fetch_content", { urls });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["urls"] });
    expect(res.body.error.message).toMatch(/at most 20 \(web\.maxUrlsPerCall\)/);
    const limited = withConfig({ maxUrlsPerCall: 2 });
    const two = await tool(await newSession(limited), "fetch_content", { urls: urls.slice(0, 3) }, limited);
    expect(two.body.error.message).toMatch(/at most 2 \(web\.maxUrlsPerCall\)/);
  });

  it("refuses a URL over 16,384 characters as bad input, naming the field, before anything is sent", async () => {
    const id = await newSession();
    const long = `${origin}/notes.txt?${"q".repeat(16_384)}`;
    const one = await tool(id, "fetch_content", { url: long });
    expect(one.status).toBe(400);
    expect(one.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["url"], message: expect.stringContaining("at most 16384 characters") });
    const among = await tool(id, "fetch_content", { urls: [`${origin}/notes.txt`, long] });
    expect(among.body.error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("at most 16384 characters") });
    const document = await tool(id, "convert_content", { url: long });
    expect(document.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["url"] });
    expect((await tool(id, "fetch_content", { url: `${origin}/notes.txt?${"q".repeat(16_000)}` })).status).toBe(200);
  });

  it("runs a call's 20 URLs in turns on the session's 3 slots and returns them all", async () => {
    const id = await newSession();
    const urls = Array.from({ length: 20 }, (_, i) => `${origin}/delay?ms=20&chars=${i + 1}`);
    const res = await tool(id, "fetch_content", { urls });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { content: string }) => r.content.length)).toEqual(urls.map((_, i) => i + 1));
  });
});

describe("deadlines cover the time spent waiting", () => {
  it("answers 40 calls on 2 slots within timeoutMs, those that could not start with CONTENT_FETCH_TIMEOUT saying they waited", async () => {
    const config = withConfig({ timeoutMs: 2_500, concurrency: { maxConcurrent: 2, maxQueueSize: 100 } });
    const id = await newSession(config);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await tool(id, "fetch_content", { url: `${origin}/delay?ms=1000&n=${i}` }, config);
        return { ...res, ms: Date.now() - started };
      }),
    );
    const slowest = Math.max(...answers.map((a) => a.ms));
    expect(slowest).toBeLessThan(2_500 + 1_000);
    const ok = answers.filter((a) => a.status === 200);
    const late = answers.filter((a) => a.status !== 200);
    // The first two start at once; how many more fit depends on when each request reached the worker (its deadline runs from there).
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(late.length).toBeGreaterThan(30);
    for (const answer of late) {
      expect(answer.status).toBe(504);
      expect(answer.body.error.code).toBe("CONTENT_FETCH_TIMEOUT");
    }
    expect(late.some((a) => /waited \d+ ms in this session's queue/.test(a.body.error.message))).toBe(true);
  });

  it("bounds the wait in the sidecar's per-host queue too", async () => {
    // Ten sessions with three slots each put 30 requests at once on one host; the sidecar lets 10 run.
    const config = withConfig({ timeoutMs: 2_000 });
    const sessions = await Promise.all(Array.from({ length: 10 }, () => newSession(config)));
    const started = Date.now();
    const answers = await Promise.all(
      sessions.flatMap((id, s) =>
        Array.from({ length: 3 }, async (_, i) => {
          const res = await tool(id, "fetch_content", { url: `${origin}/delay?ms=1500&s=${s}&i=${i}` }, config);
          return { ...res, ms: Date.now() - started };
        }),
      ),
    );
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(2_000 + 1_000);
    const late = answers.filter((a) => a.status !== 200);
    expect(late.length).toBeGreaterThan(0);
    for (const answer of late) expect(answer.body.error.code, answer.body.error.message).toBe("CONTENT_FETCH_TIMEOUT");
    expect(late.some((a) => /fetch service's queue/.test(a.body.error.message))).toBe(true);
  });
});

describe("the settings a session object holds", () => {
  it("follows a changed configuration on the next call, and survives the object losing them", async () => {
    const page = { url: `${origin}/article.html` };
    const id = await newSession(withConfig({}));
    const whole = await tool(id, "fetch_content", page, withConfig({}));
    expect(whole.status).toBe(200);
    const wholeLength = whole.body.results[0].content.length as number;
    expect(wholeLength).toBeGreaterThan(100);
    // Other settings (a new id): the object is sent them, not the id of those it holds.
    const cut = await tool(id, "fetch_content", page, withConfig({ maxContentChars: 40 }));
    expect(cut.status).toBe(200);
    expect(cut.body.results[0].content.length).toBeLessThan(wholeLength);
    // A restart empties the object; the id alone is refused and the settings follow in a second round trip.
    await expect(runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) => state.abort("restart"))).rejects.toThrow("restart");
    const again = await tool(id, "fetch_content", page, withConfig({ maxContentChars: 40 }));
    expect(again.status).toBe(200);
    expect(again.body.results[0].content).toBe(cut.body.results[0].content);
    expect(again.body.protocolVersion).toBe(PROTOCOL_VERSION);
  });

  it("answers needSettings to an id it does not hold, without running the call", async () => {
    const id = await newSession(withConfig({}));
    const sessions = bindings.SESSIONS as DurableObjectNamespace<SessionObject>;
    const answer = await sessions.get(sessions.idFromName(id)).callTool("fetch_content", { url: `${origin}/article.html` }, "an id it never saw");
    expect(answer).toEqual({ needSettings: true });
    expect((await call("GET", `/api/sessions/${id}/stats`)).body.stats.toolCalls).toBe(0);
  });
});

describe("when a call's record is written", () => {
  /** The rows a session's storage holds (not what its object holds in memory). */
  const storedRows = (id: string) =>
    runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) => {
      const count = (table: string) => state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n;
      return { results: count("results"), messages: count("messages") };
    });

  it("a call that stored a result is written right after its answer, unasked: the id it answers is there after a restart", async () => {
    const id = await newSession(withConfig({}));
    const page = await tool(id, "fetch_content", { url: `${origin}/article.html` }, withConfig({}));
    expect(page.status).toBe(200);
    await vi.waitFor(async () => expect(await storedRows(id)).toEqual({ results: 1, messages: 1 }), { timeout: 3_000, interval: 20 });
    await expect(runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) => state.abort("restart"))).rejects.toThrow("restart");
    const read = await tool(id, "get_search_content", { responseId: page.body.responseId }, withConfig({}));
    expect(read.status).toBe(200);
  });

  it("a failed call answers without waiting for a write; its record is read at once and written within a second", async () => {
    const id = await newSession(withConfig({}));
    const failed = await tool(id, "get_search_content", { responseId: "never-stored" }, withConfig({}));
    expect(failed.status).toBe(404);
    // Not yet in storage, yet every read sees it: history, stats and the stream's replay.
    expect(await storedRows(id)).toEqual({ results: 0, messages: 0 });
    const history = await call("GET", `/api/sessions/${id}/messages?format=ui`);
    expect(history.body.messages.map((m: { parts: { state?: string }[] }) => m.parts[0]?.state)).toEqual(["output-error"]);
    expect((await call("GET", `/api/sessions/${id}/stats`)).body.stats.toolCalls).toBe(1);
    await vi.waitFor(async () => expect(await storedRows(id)).toEqual({ results: 0, messages: 1 }), { timeout: 3_000, interval: 100 });
  });

  it("a call that only read (get_search_content) is written within a second too", async () => {
    const id = await newSession(withConfig({}));
    const page = await tool(id, "fetch_content", { url: `${origin}/article.html` }, withConfig({}));
    await vi.waitFor(async () => expect(await storedRows(id)).toEqual({ results: 1, messages: 1 }), { timeout: 3_000, interval: 20 });
    const read = await tool(id, "get_search_content", { responseId: page.body.responseId }, withConfig({}));
    expect(read.status).toBe(200);
    expect(await storedRows(id)).toEqual({ results: 1, messages: 1 });
    expect((await call("GET", `/api/sessions/${id}/messages?format=ui`)).body.messages).toHaveLength(2);
    await vi.waitFor(async () => expect(await storedRows(id)).toEqual({ results: 1, messages: 2 }), { timeout: 3_000, interval: 100 });
  });

  it("a new session reserves its first frame ids when it is made, so its first frames need no write of their own", async () => {
    const id = await newSession(withConfig({}));
    const reserved = () => runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) => state.storage.sql.exec<{ last: number }>("SELECT last FROM frame_seq").toArray());
    expect(await reserved()).toEqual([{ last: 1000 }]);
    expect((await tool(id, "get_search_content", { responseId: "never-stored" }, withConfig({}))).status).toBe(404);
    expect(await reserved()).toEqual([{ last: 1000 }]);
    expect(await storedRows(id)).toEqual({ results: 0, messages: 0 });
  });

  it("a call that stores a result writes what a failed one before it left pending, in the same commit", async () => {
    const id = await newSession(withConfig({}));
    expect((await tool(id, "get_search_content", { responseId: "never-stored" }, withConfig({}))).status).toBe(404);
    expect((await tool(id, "fetch_content", { url: `${origin}/article.html` }, withConfig({}))).status).toBe(200);
    await vi.waitFor(async () => expect(await storedRows(id)).toEqual({ results: 1, messages: 2 }), { timeout: 3_000, interval: 20 });
  });
});

describe("a deleted session is gone", () => {
  it("answers 404 SESSION_NOT_FOUND on every endpoint and keeps nothing stored", async () => {
    const id = await newSession();
    await tool(id, "fetch_content", { url: `${origin}/notes.txt` });
    await call("POST", "/api/session-source", { id, source: "agent" });
    expect(await bindings.CACHE.get(`session-source:${id}`)).toBe("agent");

    expect((await call("DELETE", `/api/sessions/${id}`)).status).toBe(200);
    for (const path of ["state", "stats", "messages", "commands", "stream"]) {
      const res = await call("GET", `/api/sessions/${id}/${path}`);
      expect({ path, status: res.status, code: res.body.error.code }).toEqual({ path, status: 404, code: "SESSION_NOT_FOUND" });
    }
    for (const name of ["fetch_content", "web_search", "get_search_content"]) {
      const res = await tool(id, name, { url: `${origin}/notes.txt`, query: "q", responseId: "x" });
      expect({ name, status: res.status, code: res.body.error.code }).toEqual({ name, status: 404, code: "SESSION_NOT_FOUND" });
    }
    expect((await call("DELETE", `/api/sessions/${id}`)).status).toBe(404);
    expect(await bindings.CACHE.get(`session-source:${id}`)).toBeNull();

    const tables = await runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .toArray()
        .map((row) => row.name)
        .filter((name) => !name.startsWith("_cf_") && !name.startsWith("sqlite_")),
    );
    expect(tables).toEqual([]);
    expect(await runInDurableObject(stubOf(id), (_instance, state: DurableObjectState) => state.storage.getAlarm())).toBeNull();
  });
});

describe("the sidecar's own refusals reach the caller", () => {
  it("a query over the sidecar's request limit says so, in WEB_SEARCH_FAILED", async () => {
    const config = withConfig({ ddgs: { baseUrl: localSearch }, cache: { enabled: false } });
    const id = await newSession(config);
    const res = await tool(id, "web_search", { query: "q".repeat(300_000) }, config);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("WEB_SEARCH_FAILED");
    expect(res.body.error.message).toMatch(/PAYLOAD_TOO_LARGE/);
    expect(res.body.error.message).not.toMatch(/unexpected answer/);
  });
});

describe("security headers", () => {
  it("every answer carries nosniff and hono's other API-safe headers, streams and errors included", async () => {
    const id = await newSession();
    const answers = [
      await call("GET", `/api/sessions/${id}/state`),
      await call("GET", "/api/nope"),
      await tool(id, "fetch_content", {}),
      await call("GET", "/healthz"),
    ];
    const stream = await openStream(id);
    await stream.body?.cancel();
    for (const headers of [...answers.map((a) => a.headers), stream.headers]) {
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      expect(headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(headers.get("referrer-policy")).toBe("no-referrer");
      expect(headers.get("strict-transport-security")).toMatch(/max-age=/);
      expect(headers.get("x-pi-protocol-version")).toBe("0.1.0");
    }
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
  });
});
