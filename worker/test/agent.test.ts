import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { beforeEach, describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import type { SessionObject } from "../src/session/session-object.ts";
import { call, newSession, openStream, tool, withConfig } from "./helpers.ts";
import { sseReader, type ReadFrame } from "../../test-support/sse-reader.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { PiGetAvailableModelsResponseSchema, PiGetStateResponseSchema } from "../../test-support/pi-protocol/rest.ts";

const origin = inject("originUrl");
const fakes = inject("fakeModels");
const bindings = env as unknown as Env;

/** Steers a fake model server: its replies for the next requests, and what it was asked. */
const fake = (name: "openai" | "anthropic") => ({
  script: (...replies: unknown[]) => fetch(`${fakes[name].url}/__control/script`, { method: "POST", body: JSON.stringify(replies) }),
  reset: () => fetch(`${fakes[name].url}/__control/reset`, { method: "POST" }),
  /** The replies held by `holdAfter` go on. */
  release: () => fetch(`${fakes[name].url}/__control/release`, { method: "POST" }),
  requests: async () => (await (await fetch(`${fakes[name].url}/__control/requests`)).json()) as Array<{ path: string; body: any; headers: Record<string, string>; aborted: boolean; completed: boolean }>,
});
const openai = fake("openai");
const anthropic = fake("anthropic");

const PROVIDERS = {
  fake: {
    api: "openai-compatible",
    baseURL: fakes.openai.baseURL,
    apiKey: fakes.openai.apiKey,
    models: [{ id: "fake-gpt", name: "Fake GPT", reasoning: true, contextWindow: 128_000, cost: { input: 2, output: 8 } }, { id: "fake-mini", reasoning: true }],
  },
  claude: { api: "anthropic", baseURL: fakes.anthropic.baseURL, apiKey: fakes.anthropic.apiKey, models: [{ id: "claude-fake", reasoning: true, cost: { input: 3, output: 15 } }] },
};

/** Per-request settings: the web config of the tests, and an agent config on top of the defaults. */
const agentEnv = (agent: object = {}, web: object = {}): Partial<Env> => ({
  ...withConfig(web),
  AGENT_CONFIG: JSON.stringify({ modelProviders: PROVIDERS, defaultProvider: "fake", defaultModel: "fake-gpt", ...agent }),
});
const ENV = agentEnv();

const chunkTypes = (frames: ReadFrame[]) => frames.map((f) => f.data?.chunk?.type ?? `control:${f.data?.payload?.control}`);

/** The next frame; a stream that ends first fails the test rather than leaving it waiting. */
async function nextFrame(stream: ReturnType<typeof sseReader>): Promise<ReadFrame> {
  const [frame] = await stream.take(1);
  if (!frame) throw new Error("the stream ended");
  return frame;
}

/** Reads frames until a `finish` chunk (or `count` of them) arrives. */
async function untilFinish(stream: ReturnType<typeof sseReader>, count = 1): Promise<ReadFrame[]> {
  const frames: ReadFrame[] = [];
  let finishes = 0;
  while (finishes < count) {
    const [frame] = await stream.take(1);
    if (!frame) break;
    frames.push(frame);
    if (frame.data?.chunk?.type === "finish") finishes++;
  }
  return frames;
}

/** A session with its stream open. */
async function followed(overrides: Partial<Env> = ENV) {
  const id = await newSession(overrides);
  const stream = sseReader((await openStream(id, {}, overrides)).body!);
  const post = (path: string, body?: unknown) => call("POST", `/api/sessions/${id}/${path}`, body, overrides);
  const get = (path: string) => call("GET", `/api/sessions/${id}/${path}`, undefined, overrides);
  return { id, stream, post, get };
}

beforeEach(async () => {
  await openai.reset();
  await anthropic.reset();
});

describe("agent turns", () => {
  it("without a model configured, answers 400 MODEL_NOT_CONFIGURED naming where to configure one", async () => {
    const id = await newSession();
    const res = await call("POST", `/api/sessions/${id}/messages`, { message: "hi" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("MODEL_NOT_CONFIGURED");
    expect(res.body.error.message).toMatch(/auth\.modelProviders/);
    expect(res.body.error.message).toMatch(/settings\.defaultProvider/);
    expect(res.body.error.message).toMatch(/defaultModel/);
  });

  it("reads a document with convert_content when the model asks for it", async () => {
    await openai.script({ toolCalls: [{ name: "convert_content", arguments: { url: `${origin}/guide.pdf`, pages: "2" } }] }, { text: ["The birds nest there."] });
    const s = await followed();
    expect((await s.post("messages", { message: "Where do the birds nest?" })).status).toBe(200);
    const frames = await untilFinish(s.stream);
    const output = frames.find((f) => f.data?.chunk?.type === "tool-output-available")!.data.chunk.output;
    expect(output).toMatchObject({ provider: "unpdf", metadata: { pages: { total: 3, included: 1 } } });
    expect(output.content).toContain("where the birds nest");
    const toolMessage = (await openai.requests()).at(-1)!.body.messages.find((m: any) => m.role === "tool");
    expect(toolMessage.content).toContain("where the birds nest");
  });

  it("runs a two-step turn: a real fetch_content of a loopback page fed back to the model, streamed, stored, counted", async () => {
    await openai.script(
      { reasoning: ["Let me ", "read it."], toolCalls: [{ name: "fetch_content", arguments: { url: `${origin}/article.html` }, pieces: 3 }], usage: { input: 100, output: 20 } },
      { text: ["The page ", "says hello."], usage: { input: 300, output: 40, cacheRead: 50 } },
    );
    const s = await followed();
    const posted = await s.post("messages", { message: "What does the local article say?" });
    expect(posted).toMatchObject({ status: 200, body: { ok: true } });
    const frames = await untilFinish(s.stream);
    const types = chunkTypes(frames);
    expect(types[0]).toBe("start");
    expect(types).toEqual(
      expect.arrayContaining(["start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-output-available", "finish-step", "text-start", "text-delta", "text-end"]),
    );
    expect(types.at(-1)).toBe("finish");
    expect(types.filter((t) => t === "start-step")).toHaveLength(2);
    const output = frames.find((f) => f.data.chunk.type === "tool-output-available")!.data.chunk.output;
    expect(output.results[0].content).toContain("loopback origin");

    const requests = await openai.requests();
    expect(requests).toHaveLength(2);
    expect(requests[0]!.body).toMatchObject({ model: "fake-gpt", stream: true, stream_options: { include_usage: true } });
    expect(requests[0]!.body.messages[0]).toMatchObject({ role: "system", content: expect.stringMatching(/fetch_content/) });
    // A 128,000-token window has room for the site tools beside the four web tools.
    expect(requests[0]!.body.tools.map((t: any) => t.function.name).sort()).toEqual(["convert_content", "crawl", "crawl_status", "fetch_content", "get_search_content", "map", "web_search"]);
    const toolMessage = requests[1]!.body.messages.find((m: any) => m.role === "tool");
    expect(toolMessage.content).toContain("loopback origin");

    await waitFor(async () => !(await s.get("state")).body.state.isStreaming, "the turn to end");
    const { messages } = (await s.get("messages?format=ui")).body;
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[0].parts[0]).toEqual({ type: "text", text: "What does the local article say?" });
    const assistant = messages[1];
    expect(assistant.id).toBe(frames[0]!.data.chunk.messageId);
    expect(assistant.parts.map((p: any) => p.type)).toEqual(expect.arrayContaining(["reasoning", "tool-fetch_content", "text"]));
    expect(assistant.parts.find((p: any) => p.type === "tool-fetch_content")).toMatchObject({ state: "output-available" });
    expect(assistant.parts.filter((p: any) => p.type === "text").map((p: any) => p.text).join("")).toBe("The page says hello.");

    const { stats } = (await s.get("stats")).body;
    expect(stats.tokens).toEqual({ input: 350, output: 60, cacheRead: 50, cacheWrite: 0, total: 460 });
    // 350 × $2 + 60 × $8 + 50 cached × $2 per million tokens.
    expect(stats.cost).toBeCloseTo((350 * 2 + 60 * 8 + 50 * 2) / 1e6, 10);
    expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 1, toolCalls: 1, toolResults: 1 });
    expect(stats.web.pagesFetched).toBe(1);
    await s.stream.cancel();
  });

  it("delivers a steering message before the next model call, and runs a follow-up as its own turn", async () => {
    // The first call's answer waits half-way until the steer and the follow-up are in.
    await openai.script({ text: ["one ", "two ", "three ", "four"], holdAfter: 3 }, { text: ["steered"] }, { text: ["followed"] });
    const s = await followed();
    await s.post("messages", { message: "count" });
    await waitFor(async () => (await openai.requests()).length === 1, "the first model call");
    expect((await s.post("messages", { message: "no streaming behaviour" })).body.error.code).toBe("SESSION_BUSY");
    expect((await s.post("steer", { message: "Count in French instead." })).status).toBe(200);
    expect((await s.post("follow_up", { message: "And now in German." })).status).toBe(200);
    expect((await s.get("state")).body.state).toMatchObject({ isStreaming: true, pendingMessageCount: 2 });
    await openai.release();
    const frames = await untilFinish(s.stream, 2);
    // What waits shows as pi's queue: the steer and the follow-up queued, the steer taken by the second call, the follow-up started.
    expect(frames.filter((f) => f.data.chunk?.type === "data-pi-queue").map((f) => f.data.chunk.data)).toEqual([
      { steering: ["Count in French instead."], followUp: [] },
      { steering: ["Count in French instead."], followUp: ["And now in German."] },
      { steering: [], followUp: ["And now in German."], delivered: ["Count in French instead."] },
      { steering: [], followUp: [] },
    ]);
    const requests = await openai.requests();
    expect(requests).toHaveLength(3);
    const last = (messages: any[]) => messages.at(-1);
    expect(last(requests[1]!.body.messages)).toMatchObject({ role: "user", content: "Count in French instead." });
    expect(last(requests[2]!.body.messages)).toMatchObject({ role: "user", content: "And now in German." });
    // The second turn sees the first turn's steered message as the user's.
    expect(requests[2]!.body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content)).toEqual(["count", "Count in French instead.", "And now in German."]);
    await waitFor(async () => (await s.get("state")).body.state.pendingMessageCount === 0, "the queue to drain");
    await s.stream.cancel();
  });

  it("aborts mid-stream: the provider's connection is closed, an abort chunk, idle within a second, and the next message works", async () => {
    // The answer waits half-way, until the abort closes its connection.
    await openai.script({ text: ["a", "b", "c", "d", "e", "f"], holdAfter: 3 });
    const s = await followed();
    await s.post("messages", { message: "go slowly" });
    await waitFor(async () => (await openai.requests()).length === 1, "the model call");
    const aborted = await s.post("abort");
    expect(aborted.status).toBe(200);
    expect((await s.get("state")).body.state.isStreaming).toBe(false);
    const frames = await untilFinish(s.stream);
    expect(chunkTypes(frames)).toContain("abort");
    expect(chunkTypes(frames).at(-1)).toBe("finish");
    await waitFor(async () => (await openai.requests())[0]!.aborted, "the provider to see its connection closed");
    expect((await s.post("abort")).status).toBe(200);
    await openai.script({ text: ["fine"] });
    expect((await s.post("messages", { message: "again" })).status).toBe(200);
    const next = await untilFinish(s.stream);
    expect(chunkTypes(next)).toContain("text-delta");
    await s.stream.cancel();
  });

  it("answers in GET /state the model a turn would use, in pi's Model shape, before any turn; none without a model configured", async () => {
    const id = await newSession(ENV);
    const { state } = v.parse(PiGetStateResponseSchema, (await call("GET", `/api/sessions/${id}/state`, undefined, ENV)).body);
    expect(state.model).toEqual({
      id: "fake-gpt", name: "Fake GPT", api: "openai-completions", provider: "fake", baseUrl: "", reasoning: true, input: ["text", "image"],
      cost: { input: 2, output: 8, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 128_000,
    });
    // A model the provider does not list in the config: the defaults for what is not known.
    const unlisted = agentEnv({ defaultModel: "served-only" });
    const other = await newSession(unlisted);
    const shown = v.parse(PiGetStateResponseSchema, (await call("GET", `/api/sessions/${other}/state`, undefined, unlisted)).body).state.model;
    expect(shown).toMatchObject({ id: "served-only", name: "served-only", provider: "fake", reasoning: false, contextWindow: 128_000 });

    const bare = await newSession();
    const answer = (await call("GET", `/api/sessions/${bare}/state`)).body;
    v.parse(PiGetStateResponseSchema, answer);
    expect(answer.state).not.toHaveProperty("model");
  });

  it("applies thinking and model changes from the next model call, and refuses unknown ones", async () => {
    const s = await followed();
    expect((await s.post("thinking", { level: "high" })).status).toBe(200);
    expect((await s.post("model", { provider: "fake", modelId: "fake-mini" })).status).toBe(200);
    await s.post("messages", { message: "hi" });
    await untilFinish(s.stream);
    const [request] = await openai.requests();
    expect(request!.body).toMatchObject({ model: "fake-mini", reasoning_effort: "high" });
    expect((await s.get("state")).body.state).toMatchObject({ thinkingLevel: "high", model: { provider: "fake", id: "fake-mini" } });

    const badLevel = await s.post("thinking", { level: "max" });
    expect(badLevel).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_FAILED", fields: ["level"] } } });
    expect((await s.post("model", { provider: "nope", modelId: "x" })).body.error).toMatchObject({ code: "VALIDATION_FAILED", fields: ["provider"] });
    expect((await s.post("model", { provider: "fake", modelId: "nope" })).body.error).toMatchObject({ code: "VALIDATION_FAILED", fields: ["modelId"] });
    expect((await s.post("model", { provider: "fake" })).body.error.fields).toEqual(["modelId"]);

    await s.post("model", { provider: "claude", modelId: "claude-fake" });
    await s.post("thinking", { level: "low" });
    await anthropic.script({ reasoning: ["hmm"], text: ["Claude here."], usage: { input: 10, output: 5 } });
    await s.post("messages", { message: "and you?" });
    const frames = await untilFinish(s.stream);
    expect(chunkTypes(frames)).toEqual(expect.arrayContaining(["reasoning-delta", "text-delta"]));
    const [claude] = await anthropic.requests();
    expect(claude!.body).toMatchObject({ model: "claude-fake", stream: true, thinking: { type: "enabled", budget_tokens: 2048 } });
    expect(claude!.headers["x-api-key"]).toBe(fakes.anthropic.apiKey);
    await s.stream.cancel();
  });

  it("sends Anthropic's thinking back signed with the tool call it led to, and the tool's result after it", async () => {
    const s = await followed();
    await s.post("model", { provider: "claude", modelId: "claude-fake" });
    await anthropic.script(
      { reasoning: ["I should ", "look it up."], text: ["Checking."], toolCalls: [{ name: "get_search_content", arguments: { responseId: "none" } }], usage: { input: 10, output: 5 } },
      { text: ["Nothing stored."], usage: { input: 30, output: 5 } },
    );
    await s.post("messages", { message: "what is stored?" });
    const frames = await untilFinish(s.stream);
    expect(chunkTypes(frames).filter((t) => t === "start-step")).toHaveLength(2);
    const requests = await anthropic.requests();
    expect(requests).toHaveLength(2);
    const [assistant, results] = requests[1]!.body.messages.slice(-2);
    expect(assistant).toMatchObject({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should look it up.", signature: "fake-signature" },
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "toolu_1", name: "get_search_content", input: { responseId: "none" } },
      ],
    });
    expect(results).toMatchObject({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true }] });
    expect(JSON.stringify(results.content[0].content)).toMatch(/NOT_FOUND/);
    await s.stream.cancel();
  });

  it("ends a turn whose provider refuses the key with an error saying what to do, keeps the session working, and never shows a key", async () => {
    const wrongKey = agentEnv({ modelProviders: { ...PROVIDERS, fake: { ...PROVIDERS.fake, apiKey: "sk-wrong-key-0123456789" } } });
    const s = await followed(wrongKey);
    await s.post("messages", { message: "hi" });
    const frames = await untilFinish(s.stream);
    expect(chunkTypes(frames)).toEqual(["start", "error", "finish"]);
    expect(frames[1]!.data.chunk.errorText).toMatch(/HTTP 401.*auth\.modelProviders\.fake\.apiKey/);
    const everything = JSON.stringify([frames, (await s.get("messages")).body, (await s.get("state")).body, (await s.get("stats")).body]);
    for (const key of [fakes.openai.apiKey, fakes.anthropic.apiKey, "sk-wrong-key-0123456789"]) expect(everything).not.toContain(key);
    await openai.script({ text: ["ok"] });
    expect((await call("POST", `/api/sessions/${s.id}/messages`, { message: "again, with the key fixed" }, ENV)).status).toBe(200);
    expect(chunkTypes(await untilFinish(s.stream))).toContain("text-delta");
    await s.stream.cancel();
  });

  it("says what to check when the provider answers 404 or another 4xx, or cannot be reached", async () => {
    const s = await followed();
    for (const [status, expected] of [
      [404, /HTTP 404: check the model id .*auth\.modelProviders\.fake\.baseURL/],
      [400, /rejected the request \(HTTP 400\); check the model and its settings/],
    ] as const) {
      await openai.script({ status });
      await s.post("messages", { message: `answer ${status}` });
      expect((await untilFinish(s.stream)).find((f) => f.data.chunk?.type === "error")!.data.chunk.errorText).toMatch(expected);
    }
    await s.stream.cancel();
    // A port nothing listens on: the connection is refused.
    const nowhere = agentEnv({ modelProviders: { ...PROVIDERS, fake: { ...PROVIDERS.fake, baseURL: "http://127.0.0.2:9/v1" } } });
    const unreachable = await followed(nowhere);
    await unreachable.post("messages", { message: "hi" });
    expect((await untilFinish(unreachable.stream)).find((f) => f.data.chunk?.type === "error")!.data.chunk.errorText).toMatch(/could not be reached; check auth\.modelProviders\.fake\.baseURL/);
    await unreachable.stream.cancel();
  });

  it("retries a 429 honouring a short Retry-After, and says when to retry after a long one", async () => {
    await openai.script({ status: 429, headers: { "retry-after": "0" } }, { text: ["after a retry"] });
    const s = await followed();
    await s.post("messages", { message: "hi" });
    expect(chunkTypes(await untilFinish(s.stream))).toContain("text-delta");
    expect(await openai.requests()).toHaveLength(2);
    await openai.script({ status: 429, headers: { "retry-after": "30" } });
    await s.post("messages", { message: "hi again" });
    const frames = await untilFinish(s.stream);
    expect(frames.find((f) => f.data.chunk.type === "error")!.data.chunk.errorText).toMatch(/HTTP 429.*retry after 30 s/);
    await s.stream.cancel();
  });

  it("ends a turn with an error saying what to do when the model goes silent, fails with 5xx after retries, or sends a malformed stream", async () => {
    const impatient = agentEnv({ agent: { modelTimeoutMs: 300 } });
    await openai.script({ hang: true });
    const s = await followed(impatient);
    await s.post("messages", { message: "hi" });
    const silent = await untilFinish(s.stream);
    expect(silent.find((f) => f.data.chunk.type === "error")!.data.chunk.errorText).toMatch(/nothing for 300 ms \(settings\.agent\.modelTimeoutMs\)/);
    await waitFor(async () => (await openai.requests())[0]!.aborted, "the silent call to be closed");

    // Silent after it started: what came is kept, then the same error.
    await openai.script({ text: ["first ", "words ", "never", " end"], stallAfter: 2 });
    await s.post("messages", { message: "hi again" });
    const stalled = await untilFinish(s.stream);
    expect(chunkTypes(stalled)).toContain("text-delta");
    expect(stalled.find((f) => f.data.chunk.type === "error")!.data.chunk.errorText).toMatch(/nothing for 300 ms/);
    await waitFor(async () => (await openai.requests())[1]!.aborted, "the stalled call to be closed");

    await openai.script({ status: 503 }, { status: 503 }, { status: 503 });
    await s.post("messages", { message: "hi" });
    const down = await untilFinish(s.stream);
    expect(down.find((f) => f.data.chunk.type === "error")!.data.chunk.errorText).toMatch(/unavailable \(HTTP 503\) after retries/);
    expect((await openai.requests()).length).toBe(5);

    await openai.script({ malformed: true, text: ["still here"] });
    await s.post("messages", { message: "hi" });
    const broken = await untilFinish(s.stream);
    expect(broken.find((f) => f.data.chunk.type === "error")!.data.chunk.errorText).toMatch(/malformed stream/);
    expect(chunkTypes(broken).at(-1)).toBe("finish");
    await s.stream.cancel();
  });

  it("shows a call of an unknown tool once, as its input and error, a call with bad input as INVALID_INPUT, tells the model both and goes on", async () => {
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: 42 } }, { name: "no_such_tool", arguments: {} }] }, { text: ["fixed"] });
    const s = await followed();
    await s.post("messages", { message: "go" });
    const frames = await untilFinish(s.stream);
    const about = (type: string) => frames.filter((f) => f.data.chunk.type === type).map((f) => f.data.chunk);
    // AI SDK v7's tool-input-error, which pi-web's protocol (AI SDK v5) does not have, is the call's input and then its error.
    expect(about("tool-input-error")).toEqual([]);
    const unknown = about("tool-input-available").find((c) => c.toolName === "no_such_tool");
    const errors = about("tool-output-error");
    expect(errors).toHaveLength(2);
    expect(errors.find((c) => c.toolCallId === unknown.toolCallId).errorText).toMatch(/no_such_tool/);
    expect(errors.find((c) => c.toolCallId !== unknown.toolCallId).errorText).toMatch(/^INVALID_INPUT: url/);
    expect(chunkTypes(frames)).toContain("text-delta");
    // The model's next call carries both refusals as tool results.
    const second = (await openai.requests())[1]!.body.messages.filter((m: any) => m.role === "tool");
    expect(second).toHaveLength(2);
    const stored = (await s.get("messages?format=ui")).body.messages.at(-1);
    expect(stored.parts.filter((p: any) => p.state === "output-error")).toHaveLength(2);
    await s.stream.cancel();
  });

  it("gives the model a call whose arguments are not JSON back as a call with no input and its parse error", async () => {
    await openai.script({ toolCalls: [{ id: "call_bad", name: "fetch_content", arguments: '{"url": "http://a' }] }, { text: ["sorry"] });
    const s = await followed();
    await s.post("messages", { message: "go" });
    const frames = await untilFinish(s.stream);
    expect(frames.filter((f) => f.data.chunk.type === "tool-output-error").map((f) => f.data.chunk.toolCallId)).toEqual(["call_bad"]);
    const sent = (await openai.requests())[1]!.body.messages;
    const call = sent.find((m: any) => m.role === "assistant").tool_calls[0];
    expect(call).toMatchObject({ id: "call_bad", function: { name: "fetch_content", arguments: "{}" } });
    expect(sent.find((m: any) => m.role === "tool")).toMatchObject({ tool_call_id: "call_bad", content: expect.stringMatching(/JSON/i) });
    await s.stream.cancel();
  });

  it("does not join a steer to an answer cut off at its length limit: the steer runs as a turn of its own", async () => {
    await openai.script({ text: ["a ", "long ", "answer"], finish: "length", delayMs: 150 }, { text: ["steered"] });
    const s = await followed();
    await s.post("messages", { message: "write at length" });
    await waitFor(async () => (await openai.requests()).length === 1, "the first model call");
    expect((await s.post("steer", { message: "Shorter, please." })).status).toBe(200);
    const first = await untilFinish(s.stream);
    expect(first.some((f) => f.data.chunk?.data?.delivered)).toBe(false);
    const second = await untilFinish(s.stream);
    expect(chunkTypes(second)).toContain("text-delta");
    expect(second[0]!.data.chunk.messageId).not.toBe(first[0]!.data.chunk.messageId);
    const requests = await openai.requests();
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "Shorter, please." });
    await s.stream.cancel();
  });

  it("runs a step's tool calls at once, shows each result as it comes and gives the model them in the order they were called", async () => {
    await openai.script(
      {
        toolCalls: [
          { id: "call_slow", name: "fetch_content", arguments: { url: `${origin}/delay?ms=300&chars=40&char=s` } },
          { id: "call_quick", name: "get_search_content", arguments: { responseId: "none" } },
        ],
      },
      { text: ["both read"] },
    );
    const s = await followed();
    await s.post("messages", { message: "read both" });
    const frames = await untilFinish(s.stream);
    const outputs = frames.filter((f) => f.data.chunk.type?.startsWith("tool-output-")).map((f) => f.data.chunk.toolCallId);
    expect(outputs).toEqual(["call_quick", "call_slow"]);
    const types = chunkTypes(frames);
    expect(types.indexOf("finish-step")).toBeGreaterThan(frames.findIndex((f) => f.data.chunk.toolCallId === "call_slow" && f.data.chunk.type === "tool-output-available"));
    const tools = (await openai.requests())[1]!.body.messages.filter((m: any) => m.role === "tool");
    expect(tools.map((m: any) => m.tool_call_id)).toEqual(["call_slow", "call_quick"]);
    expect(tools[0].content).toContain("ssss");
    expect(tools[1].content).toMatch(/NOT_FOUND/);
    await s.stream.cancel();
  });

  it("aborts while a tool call runs: the call is cancelled, nothing after the abort, and the next message works", async () => {
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin}/slow` } }] });
    const s = await followed();
    await s.post("messages", { message: "read the slow page" });
    const before: ReadFrame[] = [];
    while (!before.some((f) => f.data?.chunk?.type === "tool-input-available")) before.push(await nextFrame(s.stream));
    expect((await s.post("abort")).status).toBe(200);
    expect((await s.get("state")).body.state.isStreaming).toBe(false);
    const after = chunkTypes(await untilFinish(s.stream));
    expect(after).toEqual(["abort", "finish"]);
    expect(await openai.requests()).toHaveLength(1);
    await openai.script({ text: ["fine"] });
    expect((await s.post("messages", { message: "again" })).status).toBe(200);
    expect(chunkTypes(await untilFinish(s.stream))).toContain("text-delta");
    await s.stream.cancel();
  });

  it("stops at settings.agent.maxSteps and says so", async () => {
    const steps = agentEnv({ agent: { maxSteps: 2 } });
    const call = { toolCalls: [{ name: "get_search_content", arguments: { responseId: "none" } }] };
    await openai.script(call, call, { text: ["never"] });
    const s = await followed(steps);
    await s.post("messages", { message: "loop" });
    const frames = await untilFinish(s.stream);
    expect(await openai.requests()).toHaveLength(2);
    const text = frames.filter((f) => f.data.chunk.type === "text-delta").map((f) => f.data.chunk.delta).join("");
    expect(text).toMatch(/Stopped after 2 model calls.*settings\.agent\.maxSteps/);
    expect(frames.filter((f) => f.data.chunk.type === "tool-output-error")).toHaveLength(2);
    await s.stream.cancel();
  });

  it("replays a whole turn to a client that reconnects with Last-Event-ID", async () => {
    await openai.script({ text: ["re", "play"] });
    const s = await followed();
    await s.post("messages", { message: "hi" });
    const live = await untilFinish(s.stream);
    await s.stream.cancel();
    const replay = sseReader((await openStream(s.id, { "Last-Event-ID": "0" }, ENV)).body!);
    const replayed = await untilFinish(replay);
    expect(replayed.map((f) => f.id)).toEqual(live.map((f) => f.id));
    expect(replayed.map((f) => f.data)).toEqual(live.map((f) => f.data));
    await replay.cancel();
  });

  it("writes a finished turn after its last frames: the question and the answer survive a restart, with no marker left", async () => {
    await openai.script({ text: ["kept"] });
    const s = await followed();
    await s.post("messages", { message: "keep this" });
    await untilFinish(s.stream);
    const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(s.id));
    const stored = () =>
      runInDurableObject(stub, (_instance, state: DurableObjectState) => ({
        messages: state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n,
        marker: state.storage.kv.get("turn") !== undefined,
      }));
    await waitFor(async () => (await stored()).messages === 2, "the turn to be written");
    expect(await stored()).toEqual({ messages: 2, marker: false });
    await expect(runInDurableObject(stub, (_instance, state: DurableObjectState) => state.abort("restart"))).rejects.toThrow("restart");
    await s.stream.cancel().catch(() => {});
    const { messages } = (await s.get("messages?format=ui")).body;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect((await s.get("state")).body.state.isStreaming).toBe(false);
  });

  it("closes a turn a restart cut short with an interrupted error, keeps the history consistent, and takes the next message", async () => {
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin}/slow` } }] });
    const s = await followed();
    await s.post("messages", { message: "fetch the slow page" });
    await waitFor(async () => (await s.get("messages")).body.messages.length >= 1 && (await openai.requests()).length === 1, "the turn to start");
    // The restart comes while the step's tool call runs (the slow page answers after 5 s).
    await waitFor(async () => (await s.stream.next())?.data?.chunk?.type === "tool-input-available", "the tool call to start");
    const stub = bindings.SESSIONS.get(bindings.SESSIONS.idFromName(s.id));
    // abort() resets the object as a restart would; the call that asked for it fails with the reason.
    await expect(runInDurableObject(stub, (_instance, state: DurableObjectState) => state.abort("restart"))).rejects.toThrow("restart");
    await s.stream.cancel().catch(() => {});
    const after = sseReader((await openStream(s.id, {}, ENV)).body!);
    const state = (await s.get("state")).body.state;
    expect(state.isStreaming).toBe(false);
    const closing = await untilFinish(after);
    expect(closing.find((f) => f.data.chunk.type === "error")!.data.chunk.errorText).toMatch(/^interrupted/);
    const { messages } = (await s.get("messages?format=ui")).body;
    // The step cut short was never finished, so none of it is kept: the history is the question, closed.
    expect(messages.map((m: any) => m.role)).toEqual(["user"]);
    await openai.script({ text: ["back"] });
    expect((await s.post("messages", { message: "again" })).status).toBe(200);
    expect(chunkTypes(await untilFinish(after))).toContain("text-delta");
    await after.cancel();
  });
});

