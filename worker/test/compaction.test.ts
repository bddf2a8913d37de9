import { beforeEach, describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { call, newSession, openStream, withConfig } from "./helpers.ts";
import { sseReader, type ReadFrame } from "../../test-support/sse-reader.ts";
import { waitFor } from "../../test-support/wait-for.ts";

const origin = inject("originUrl");
const fakes = inject("smallModels");

type Logged = { path: string; body: any; tokens: number; summary: boolean; aborted: boolean };
const fake = (name: "openai" | "anthropic") => ({
  script: (...replies: unknown[]) => fetch(`${fakes[name].url}/__control/script`, { method: "POST", body: JSON.stringify(replies) }),
  window: (contextWindow?: number) => fetch(`${fakes[name].url}/__control/window`, { method: "POST", body: JSON.stringify({ contextWindow }) }),
  reset: () => fetch(`${fakes[name].url}/__control/reset`, { method: "POST" }),
  requests: async () => ((await (await fetch(`${fakes[name].url}/__control/requests`)).json()) as Logged[]).filter((r) => r.path !== "/v1/models"),
});

// The tools' definitions take about 2,500 tokens of it: a turn's first two pages fit under the threshold, its third does not.
const WINDOW = 6_600;
const SUMMARY_HEADING = "was summarised to save context";
const chapter = (n: number) => `${origin}/chapter-${n}.txt`;
const fetchCall = (n: number) => ({ toolCalls: [{ name: "fetch_content", arguments: { url: chapter(n) } }] });
const chunks = (frames: ReadFrame[]) => frames.map((f) => f.data?.chunk).filter(Boolean);

/** A provider of each wire format whose model has `contextWindow` (or none). */
function agentEnv(api: "openai" | "anthropic", agent: object = {}, contextWindow: number | undefined = WINDOW): Partial<Env> {
  const model = { id: api === "openai" ? "small-gpt" : "small-claude", ...(contextWindow !== undefined && { contextWindow }) };
  const provider = { api: api === "openai" ? "openai-compatible" : "anthropic", baseURL: fakes[api].baseURL, apiKey: fakes[api].apiKey, models: [model] };
  return { ...withConfig({}), AGENT_CONFIG: JSON.stringify({ modelProviders: { small: provider }, defaultProvider: "small", defaultModel: model.id, agent }) };
}

async function followed(overrides: Partial<Env>) {
  const id = await newSession(overrides);
  const stream = sseReader((await openStream(id, {}, overrides)).body!);
  const post = (path: string, body?: unknown) => call("POST", `/api/sessions/${id}/${path}`, body, overrides);
  const get = (path: string) => call("GET", `/api/sessions/${id}/${path}`, undefined, overrides);
  /** Frames until `count` finish (or abort-ended) chunks arrived. */
  const until = async (count = 1) => {
    const frames: ReadFrame[] = [];
    let ends = 0;
    while (ends < count) {
      const [frame] = await stream.take(1);
      if (!frame) break;
      frames.push(frame);
      if (frame.data?.chunk?.type === "finish") ends++;
    }
    return frames;
  };
  /** One turn: `message`, then the scripted replies, read to its finish. */
  const turn = async (message: string) => {
    expect((await post("messages", { message })).status).toBe(200);
    return until();
  };
  return { id, stream, post, get, until, turn };
}

describe.each(["openai", "anthropic"] as const)("compaction over the %s wire format", (api) => {
  const model = fake(api);
  beforeEach(async () => {
    await model.reset();
    await model.window(WINDOW);
  });

  it("keeps every request of long pages read across turns under the window, compacting with events, a summary of the older messages and the recent ones kept", async () => {
    const overrides = agentEnv(api);
    const s = await followed(overrides);
    const frames: ReadFrame[] = [];
    for (const [i, pages] of [[1, 2, 3], [4, 5, 6], [7, 8, 9]].entries()) {
      await model.script(...pages.map(fetchCall), { text: [`Turn ${i + 1} read chapters ${pages.join(", ")}.`] });
      frames.push(...(await s.turn(`Read chapters ${pages.join(", ")} and report.`)));
    }
    const requests = await model.requests();
    // Every request is within the window by the fake's measure (a token per 4 characters of the body).
    expect(requests.length).toBeGreaterThan(12);
    for (const request of requests) expect(request.tokens).toBeLessThan(WINDOW);

    const compactions = chunks(frames).filter((c) => c.type === "data-pi-compaction");
    const ends = compactions.filter((c) => c.data.phase === "end");
    expect(ends.length).toBeGreaterThan(0);
    expect(compactions.filter((c) => c.data.phase === "start").length).toBe(ends.length);
    for (const end of ends) {
      expect(end.data).toMatchObject({ reason: "threshold", summary: expect.stringContaining("Goal"), firstKeptMessageId: expect.stringMatching(/^msg_/) });
      expect(end.data.tokensAfter).toBeLessThan(end.data.tokensBefore);
    }
    expect(chunks(frames).some((c) => c.type === "error")).toBe(false);

    // The summaries were asked of the session's model, with the older messages.
    const summaries = requests.filter((r) => r.summary);
    expect(summaries.length).toBe(ends.length);
    expect(summaries[0]!.body.model).toBe(api === "openai" ? "small-gpt" : "small-claude");
    expect(JSON.stringify(summaries[0]!.body)).toContain("Read chapters 1, 2, 3 and report.");
    expect(JSON.stringify(summaries[0]!.body)).toContain("Chapter 1, paragraph 0");

    // The last call sees a summary and the recent messages: the latest page.
    const last = JSON.stringify(requests.filter((r) => !r.summary).at(-1)!.body);
    expect(last).toContain(SUMMARY_HEADING);
    expect(last).toContain("Chapter 9, paragraph 0");
    expect(last).not.toContain("Chapter 1, paragraph 0");
    // Pages reach the model within the budget, saying how to read on.
    expect(last).toContain("get_search_content");
    expect(last).toContain("The full text is stored");

    // The stream and the history keep what the tools returned, whole.
    const outputs = chunks(frames).filter((c) => c.type === "tool-output-available");
    expect(outputs).toHaveLength(9);
    expect(outputs[0].output.results[0].content.length).toBeGreaterThan(19_000);
    const history = (await s.get("messages?format=ui")).body.messages as Array<{ role: string; parts: Array<{ type: string; data?: any }> }>;
    expect(history.filter((m) => m.role === "user").map((m) => (m.parts[0] as { text?: string }).text)).toEqual([
      "Read chapters 1, 2, 3 and report.",
      "Read chapters 4, 5, 6 and report.",
      "Read chapters 7, 8, 9 and report.",
    ]);
    const marks = history.flatMap((m) => m.parts.filter((p) => p.type === "data-pi-compaction"));
    expect(marks.length).toBe(ends.length);
    expect(marks.every((p) => p.data.phase === "end" && typeof p.data.summary === "string")).toBe(true);

    const stats = (await s.get("stats")).body.stats;
    expect(stats.compactions.count).toBe(ends.length);
    expect(stats.compactions.tokens.input).toBeGreaterThan(0);
    expect(stats.compactions.tokensSaved).toBeGreaterThan(0);
    const state = (await s.get("state")).body.state;
    expect(state).toMatchObject({ autoCompactionEnabled: true, isCompacting: false });

    // The turn after the compactions answers with the summary and the recent messages before it.
    await model.script({ text: ["Chapter 9 says fact 9.0."] });
    const after = chunks(await s.turn("What did chapter 9 say?"));
    expect(after.filter((c) => c.type === "text-delta").map((c) => c.delta).join("")).toBe("Chapter 9 says fact 9.0.");
    const next = (await model.requests()).at(-1)!;
    expect(next.tokens).toBeLessThan(WINDOW);
    expect(JSON.stringify(next.body)).toContain(SUMMARY_HEADING);
    expect(JSON.stringify(next.body)).toContain("Chapter 9, paragraph 0");
    expect(JSON.stringify(next.body)).toContain("What did chapter 9 say?");
  });

  it("compacts a growing history even when the provider reports 10 input tokens for every call", async () => {
    const overrides = agentEnv(api);
    const s = await followed(overrides);
    const low = { usage: { input: 10, output: 5 } };
    const frames: ReadFrame[] = [];
    for (const pages of [[1, 2, 3], [4, 5, 6]]) {
      await model.script(...pages.map((n) => ({ ...fetchCall(n), ...low })), { text: ["Read."], ...low });
      frames.push(...(await s.turn(`Read chapters ${pages.join(", ")}.`)));
    }
    // No request went over the window (the fake would have refused it), and compaction ran before one would.
    for (const request of await model.requests()) expect(request.tokens).toBeLessThan(WINDOW);
    const compactions = chunks(frames).filter((c) => c.type === "data-pi-compaction" && c.data.phase === "end");
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((c) => c.data.reason === "threshold")).toBe(true);
    expect(chunks(frames).some((c) => c.type === "error")).toBe(false);
  });

  it("counts an attached image by what the model counts, not its bytes: a large one does not make the history compact", async () => {
    await model.window(20_000);
    const overrides = agentEnv(api, {}, 20_000);
    const s = await followed(overrides);
    const bytes = new Uint8Array(60_000).map((_, i) => (i * 7919) % 251);
    const data = btoa(String.fromCharCode(...bytes));
    await model.script({ text: ["A pattern."] }, { text: ["Grey, mostly."] });
    expect((await s.post("messages", { message: "What is in this picture?", images: [{ data, mimeType: "image/png" }] })).status).toBe(200);
    const frames = await s.until();
    frames.push(...(await s.turn("And its colours?")));
    expect(chunks(frames).filter((c) => c.type === "data-pi-compaction")).toEqual([]);
    const requests = await model.requests();
    expect(requests.map((r) => r.summary)).toEqual([false, false]);
    // The second call still sends the picture itself.
    expect(JSON.stringify(requests[1]!.body)).toContain(data.slice(0, 1_000));
  });

  it("answers a context-length refusal with exactly one compaction and one retry, not a failed turn", async () => {
    // The model claims a larger window than the fake has: the estimate never triggers, the provider refuses.
    const overrides = agentEnv(api, { maxToolResultChars: 10_000, compaction: { keepRecentTokens: 1_000 } }, 24_000);
    const s = await followed(overrides);
    await model.script(fetchCall(1), fetchCall(2), { text: ["Both chapters read."] });
    const frames = await s.turn("Read chapters 1 and 2.");
    const requests = await model.requests();
    const refused = requests.filter((r) => r.tokens > WINDOW);
    expect(refused).toHaveLength(1);
    const at = requests.indexOf(refused[0]!);
    expect(requests[at + 1]!.summary).toBe(true);
    expect(requests[at + 2]!.summary).toBe(false);
    expect(requests[at + 2]!.tokens).toBeLessThan(WINDOW);
    expect(JSON.stringify(requests[at + 2]!.body)).toContain(SUMMARY_HEADING);
    expect(requests).toHaveLength(at + 3);
    const all = chunks(frames);
    expect(all.some((c) => c.type === "error")).toBe(false);
    expect(all.filter((c) => c.type === "data-pi-compaction").map((c) => [c.data.phase, c.data.reason])).toEqual([["start", "overflow"], ["end", "overflow"]]);
    expect(all.filter((c) => c.type === "text-delta").map((c) => c.delta).join("")).toBe("Both chapters read.");
    expect((await s.get("stats")).body.stats.compactions.count).toBe(1);
  });

  it("compacts on POST /compact and /compact, refuses both while a turn runs, and has nothing to compact in a new session", async () => {
    // A window the requests never reach: the fake reports their measured size as usage.
    await model.window(100_000);
    const overrides = agentEnv(api, { compaction: { enabled: false } });
    const s = await followed(overrides);
    expect(await s.post("compact", {})).toMatchObject({ status: 200, body: { compacted: false, reason: expect.stringContaining("Nothing to compact") } });
    expect((await s.get("state")).body.state.autoCompactionEnabled).toBe(false);

    await model.script(fetchCall(1), fetchCall(2), { text: ["Read."] });
    await s.turn("Read chapters 1 and 2.");
    await model.script(fetchCall(3), { text: ["Read again."] });
    await s.turn("Now chapter 3.");
    // Automatic compaction is off: nothing was summarised.
    expect((await model.requests()).some((r) => r.summary)).toBe(false);

    const compacted = await s.post("compact", { instructions: "keep the chapter numbers" });
    expect(compacted.status).toBe(200);
    expect(compacted.body).toMatchObject({ compacted: true, summary: expect.stringContaining("Goal") });
    expect(compacted.body.tokensAfter).toBeLessThan(compacted.body.tokensBefore);
    const summary = (await model.requests()).find((r) => r.summary)!;
    expect(JSON.stringify(summary.body)).toContain("keep the chapter numbers");
    expect(JSON.stringify(summary.body)).toContain("Read chapters 1 and 2.");
    const shown = chunks(await s.until());
    expect(shown.map((c) => c.type)).toEqual(["start", "data-pi-compaction", "data-pi-compaction", "finish"]);

    // The next turn sees the summary and the recent messages.
    await model.script({ text: ["Answer."] });
    await s.turn("What did chapter 3 say?");
    const next = JSON.stringify((await model.requests()).at(-1)!.body);
    expect(next).toContain(SUMMARY_HEADING);
    expect(next).toContain("What did chapter 3 say?");

    expect((await s.post("messages", { message: "/compact keep dates" })).status).toBe(200);
    const slash = chunks(await s.until()).filter((c) => c.type === "data-pi-compaction");
    expect(slash.map((c) => c.data.phase)).toEqual(["start", "end"]);
    expect(JSON.stringify((await model.requests()).filter((r) => r.summary).at(-1)!.body)).toContain("keep dates");
    expect((await s.get("stats")).body.stats.compactions.count).toBe(2);
    // The command is not a message the model sees.
    expect(JSON.stringify((await s.get("messages")).body.messages)).not.toContain("/compact keep dates");

    await model.script({ text: ["slow ", "answer"], delayMs: 400 });
    expect((await s.post("messages", { message: "Take your time." })).status).toBe(200);
    await waitFor(async () => (await s.get("state")).body.state.isStreaming === true, "the turn to run");
    const busy = await s.post("compact", {});
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe("SESSION_BUSY");
    const busySlash = await s.post("messages", { message: "/compact" });
    expect(busySlash.status).toBe(409);
    expect(busySlash.body.error.code).toBe("SESSION_BUSY");
    await s.until();
  });

  it("shows isCompacting during a slow summary, and an abort leaves the history as it was", async () => {
    // A window the requests never reach: the fake reports their measured size as usage.
    await model.window(100_000);
    const overrides = agentEnv(api, { compaction: { enabled: false } });
    const s = await followed(overrides);
    await model.script(fetchCall(1), fetchCall(2), { text: ["Read."] });
    await s.turn("Read chapters 1 and 2.");
    const before = (await s.get("messages")).body.messages;
    await model.script({ summary: true, text: ["## Goal", " never", " finished"], delayMs: 2_000 });
    const pending = s.post("compact", {});
    await waitFor(async () => (await s.get("state")).body.state.isCompacting === true, "isCompacting on GET /state");
    expect((await s.post("abort")).status).toBe(200);
    const answer = await pending;
    expect(answer.body).toMatchObject({ compacted: false, reason: expect.stringContaining("Aborted") });
    expect((await s.get("state")).body.state.isCompacting).toBe(false);
    expect((await s.get("messages")).body.messages).toEqual(before);
    expect((await s.get("stats")).body.stats.compactions.count).toBe(0);
    // The next turn sees the whole history, no summary.
    await model.script({ text: ["Fine."] });
    await s.turn("Still there?");
    expect(JSON.stringify((await model.requests()).at(-1)!.body)).not.toContain(SUMMARY_HEADING);
  });

  it("gives up a summary whose model goes silent for agent.modelTimeoutMs, closing its call, and leaves the history as it was", async () => {
    await model.window(100_000);
    const overrides = agentEnv(api, { compaction: { enabled: false }, modelTimeoutMs: 300 });
    const s = await followed(overrides);
    await model.script(fetchCall(1), { text: ["Read."] });
    await s.turn("Read chapter 1.");
    const before = (await s.get("messages")).body.messages;
    await model.script({ summary: true, text: ["## Goal", " never", " finished"], stallAfter: 1 });
    const answer = await s.post("compact", {});
    expect(answer.body).toMatchObject({ compacted: false, reason: expect.stringMatching(/summary could not be made/) });
    await waitFor(async () => (await model.requests()).at(-1)!.aborted === true, "the silent summary call to be closed");
    expect((await s.get("messages")).body.messages).toEqual(before);
    expect((await s.get("stats")).body.stats.compactions.count).toBe(0);
  });

  it("forks before a compaction point: the compaction no longer applies and the model sees what is left", async () => {
    // A window the requests never reach: the fake reports their measured size as usage.
    await model.window(100_000);
    const overrides = agentEnv(api, { compaction: { enabled: false } });
    const s = await followed(overrides);
    await model.script(fetchCall(1), { text: ["First read."] });
    await s.turn("First: read chapter 1.");
    await model.script(fetchCall(2), { text: ["Second read."] });
    await s.turn("Second: read chapter 2.");
    await model.script(fetchCall(3), { text: ["Third read."] });
    await s.turn("Third: read chapter 3.");
    expect((await s.post("compact", {})).body.compacted).toBe(true);
    await s.until();
    const entries = (await s.get("fork-messages")).body.messages as Array<{ entryId: string; text: string }>;
    const second = entries.find((e) => e.text.startsWith("Second"))!;
    expect((await s.post("fork", { entryId: second.entryId })).status).toBe(200);
    await model.script({ text: ["After the fork."] });
    await s.turn("Again: what did chapter 1 say?");
    const body = JSON.stringify((await model.requests()).at(-1)!.body);
    expect(body).not.toContain(SUMMARY_HEADING);
    expect(body).toContain("First: read chapter 1.");
    expect(body).toContain("Chapter 1, paragraph 0");
    expect(body).not.toContain("Second: read chapter 2.");
  });
});

describe("compaction settings", () => {
  const put = (values: object) => call("PUT", "/api/config/settings", { values });

  it("refuses bad values with 422 naming the field, and shows the defaults", async () => {
    const bad = await put({ agent: { maxToolResultChars: 0, compaction: { reserveTokens: "many", enabled: "yes" } } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("SCHEMA_VALIDATION_FAILED");
    expect(bad.body.error.fields).toEqual(expect.arrayContaining(["agent.maxToolResultChars", "agent.compaction.reserveTokens", "agent.compaction.enabled"]));
    const shown = await call("GET", "/api/config/settings");
    expect(shown.body.values.agent).toMatchObject({
      maxToolResultChars: 12_000,
      compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 20_000, defaultContextWindow: 128_000 },
    });
  });

  it("refuses a bad POST /compact body with 400 naming the field", async () => {
    const id = await newSession(agentEnv("openai"));
    const res = await call("POST", `/api/sessions/${id}/compact`, { instructions: 5 }, agentEnv("openai"));
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual(["instructions"]);
  });
});
