import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { OpenAICompatibleChatLanguageModel } from "@ai-sdk/openai-compatible";
import { APICallError } from "ai";
import { describe, expect, inject, it } from "vitest";
import type { WireReplay } from "../../test-support/wire-replay.ts";
import { OpenAICompatibleModel } from "../src/agent/wire/openai-compatible-model.ts";
import { MAX_ERROR_BODY_BYTES } from "../src/agent/wire/provider-call-error.ts";
import { replayCall as callOptions, normalised, partsOf, recordingFetch, JSON_RESULTS_PROMPT, MODEL_OUTPUTS_PROMPT, RESULT_PAGE, type SentRequest } from "./model-replay.ts";

const baseURL = `${inject("originUrl")}/replay`;
const KEY = "sk-replay-key-0123456789";

const ours = (sent: SentRequest[] = []) => new OpenAICompatibleModel("replay-model", { name: "replay", baseURL, apiKey: KEY, fetch: recordingFetch(sent) });
/** The AI SDK's own provider, as the agent used it before: the reference our parts are checked against. */
const sdks = (sent: SentRequest[] = []) =>
  new OpenAICompatibleChatLanguageModel("replay-model", {
    provider: "replay.chat",
    url: ({ path }) => `${baseURL}${path}`,
    headers: () => ({ authorization: `Bearer ${KEY}` }),
    fetch: recordingFetch(sent),
    includeUsage: true,
  });

const sse = (...events: unknown[]) => events.map((e) => `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`);
const head = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "replay-model" };
const delta = (d: object, finish: string | null = null) => ({ ...head, choices: [{ index: 0, delta: d, finish_reason: finish }] });
const usage = (u: object) => ({ ...head, choices: [], usage: u });

/** Answers as compatible servers send them: the parts ours reads must be the SDK provider's. */
const WIRE: Record<string, WireReplay> = {
  "text with usage": {
    pieces: sse(delta({ role: "assistant", content: "" }), delta({ content: "Hello" }), delta({ content: ", world" }), delta({}, "stop"), usage({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 }), "[DONE]"),
  },
  "reasoning_content, then text, then a tool call": {
    pieces: sse(
      delta({ role: "assistant", reasoning_content: "Think" }),
      delta({ reasoning_content: "ing." }),
      delta({ content: "I will read it." }),
      delta({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "fetch_content", arguments: "" } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"url":' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '"https://a.test/"}' } }] }),
      delta({}, "tool_calls"),
      usage({ prompt_tokens: 20, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 8 }, completion_tokens_details: { reasoning_tokens: 4 } }),
      "[DONE]",
    ),
  },
  "reasoning under `reasoning`, straight into a tool call": {
    pieces: sse(delta({ reasoning: "Plan." }), delta({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "fetch_content", arguments: '{"url":"https://b.test/"}' } }] }), delta({}, "tool_calls"), "[DONE]"),
  },
  "two tool calls, their pieces interleaved": {
    pieces: sse(
      delta({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "fetch_content", arguments: "" } }, { index: 1, id: "c2", type: "function", function: { name: "fetch_content", arguments: "" } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: '{"url":"https://2.test/"' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"url":"https://1.test/"}' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: "}" } }] }),
      delta({}, "tool_calls"),
      "[DONE]",
    ),
  },
  "a tool call without an id, its arguments before its name": {
    pieces: sse(
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"url":' } }] }),
      delta({ tool_calls: [{ index: 0, function: { name: "fetch_content", arguments: '"https://c.test/"}' } }] }),
      delta({}, "tool_calls"),
      "[DONE]",
    ),
  },
  "tool calls without an index": {
    pieces: sse(
      delta({ tool_calls: [{ id: "x1", type: "function", function: { name: "fetch_content", arguments: '{"url":"https://d.test/"}' } }] }),
      delta({ tool_calls: [{ id: "x2", type: "function", function: { name: "fetch_content", arguments: '{"url":"https://e.test/"}' } }] }),
      delta({}, "tool_calls"),
    ),
  },
  "a Gemini thought signature on a tool call": {
    pieces: sse(
      delta({ tool_calls: [{ index: 0, id: "g1", type: "function", function: { name: "fetch_content", arguments: '{"url":"https://g.test/"}' }, extra_content: { google: { thought_signature: "sig-123" } } }] }),
      delta({}, "tool_calls"),
      "[DONE]",
    ),
  },
  "content as parts, thinking among them": {
    pieces: sse(
      delta({ content: [{ type: "thinking", thinking: [{ type: "text", text: "Hmm. " }, { type: "text", text: "Yes." }] }] }),
      delta({ content: [{ type: "text", text: "Answer" }, { type: "image_url", image_url: { url: "x" } }, { type: "text", text: "." }] }),
      delta({}, "stop"),
      "[DONE]",
    ),
  },
  "a refusal": { pieces: sse(delta({ refusal: "I can't help with that." }), delta({}, "stop"), "[DONE]") },
  "finish reasons: length": { pieces: sse(delta({ content: "Cut" }), delta({}, "length"), "[DONE]") },
  "finish reasons: content_filter": { pieces: sse(delta({ content: "Cut" }), delta({}, "content_filter"), "[DONE]") },
  "finish reasons: function_call": { pieces: sse(delta({ content: "Old" }), delta({}, "function_call"), "[DONE]") },
  "finish reasons: an unknown one": { pieces: sse(delta({ content: "Hi" }), delta({}, "eos"), "[DONE]") },
  "prediction tokens in usage": {
    pieces: sse(delta({ content: "Hi" }), delta({}, "stop"), usage({ prompt_tokens: 5, completion_tokens: 2, completion_tokens_details: { accepted_prediction_tokens: 1, rejected_prediction_tokens: 3 } }), "[DONE]"),
  },
  "an error chunk in the stream": { pieces: sse(delta({ content: "Part" }), { error: { message: "The server is overloaded", type: "server_error", code: 503 } }, "[DONE]") },
  "a chunk that is not JSON, then the answer goes on": { pieces: sse(delta({ content: "A" }), "{not json", delta({ content: "B" }), delta({}, "stop"), "[DONE]") },
  "no finish reason": { pieces: sse(delta({ content: "Trailing off" }), "[DONE]") },
  "CRLF lines, comments, event names and data without a space": {
    pieces: [": keep-alive\r\n\r\n", `event: message\r\ndata:${JSON.stringify(delta({ content: "One" }))}\r\n\r\n`, `data: ${JSON.stringify(delta({ content: " two" }))}\r\n\r\n`, `data: ${JSON.stringify(delta({}, "stop"))}\r\n\r\ndata: [DONE]\r\n\r\n`],
  },
  "pieces cut inside lines and inside characters": {
    body: sse(delta({ content: "Parrots \u{1F99C}\u{1F99C} and accents: é, ü, 中文" }), delta({ content: " more \u{1F99C}" }), delta({}, "stop"), usage({ prompt_tokens: 1, completion_tokens: 1 }), "[DONE]").join(""),
    sliceBytes: 7,
  },
  "a BOM before the first event": { pieces: ["\uFEFF", ...sse(delta({ content: "Hi" }), delta({}, "stop"), "[DONE]")] },
};