describe("approvals (sandbox.askBeforeFetch)", () => {
  const asking = agentEnv({ askBeforeFetch: true });

  it("asks before each tool call; confirmed, it runs; denied, nothing is fetched and the model is told", async () => {
    const page = `${origin}/notes.txt?approval=${crypto.randomUUID()}`;
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: page } }] }, { text: ["read it"] });
    const s = await followed(asking);
    await s.post("messages", { message: "read" });
    const asked: ReadFrame[] = [];
    while (!asked.some((f) => f.data?.payload?.control === "extension-ui")) asked.push(await nextFrame(s.stream));
    const request = asked.at(-1)!.data.payload.request;
    const call = asked.find((f) => f.data.chunk?.type === "tool-input-available")!.data.chunk;
    expect(request).toMatchObject({ type: "extension_ui_request", method: "confirm", title: expect.stringMatching(/fetch_content/), message: expect.stringContaining(page), toolCallId: call.toolCallId });
    expect((await s.post("ui-response", { id: "ui_unknown", confirmed: true })).body.error.code).toBe("UNKNOWN_EXTENSION_UI");
    expect((await s.post("ui-response", { id: request.id, confirmed: true })).status).toBe(200);
    expect((await s.post("ui-response", { id: request.id, confirmed: true })).status).toBe(409);
    const rest = await untilFinish(s.stream);
    // The answer shows as the call's outcome: pi-web's protocol has no approval chunks.
    const types = chunkTypes([...asked, ...rest]);
    expect(types).toContain("tool-output-available");
    expect(types.filter((t) => t.startsWith("tool-approval"))).toEqual([]);

    const denied = `${origin}/notes.txt?denied=${crypto.randomUUID()}`;
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: denied } }] }, { text: ["ok, I won't"] });
    await s.post("messages", { message: "read another" });
    let ask: any;
    while (!ask) {
      const frame = await nextFrame(s.stream);
      if (frame.data?.payload?.control === "extension-ui") ask = frame.data.payload.request;
    }
    expect((await s.post("ui-response", { id: ask.id, confirmed: false })).status).toBe(200);
    const end = await untilFinish(s.stream);
    expect(end.find((f) => f.data.chunk.type === "tool-output-error")!.data.chunk.errorText).toMatch(/^DENIED/);
    const requests = await openai.requests();
    expect(JSON.stringify(requests.at(-1)!.body.messages)).toContain("did not allow");
    const stats = (await s.get("stats")).body.stats;
    expect(stats.web.pagesFetched).toBe(1);

    // A call that could not run is refused without asking.
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: 42 } }] }, { text: ["no URL then"] });
    await s.post("messages", { message: "read nothing" });
    const invalid = await untilFinish(s.stream);
    expect(invalid.find((f) => f.data.chunk?.type === "tool-output-error")!.data.chunk.errorText).toMatch(/^INVALID_INPUT/);
    expect(invalid.some((f) => f.data?.payload?.control === "extension-ui")).toBe(false);
    await s.stream.cancel();
  });

  it("says what each call will fetch: a search's result pages with includeContent, a document's URL or attachment", async () => {
    const calls = [
      [{ name: "web_search", arguments: { query: "edge tools", includeContent: true, numResults: 3 } }, /^Search the web for "edge tools", then fetch each result's page \(up to 3 per query\)$/],
      [{ name: "web_search", arguments: { queries: ["a", "b"], includeContent: true } }, /^Search the web for "a", "b", then fetch each result's page$/],
      [{ name: "web_search", arguments: { query: "edge tools" } }, /^Search the web for "edge tools"; no result page is fetched$/],
      [{ name: "fetch_content", arguments: { urls: [`${origin}/a.txt`, `${origin}/b.txt`] } }, new RegExp(`^Fetch ${origin}/a\\.txt, ${origin}/b\\.txt$`)],
      [{ name: "convert_content", arguments: { url: `${origin}/report.pdf` } }, new RegExp(`^Read the document ${origin}/report\\.pdf$`)],
      [{ name: "convert_content", arguments: { attachmentId: "att_123" } }, /^Read the document attachment att_123$/],
    ] as const;
    const s = await followed(asking);
    for (const [toolCall, message] of calls) {
      await openai.script({ toolCalls: [toolCall] }, { text: ["understood"] });
      await s.post("messages", { message: "go" });
      let ask: any;
      while (!ask) {
        const frame = await nextFrame(s.stream);
        if (frame.data?.payload?.control === "extension-ui") ask = frame.data.payload.request;
      }
      expect(ask).toMatchObject({ title: `Allow ${toolCall.name}?`, message: expect.stringMatching(message) });
      // Denied, so nothing is fetched for the check.
      expect((await s.post("ui-response", { id: ask.id, confirmed: false })).status).toBe(200);
      await untilFinish(s.stream);
      await waitFor(async () => !(await s.get("state")).body.state.isStreaming, "idle");
    }
    await s.stream.cancel();
  });

  it("asks before a crawl, saying how many pages at most; confirmed, the crawl runs and the model reads its pages' responseIds", async () => {
    const start = `${origin}/notes.txt?crawl=${crypto.randomUUID()}`;
    await openai.script({ toolCalls: [{ name: "crawl", arguments: { url: start, limit: 2, maxDepth: 1, sources: "links", waitMs: 15_000 } }] }, { text: ["crawled"] });
    const s = await followed(asking);
    await s.post("messages", { message: "crawl the notes" });
    let ask: any;
    while (!ask) {
      const frame = await nextFrame(s.stream);
      if (frame.data?.payload?.control === "extension-ui") ask = frame.data.payload.request;
    }
    expect(ask).toMatchObject({ title: "Allow crawl?", message: `Crawl ${start}: up to 2 pages, 1 links deep` });
    expect((await s.post("ui-response", { id: ask.id, confirmed: true })).status).toBe(200);
    const rest = await untilFinish(s.stream);
    const output = rest.find((f) => f.data.chunk?.type === "tool-output-available")!.data.chunk.output;
    expect(output).toMatchObject({ status: "completed", counts: { fetched: 1 }, pages: [{ url: start, status: "fetched", responseId: expect.any(String) }] });
    const requests = await openai.requests();
    expect(requests.filter((r) => JSON.stringify(r.body.messages).includes(output.pages[0].responseId))).toHaveLength(1);
    await s.stream.cancel();
  });
});

