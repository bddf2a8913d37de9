import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { createAnthropic } from "@ai-sdk/anthropic";
import { APICallError } from "ai";
import { describe, expect, inject, it } from "vitest";
import type { WireReplay } from "../../test-support/wire-replay.ts";
import { AnthropicModel } from "../src/agent/wire/anthropic-model.ts";
import { messagesBlock as block, messagesEvent as sse, replayCall as callOptions, normalised, partsOf, recordingFetch, JSON_RESULTS_PROMPT, MODEL_OUTPUTS_PROMPT, RESULT_PAGE, type SentRequest } from "./model-replay.ts";

const baseURL = `${inject("originUrl")}/replay`;
const KEY = "sk-ant-replay-key-0123456789";

const ours = (sent: SentRequest[] = []) => new AnthropicModel("claude-replay", { baseURL, apiKey: KEY, fetch: recordingFetch(sent) });
/** The AI SDK's own Anthropic provider, as the agent used it before: the reference our parts are checked against. */
const sdks = (sent: SentRequest[] = []) => createAnthropic({ baseURL, apiKey: KEY, fetch: recordingFetch(sent) })("claude-replay");

const start = (usage: object = { input_tokens: 12, output_tokens: 1 }, id = "msg_1") =>
  sse("message_start", { message: { id, type: "message", role: "assistant", model: "claude-replay", content: [], stop_reason: null, stop_sequence: null, usage } });
const text = (index: number, ...pieces: string[]) => block(index, { type: "text", text: "" }, ...pieces.map((t) => ({ type: "text_delta", text: t })));
const end = (stop: string, usage: object = { output_tokens: 30 }, extra: object = {}) => [sse("message_delta", { delta: { stop_reason: stop, stop_sequence: null, ...extra }, usage }), sse("message_stop", {})];

/** Answers as Anthropic streams them: the parts ours reads must be the SDK provider's. */
const WIRE: Record<string, WireReplay> = {
  "text, with pings between events": { pieces: [start(), sse("ping", {}), ...text(0, "Hello", ", world"), sse("ping", {}), ...end("end_turn")] },
  "thinking with its signature, then text and two tool calls": {
    pieces: [
      start({ input_tokens: 20, output_tokens: 1, cache_read_input_tokens: 8, cache_creation_input_tokens: 4 }),
      ...block(0, { type: "thinking", thinking: "", signature: "" }, { type: "thinking_delta", thinking: "Read " }, { type: "thinking_delta", thinking: "both." }, { type: "signature_delta", signature: "sig-1" }),
      ...text(1, "Reading."),
      ...block(2, { type: "tool_use", id: "toolu_a", name: "fetch_content", input: {} }, { type: "input_json_delta", partial_json: "" }, { type: "input_json_delta", partial_json: '{"url":' }, { type: "input_json_delta", partial_json: '"https://a.test/"}' }),
      ...block(3, { type: "tool_use", id: "toolu_b", name: "fetch_content", input: {} }, { type: "input_json_delta", partial_json: '{"url":"https://b.test/"}' }),
      ...end("tool_use", { output_tokens: 44, output_tokens_details: { thinking_tokens: 9 } }),
    ],
  },
  "redacted thinking": { pieces: [start(), ...block(0, { type: "redacted_thinking", data: "opaque" }), ...text(1, "Done."), ...end("end_turn")] },
  "a tool call whose input came whole, and one with none": {
    pieces: [start(), ...block(0, { type: "tool_use", id: "toolu_w", name: "fetch_content", input: { url: "https://w.test/" } }), ...block(1, { type: "tool_use", id: "toolu_n", name: "fetch_content", input: {} }), ...end("tool_use")],
  },
  "stop reasons: max_tokens": { pieces: [start(), ...text(0, "Cut"), ...end("max_tokens")] },
  "stop reasons: a stop sequence": { pieces: [start(), ...text(0, "Until"), ...end("stop_sequence", { output_tokens: 3 }, { stop_sequence: "END" })] },
  "stop reasons: refusal, with its details": { pieces: [start(), ...text(0, "No."), ...end("refusal", { output_tokens: 2 }, { stop_details: { type: "refusal", category: "cyber", explanation: "policy" } })] },
  "stop reasons: pause_turn and the context window": { pieces: [start(), ...text(0, "a"), ...end("pause_turn"), start(undefined, "msg_2"), ...text(0, "b"), ...end("model_context_window_exceeded")] },
  "usage in iterations and a service tier": {
    pieces: [start({ input_tokens: 5, output_tokens: 1, service_tier: "standard" }), ...text(0, "x"), ...end("end_turn", { output_tokens: 9, iterations: [{ type: "message", input_tokens: 7, output_tokens: 11 }, { type: "compaction", input_tokens: 3, output_tokens: 2, cache_read_input_tokens: 1 }] })],
  },
  "an error after content has started": { pieces: [start(), sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }), sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Par" } }), sse("error", { error: { type: "overloaded_error", message: "Overloaded" } })] },
  "an event that is not JSON, then the answer goes on": { pieces: [start(), "event: content_block_delta\ndata: {oops\n\n", ...text(0, "ok"), ...end("end_turn")] },
  "a connection closed mid-message, after output": { pieces: [start(), sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }), sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Half" } })] },
  "a second message opened while the first is": { pieces: [start(), ...text(0, "a"), start(undefined, "msg_other"), ...text(1, "b"), ...end("end_turn")] },
  "a tool call made by another tool, with its caller": {
    pieces: [start(), ...block(0, { type: "tool_use", id: "toolu_c", name: "fetch_content", input: {}, caller: { type: "code_execution_20250825", tool_id: "srvtoolu_x" } }, { type: "input_json_delta", partial_json: '{"url":"https://c.test/"}' }), ...end("tool_use")],
  },
  "a message that starts with a tool call in it": {
    pieces: [
      sse("message_start", { message: { id: "msg_t", type: "message", role: "assistant", model: "claude-replay", content: [{ type: "tool_use", id: "toolu_s", name: "fetch_content", input: { url: "https://s.test/" } }], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } }),
      ...end("tool_use"),
    ],
  },
  "a container, safeguards and input transformations on the answer": {
    pieces: [
      sse("message_start", { message: { id: "msg_k", type: "message", role: "assistant", model: "claude-replay", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 }, container: { id: "cont_1", expires_at: "2026-12-31T00:00:00Z" }, input_transformations: [{ type: "truncated", path: "messages.0", reason: "too long" }] } }),
      ...text(0, "k"),
      ...end("end_turn", { output_tokens: 4 }, { container: { id: "cont_1", expires_at: "2026-12-31T00:00:00Z", skills: [{ type: "anthropic", skill_id: "pdf", version: "1" }] }, safeguard_results: [{ type: "dangerous_tool_use", status: { type: "passed" } }] }),
    ],
  },
  "pieces cut inside lines and characters": { body: [start(), ...text(0, "Parrots \u{1F99C} and é, 中文"), ...end("end_turn")].join(""), sliceBytes: 5 },
};