describe("the OpenAI-compatible model's streamed answers", () => {
  for (const [name, replay] of Object.entries(WIRE)) {
    it(`reads ${name} into the parts the AI SDK's provider makes of it`, async () => {
      const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
      expect(normalised(mine)).toEqual(normalised(reference));
      expect(mine.at(-1)).toMatchObject({ type: "finish" });
    });
  }

  it("sends the request the AI SDK's provider sends, the same for thinking levels and tool choices", async () => {
    const replay = { pieces: sse(delta({ content: "Hi" }), delta({}, "stop"), "[DONE]") };
    const extra: Partial<LanguageModelV4CallOptions> = { providerOptions: { replay: { reasoningEffort: "high" } }, toolChoice: { type: "required" }, maxOutputTokens: 300, temperature: 0.2 };
    const mine: SentRequest[] = [];
    const reference: SentRequest[] = [];
    await partsOf(ours(mine), callOptions(replay, extra));
    await partsOf(sdks(reference), callOptions(replay, extra));
    expect(mine).toEqual(reference);
    expect(mine[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true }, reasoning_effort: "high", tool_choice: "required" });
  });

  it("sends the web tools' results as the AI SDK's provider sends the same results as JSON", async () => {
    const replay = { pieces: sse(delta({ content: "Hi" }), delta({}, "stop"), "[DONE]") };
    const mine: SentRequest[] = [];
    const reference: SentRequest[] = [];
    await partsOf(ours(mine), callOptions(replay, { prompt: MODEL_OUTPUTS_PROMPT }));
    await partsOf(sdks(reference), callOptions(replay, { prompt: JSON_RESULTS_PROMPT }));
    expect(mine).toEqual(reference);
    const tool = (mine[0]!.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter((m) => m.role === "tool");
    expect(tool[0]!.content).toBe(JSON.stringify(RESULT_PAGE));
  });

  it("refuses as the SDK does: an HTTP error is an APICallError with its status, body and message, retryable by status", async () => {
    for (const [status, body, retryable] of [
      [400, JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens.", code: "context_length_exceeded" } }), false],
      [503, "<html>Service Unavailable</html>", true],
      [429, JSON.stringify({ error: { message: "Rate limited" } }), true],
    ] as const) {
      const replay = { status, headers: { "content-type": "application/json", "retry-after": "1" }, pieces: [body] };
      const refusals = await Promise.all([ours(), sdks()].map((model) => model.doStream(callOptions(replay)).then(() => undefined, (error: unknown) => error)));
      for (const refusal of refusals) {
        expect(APICallError.isInstance(refusal)).toBe(true);
        const error = refusal as APICallError;
        expect(error).toMatchObject({ statusCode: status, responseBody: body, isRetryable: retryable });
        expect(error.responseHeaders?.["retry-after"]).toBe("1");
      }
      expect((refusals[0] as APICallError).message).toBe((refusals[1] as APICallError).message);
    }
  });

  it("reads what the SDK's provider refuses: a chunk without choices, and a last event not ended by a blank line", async () => {
    const replay = { pieces: [`data: ${JSON.stringify(delta({ content: "Hi" }))}\n\n`, `data: ${JSON.stringify({ usage: { prompt_tokens: 4, completion_tokens: 1 } })}\n\n`, `data: ${JSON.stringify(delta({}, "stop"))}`] };
    const parts = (await partsOf(ours(), callOptions(replay))) as LanguageModelV4StreamPart[];
    expect(parts.filter((p) => p.type === "error")).toEqual([]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 4 }, outputTokens: { total: 1 } } });
    expect(parts.filter((p) => p.type === "text-delta")).toEqual([{ type: "text-delta", id: "txt-0", delta: "Hi" }]);
  });

  it("makes a chunk that is not a JSON object an error part, and reads on", async () => {
    const replay = { pieces: sse(delta({ content: "A" }), "42", delta({ content: "B" }), delta({}, "stop"), "[DONE]") };
    const parts = (await partsOf(ours(), callOptions(replay))) as LanguageModelV4StreamPart[];
    expect(parts.filter((p) => p.type === "error")).toEqual([{ type: "error", error: expect.objectContaining({ name: "AI_InvalidResponseDataError" }) }]);
    expect(parts.filter((p) => p.type === "text-delta").map((p) => (p as { delta: string }).delta)).toEqual(["A", "B"]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });

  it("keeps the start of a refusal's body, and no more, however long the error page", async () => {
    const refusal = await ours()
      .doStream(callOptions({ status: 502, headers: { "content-type": "text/html" }, pieces: ['{"error":{"message":"too long"}}'], padding: 400_000 }))
      .then(() => undefined, (error: unknown) => error as APICallError);
    expect(APICallError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ statusCode: 502, isRetryable: true, message: "too long" });
    expect(refusal!.responseBody!.length).toBe(MAX_ERROR_BODY_BYTES);
    expect(refusal!.responseBody!.startsWith('{"error":{"message":"too long"}}')).toBe(true);
  });

  it("still reports a refusal whose body breaks off, with its status and what of its body came", async () => {
    const sent = '{"error":{"message":"overloaded"}}';
    const refusal = await ours()
      .doStream(callOptions({ status: 503, headers: { "content-type": "application/json" }, pieces: [sent], reset: true }))
      .then(() => undefined, (error: unknown) => error);
    expect(APICallError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ statusCode: 503, isRetryable: true });
    // The reset may overtake the piece: the body kept is what came of it, never more.
    expect(sent.startsWith((refusal as APICallError).responseBody!)).toBe(true);
  });

  it("ends the stream with the tracker's refusal when a tool call never names its tool", async () => {
    const replay = { pieces: sse({ ...head, choices: [{ index: 0, delta: { tool_calls: [{ id: "n1", function: { arguments: "{}" } }] }, finish_reason: null }] }, delta({}, "tool_calls"), "[DONE]") };
    const parts = await partsOf(ours(), callOptions(replay));
    expect(parts.at(-1)).toMatchObject({ thrown: { name: "AI_InvalidResponseDataError" } });
  });

  it("fails a stream whose connection is reset mid-answer as a broken call, as the SDK's does", async () => {
    const replay = { pieces: sse(delta({ content: "Half an" }), delta({ content: " answer" })), reset: true };
    const [mine, reference] = await Promise.all([partsOf(ours(), callOptions(replay)), partsOf(sdks(), callOptions(replay))]);
    expect(mine.at(-1)).toMatchObject({ thrown: { name: "AI_APICallError" } });
    expect(normalised(mine).slice(0, -1)).toEqual(normalised(reference).slice(0, -1));
    expect((reference.at(-1) as { thrown?: { name: string } }).thrown?.name).toBe("AI_APICallError");
  });

  it("passes an abort through as an abort, mid-stream", async () => {
    const controller = new AbortController();
    const replay = { pieces: sse(delta({ content: "Hi" }), ...Array.from({ length: 50 }, () => delta({ content: "." })), delta({}, "stop")) };
    const { stream } = await ours().doStream(callOptions(replay, { abortSignal: controller.signal }));
    const reader = stream.getReader();
    await reader.read();
    controller.abort();
    const thrown = await (async () => {
      for (;;) if ((await reader.read()).done) return undefined;
    })().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe("AbortError");
  });
});