describe("the session's agent endpoints", () => {
  it("answers needSettings to a settings id the object does not hold, starting no turn and keeping no message", async () => {
    const s = await followed();
    const sessions = bindings.SESSIONS as DurableObjectNamespace<SessionObject>;
    const stub = sessions.get(sessions.idFromName(s.id));
    expect(await stub.prompt({ message: "hi" }, "an id it never saw")).toEqual({ needSettings: true });
    expect(await stub.steer({ message: "hi" }, "an id it never saw")).toEqual({ needSettings: true });
    expect(await stub.followUp({ message: "hi" }, "an id it never saw")).toEqual({ needSettings: true });
    expect(await stub.callTool("get_search_content", { responseId: "none" }, "an id it never saw")).toEqual({ needSettings: true });
    expect(await stub.compact(undefined, "an id it never saw")).toEqual({ needSettings: true });
    expect((await openai.requests()).length).toBe(0);
    expect((await s.get("messages")).body.messages).toEqual([]);
    await s.stream.cancel();
  });

  it("runs slash commands with no model configured, streamed as tool calls", async () => {
    const id = await newSession();
    const stream = sseReader((await openStream(id)).body!);
    expect((await call("POST", `/api/sessions/${id}/messages`, { message: `/fetch ${origin}/notes.txt` })).status).toBe(200);
    const frames = await untilFinish(stream);
    expect(chunkTypes(frames)).toEqual(["start", "tool-input-available", "tool-output-available", "finish"]);
    const responseId = frames[2]!.data.chunk.output.responseId;
    expect((await call("POST", `/api/sessions/${id}/messages`, { message: `/get @${responseId}` })).status).toBe(200);
    expect((await untilFinish(stream))[2]!.data.chunk.output.result.results[0].content).toContain("plain notes");
    // Not one of ours: an ordinary message, which needs a model like any other.
    expect((await call("POST", `/api/sessions/${id}/messages`, { message: "/nope x" })).body.error).toMatchObject({ code: "MODEL_NOT_CONFIGURED" });
    expect((await call("POST", `/api/sessions/${id}/messages`, { message: "/search" })).body.error.message).toMatch(/\/search <query>/);
    const { messages } = (await call("GET", `/api/sessions/${id}/messages?format=ui`)).body;
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    await stream.cancel();
  });

  it("forks: lists user messages, cuts the history before one and answers its text; unknown entries are 404", async () => {
    await openai.script({ text: ["first answer"] }, { text: ["second answer"] });
    const s = await followed();
    await s.post("messages", { message: "first question" });
    await untilFinish(s.stream);
    await waitFor(async () => !(await s.get("state")).body.state.isStreaming, "idle");
    await s.post("messages", { message: "second question" });
    await untilFinish(s.stream);
    await waitFor(async () => !(await s.get("state")).body.state.isStreaming, "idle");
    const { messages } = (await s.get("fork-messages")).body;
    expect(messages.map((m: any) => m.text)).toEqual(["first question", "second question"]);
    const forked = await s.post("fork", { entryId: messages[1].entryId });
    expect(forked.body).toMatchObject({ text: "second question" });
    expect((await s.get("messages?format=ui")).body.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect((await s.post("fork", { entryId: "msg_unknown" })).status).toBe(404);
    await s.stream.cancel();
  });

  it("completes / with commands and @ with stored results", async () => {
    const id = await newSession();
    const fetched = await tool(id, "fetch_content", { url: `${origin}/article.html` });
    const triggers = await call("GET", `/api/sessions/${id}/completion/triggers`);
    expect(triggers.body.triggers.map((t: any) => [t.trigger, t.extract])).toEqual([["/", "lineStart"], ["@", "wordTail"]]);
    const slash = await call("GET", `/api/sessions/${id}/completion?trigger=/&q=fe`);
    expect(slash.body).toMatchObject({
      items: [{ providerId: "commands", kind: "command", id: "fetch", label: "/fetch <url> [url…]", detail: expect.any(String), insertText: "/fetch" }],
      groups: [{ kind: "command", count: 1 }],
    });
    // query= is still read when q= is absent; q= wins.
    expect((await call("GET", `/api/sessions/${id}/completion?trigger=/&query=co`)).body.items.map((i: any) => i.id)).toEqual(["convert", "compact"]);
    expect((await call("GET", `/api/sessions/${id}/completion?trigger=/&q=se&query=co`)).body.items.map((i: any) => i.id)).toEqual(["search"]);
    const at = await call("GET", `/api/sessions/${id}/completion?trigger=@&q=`);
    expect(at.body.items[0]).toMatchObject({ providerId: "results", kind: "result", id: fetched.body.responseId, label: "Local Article", insertText: `@${fetched.body.responseId}` });
  });

  it("answers no items for an unknown or missing completion trigger, as pi-web's server does", async () => {
    const id = await newSession();
    for (const query of ["trigger=%23&q=x", "q=x"]) {
      expect(await call("GET", `/api/sessions/${id}/completion?${query}`)).toMatchObject({ status: 200, body: { items: [], groups: [] } });
    }
  });

  it("answers at most 30 completions, newest stored results first", async () => {
    const id = await newSession();
    const ids: string[] = [];
    for (let i = 0; i < 31; i++) ids.push((await tool(id, "fetch_content", { url: `${origin}/notes.txt` })).body.responseId);
    const { items, groups } = (await call("GET", `/api/sessions/${id}/completion?trigger=@&q=`)).body;
    expect(items.map((i: any) => i.id)).toEqual(ids.reverse().slice(0, 30));
    expect(groups).toEqual([{ kind: "result", count: 30 }]);
  });

  it("refuses slash commands and forks while a turn runs, saying to wait or abort; the turn is unharmed", async () => {
    await openai.script({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin}/slow` } }] }, { text: ["done"] });
    const s = await followed();
    await s.post("messages", { message: "fetch the slow page" });
    await waitFor(async () => (await openai.requests()).length === 1, "the turn to start");
    const command = await s.post("messages", { message: "/search cats" });
    expect(command).toMatchObject({ status: 409, body: { error: { code: "SESSION_BUSY" } } });
    expect(command.body.error.message).toContain("POST /abort");
    const [user] = (await s.get("fork-messages")).body.messages;
    const fork = await s.post("fork", { entryId: user.entryId });
    expect(fork).toMatchObject({ status: 409, body: { error: { code: "SESSION_BUSY" } } });
    expect(chunkTypes(await untilFinish(s.stream))).toContain("text-delta");
    await s.stream.cancel();
  });

  it("answers a worker AGENT_CONFIG that is not JSON or not valid with what to fix, never its values", async () => {
    for (const AGENT_CONFIG of ["{not json", JSON.stringify({ modelProviders: { x: { api: "nope", baseURL: "http://127.0.0.2:9/v1", apiKey: "sk-secret-do-not-echo" } } })]) {
      const id = await newSession();
      const res = await call("POST", `/api/sessions/${id}/messages`, { message: "hi" }, { ...ENV, AGENT_CONFIG });
      expect(res.status).toBe(500);
      expect(res.body.error.message).toMatch(/AGENT_CONFIG/);
      expect(JSON.stringify(res.body)).not.toContain("sk-secret-do-not-echo");
    }
  });

  it("answers ui-rpc requests on the stream, paired by correlationId, failures as { code, message }", async () => {
    const id = await newSession();
    const fetched = await tool(id, "fetch_content", { url: `${origin}/notes.txt` });
    const stream = sseReader((await openStream(id)).body!);
    const rpc = async (body: object) => {
      expect((await call("POST", `/api/sessions/${id}/ui-rpc`, body)).status).toBe(200);
      const [frame] = await stream.take(1);
      return frame!.data.payload;
    };
    expect(await rpc({ correlationId: "c1", method: "results.list" })).toMatchObject({ control: "ui-rpc", response: { correlationId: "c1", ok: true, result: { results: [{ responseId: fetched.body.responseId, kind: "fetch" }] } } });
    expect((await rpc({ correlationId: "c2", method: "results.get", params: { responseId: fetched.body.responseId } })).response.result.kind).toBe("fetch");
    expect((await rpc({ correlationId: "c3", method: "session.stats" })).response.result.toolCalls).toBe(1);
    expect((await rpc({ correlationId: "c5", method: "results.get" })).response).toMatchObject({ ok: false, error: { code: "VALIDATION_FAILED", message: expect.stringContaining("params { responseId") } });
    expect((await rpc({ correlationId: "c6", method: "results.get", params: { responseId: "nope" } })).response).toMatchObject({ ok: false, error: { code: "NOT_FOUND", message: expect.stringContaining('"nope"') } });
    expect(await rpc({ correlationId: "c4", method: "nope" })).toMatchObject({ response: { correlationId: "c4", ok: false, error: { code: "VALIDATION_FAILED", message: expect.stringMatching(/the methods are results\.list, results\.get, session\.stats/) } } });
    // pi-web's shape: the same methods under the custom point, and @ mentions of the stored results.
    expect((await rpc({ correlationId: "p1", point: "custom", action: "execute", payload: { method: "session.stats" }, protocolVersion: "0.1.0" })).response.result.toolCalls).toBe(1);
    expect((await rpc({ correlationId: "p2", point: "mention", action: "resolve", payload: { q: "notes" }, protocolVersion: "0.1.0" })).response.result).toEqual([{ id: fetched.body.responseId, label: expect.stringContaining("notes.txt"), kind: "fetch" }]);
    expect((await rpc({ correlationId: "p3", point: "slash", action: "execute", payload: { id: "x" } })).response).toMatchObject({ ok: false, error: { code: "VALIDATION_FAILED", message: expect.stringContaining("slash execute") } });
    for (const body of [{ method: "x" }, { correlationId: "", method: "x" }, { correlationId: "c", point: "nowhere", action: "list" }]) {
      expect((await call("POST", `/api/sessions/${id}/ui-rpc`, body)).status).toBe(400);
    }
    await stream.cancel();
  });

  it("lists the configured models on the session in pi's Model shape, and in the config API, minus hidden providers", async () => {
    const narrow = agentEnv({ agent: { compaction: { defaultContextWindow: 32_000 } } });
    const id = await newSession(narrow);
    const listed = await call("GET", `/api/sessions/${id}/models`, undefined, narrow);
    expect(listed.body.providers).toEqual(["fake", "claude"]);
    const { models } = v.parse(PiGetAvailableModelsResponseSchema, listed.body);
    expect(models).toEqual([
      // The operator's loopback URL is not shown: baseUrl is empty for every model.
      { id: "fake-gpt", name: "Fake GPT", api: "openai-completions", provider: "fake", baseUrl: "", reasoning: true, input: ["text", "image"], cost: { input: 2, output: 8, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 128_000 },
      { id: "fake-mini", name: "fake-mini", api: "openai-completions", provider: "fake", baseUrl: "", reasoning: true, input: ["text", "image"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 32_000, maxTokens: 32_000 },
      { id: "claude-fake", name: "claude-fake", api: "anthropic-messages", provider: "claude", baseUrl: "", reasoning: true, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 }, contextWindow: 32_000, maxTokens: 32_000 },
    ]);
    for (const url of [fakes.openai.baseURL, fakes.anthropic.baseURL]) expect(JSON.stringify(listed.body)).not.toContain(new URL(url).host);
    const listedByServer = agentEnv({ modelProviders: { local: { api: "openai-compatible", baseURL: fakes.openai.baseURL, apiKey: fakes.openai.apiKey } } });
    const fromServer = await call("GET", "/api/config/models", undefined, listedByServer);
    expect(fromServer.body.models.map((m: any) => m.id)).toEqual(["fake-gpt", "fake-mini"]);
    const hidden = await call("GET", "/api/config/models", undefined, { ...ENV, PI_WEB_HIDE_PROVIDERS: "claude" });
    expect(hidden.body.providers).toEqual(["fake"]);
    expect(hidden.body.models.every((m: any) => m.provider === "fake")).toBe(true);
  });

  it("gives the model a mentioned stored result, images as image parts and text files as text", async () => {
    const s = await followed();
    const fetched = await tool(s.id, "fetch_content", { url: `${origin}/article.html` }, ENV);
    await untilFinish(s.stream);
    const png = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a));
    await s.post("messages", { message: `Summarise @${fetched.body.responseId}`, images: [{ data: png, mimeType: "image/png" }] });
    await untilFinish(s.stream);
    const [request] = await openai.requests();
    const user = request!.body.messages.filter((m: any) => m.role === "user").at(-1);
    const text = JSON.stringify(user.content);
    expect(text).toContain("loopback origin");
    expect(user.content.some((p: any) => p.type === "image_url" && p.image_url.url.startsWith("data:image/png;base64,"))).toBe(true);
    const bad = await s.post("messages", { message: "x", images: [{ data: png, mimeType: "image/tiff" }] });
    expect(bad).toMatchObject({ status: 400, body: { error: { fields: ["images.0.mimeType"] } } });
    const missing = await s.post("messages", { message: "x", attachmentIds: ["att_nope"] });
    expect(missing.body.error.fields).toEqual(["attachmentIds.0"]);
    // The history keeps images as attachments of the session, shown through signed URLs.
    const secret = { ...ENV, ATTACHMENT_SECRET: "test-attachment-secret-0123456789" };
    const { messages } = (await call("GET", `/api/sessions/${s.id}/messages?format=ui`, undefined, secret)).body;
    const file = messages.flatMap((m: any) => m.parts).find((p: any) => p.type === "file");
    expect(file).toMatchObject({ mediaType: "image/png", url: expect.stringMatching(/^\/api\/attachments\/att_[\w-]+\/raw\?exp=\d+&sig=/) });
    await s.stream.cancel();
  });

  it("gives the model uploaded text files as text and refuses other types, saying which work", async () => {
    const upload = async (id: string, file: File) => {
      const form = new FormData();
      form.set("file", file);
      const { createApp } = await import("../src/app.ts");
      const res = await createApp().request(`/api/sessions/${id}/attachments`, { method: "POST", body: form }, { ...bindings, ...ENV, ATTACHMENT_SECRET: "test-attachment-secret-0123456789" });
      return ((await res.json()) as { attachment: { id: string } }).attachment.id;
    };
    const s = await followed();
    const notes = await upload(s.id, new File(["remember the milk"], "notes.txt", { type: "text/plain" }));
    const binary = await upload(s.id, new File([new Uint8Array([1, 2, 3])], "blob.bin", { type: "application/octet-stream" }));
    const refused = await s.post("messages", { message: "read", attachmentIds: [binary] });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_FAILED", fields: ["attachmentIds.0"] } } });
    expect(refused.body.error.message).toMatch(/images .* or text files/);
    await s.post("messages", { message: "read", attachmentIds: [notes] });
    await untilFinish(s.stream);
    const [request] = await openai.requests();
    expect(JSON.stringify(request!.body.messages.at(-1))).toContain("remember the milk");

    // Another session cannot hand this session's upload to its model.
    const other = await followed();
    const foreign = await other.post("messages", { message: "read", attachmentIds: [notes] });
    expect(foreign).toMatchObject({ status: 400, body: { error: { fields: ["attachmentIds.0"] } } });
    expect(JSON.stringify(foreign.body)).not.toContain("remember the milk");
    await other.stream.cancel();
  });
});