describe("the Anthropic model's streamed answers", () => {
  for (const [name, replay] of Object.entries(WIRE)) {
    it(`reads ${name} into the parts the AI SDK's provider makes of it`, async () => {
      const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
      expect(normalised(mine)).toEqual(normalised(reference));
      expect(mine.length).toBeGreaterThan(2);
    });
  }

  // The SDK's schema words its refusal of an unknown type at length; ours says what was not read. Both are the same error, and the answer goes on.
  for (const [name, unknown] of Object.entries({
    "a content block": [...text(0, "a"), ...block(1, { type: "hologram", data: "x" })],
    "a delta": block(0, { type: "text", text: "" }, { type: "text_delta", text: "a" }, { type: "telepathy_delta", thought: "x" }),
    "an event": [...text(0, "a"), sse("weather_report", { sky: "clear" })],
  })) {
    it(`makes ${name} of a type neither reader knows an error part, as the SDK's provider does, and reads on`, async () => {
      const replay = { pieces: [start(), ...unknown, ...text(5, "after"), ...end("end_turn")] };
      const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
      const unworded = (parts: unknown[]) => normalised(parts).map((part: { error?: { name: string } }) => (part.error ? { ...part, error: part.error.name } : part));
      expect(unworded(mine)).toEqual(unworded(reference));
      expect(unworded(mine)).toContainEqual({ type: "error", error: "AI_TypeValidationError" });
      expect(mine.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
    });
  }

  it("sends the request the SDK's provider sends, with thinking, betas from the call's headers and a tool choice", async () => {
    const replay = { pieces: [start(), ...text(0, "Hi"), ...end("end_turn")] };
    const extra: Partial<LanguageModelV4CallOptions> = {
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } },
      toolChoice: { type: "required" },
      maxOutputTokens: 4096,
    };
    const mine: SentRequest[] = [];
    const reference: SentRequest[] = [];
    const withBeta = (options: LanguageModelV4CallOptions) => ({ ...options, headers: { ...options.headers, "anthropic-beta": "some-beta-2025-01-01" } });
    await partsOf(ours(mine), withBeta(callOptions(replay, extra)));
    await partsOf(sdks(reference), withBeta(callOptions(replay, extra)));
    expect(mine).toEqual(reference);
    expect(mine[0]!.body).toMatchObject({ stream: true, thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: expect.any(Number), tool_choice: expect.any(Object) });
    expect(mine[0]!.headers).toMatchObject({ "x-api-key": KEY, "anthropic-version": "2023-06-01", "anthropic-beta": expect.stringContaining("some-beta-2025-01-01") });
  });

  it("sends the web tools' results as the SDK's provider sends the same results as JSON", async () => {
    const replay = { pieces: [start(), ...text(0, "Hi"), ...end("end_turn")] };
    const mine: SentRequest[] = [];
    const reference: SentRequest[] = [];
    await partsOf(ours(mine), callOptions(replay, { prompt: MODEL_OUTPUTS_PROMPT }));
    await partsOf(sdks(reference), callOptions(replay, { prompt: JSON_RESULTS_PROMPT }));
    expect(mine).toEqual(reference);
    const results = (mine[0]!.body as { messages: Array<{ content: Array<{ type: string; content?: unknown }> }> }).messages.flatMap((m) => m.content).filter((c) => c.type === "tool_result");
    expect(results[0]!.content).toBe(JSON.stringify(RESULT_PAGE));
  });

  it("fails the call as an HTTP refusal when the answer starts with an error, as the SDK does (so it is retried and described by its status)", async () => {
    const replay = { pieces: [sse("error", { error: { type: "overloaded_error", message: "Overloaded" } })] };
    const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
    expect(mine).toEqual(reference);
    expect(mine).toEqual([{ refused: { name: "AI_APICallError", message: "Overloaded", statusCode: 529 } }]);
  });

  it("gives an answer with no event at all its start alone, as the SDK does", async () => {
    const [mine, reference] = await Promise.all([partsOf(ours(), callOptions({ pieces: [] })), partsOf(sdks(), callOptions({ pieces: [] }))]);
    expect(normalised(mine)).toEqual(normalised(reference));
    expect(mine).toEqual([expect.objectContaining({ type: "stream-start" })]);
  });

  it("fails the call when the connection is reset before the first event, as the SDK does", async () => {
    const replay = { pieces: [], reset: true };
    const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
    expect(mine).toEqual([{ refused: expect.objectContaining({ name: "AI_APICallError" }) }]);
    expect((reference[0] as { refused?: { name: string } }).refused?.name).toBe("AI_APICallError");
  });

  it("fails the call as the SDK does when the answer's first event is not JSON", async () => {
    const replay = { pieces: ["event: message_start\ndata: {oops\n\n", start(), ...text(0, "x"), ...end("end_turn")] };
    const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
    expect(mine).toEqual(reference);
    expect(mine).toEqual([{ refused: expect.objectContaining({ message: "Expected a normalized Anthropic stream error" }) }]);
  });

  it("refuses as the SDK does: an HTTP error is an APICallError with its status, body and message", async () => {
    const body = JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 300000 tokens > 200000 maximum" } });
    const replay = { status: 400, headers: { "content-type": "application/json" }, pieces: [body] };
    const refusals = await Promise.all([ours(), sdks()].map((model) => model.doStream(callOptions(replay)).then(() => undefined, (error: unknown) => error)));
    for (const refusal of refusals) {
      expect(APICallError.isInstance(refusal)).toBe(true);
      expect(refusal).toMatchObject({ statusCode: 400, responseBody: body, isRetryable: false, message: "prompt is too long: 300000 tokens > 200000 maximum" });
    }
  });

  it("leaves an answer with blocks it does not read to the SDK's provider: a request with Anthropic's own tools", async () => {
    const replay = {
      pieces: [
        start(),
        ...block(0, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} }, { type: "input_json_delta", partial_json: '{"query":"rivers"}' }),
        ...block(1, { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [{ type: "web_search_result", url: "https://rivers.test/", title: "Rivers", encrypted_content: "enc", page_age: null }] }),
        ...text(2, "Rivers flow."),
        ...end("end_turn"),
      ],
    };
    const withSearch = callOptions(replay, { tools: [{ type: "provider", id: "anthropic.web_search_20250305", name: "web_search", args: {} }] });
    const [mine, reference] = await Promise.all([partsOf(ours(), withSearch), partsOf(sdks(), withSearch)]);
    expect(mine.length).toBeGreaterThan(3);
    expect(JSON.stringify(normalised(mine)).replace(/"id":"[^"]*"/g, "")).toBe(JSON.stringify(normalised(reference)).replace(/"id":"[^"]*"/g, ""));
    expect(mine.some((p) => (p as { type?: string }).type === "source")).toBe(true);
  });
});
