import { createAnthropic } from "@ai-sdk/anthropic";
import { experimental_streamLanguageModelCall as streamLanguageModelCall, jsonSchema, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { describe, expect, inject, it } from "vitest";
import { callModel } from "../src/agent/wire/call-model.ts";
import { OpenAICompatibleModel } from "../src/agent/wire/openai-compatible-model.ts";
import type { WireReplay } from "../../test-support/wire-replay.ts";
import { messagesBlock as block, messagesEvent as sse, normalised, replayHeaders } from "./model-replay.ts";

const baseURL = `${inject("originUrl")}/replay`;

/** A model answering as `replay` says, through a real provider over HTTP: Anthropic's Messages API or Chat Completions. */
function replaying(api: "anthropic" | "openai", replay: WireReplay): LanguageModel {
  const headers = replayHeaders(replay);
  if (api === "anthropic") return createAnthropic({ baseURL, apiKey: "sk-ant-replay", headers })("claude-replay");
  const replayFetch: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } });
  return new OpenAICompatibleModel("replay-model", { name: "replay", baseURL, apiKey: "sk-replay", fetch: replayFetch });
}

/** A tool whose input must have a string `url` (others are refused as the model's mistake). */
const TOOLS: ToolSet = {
  fetch_content: tool({
    description: "Fetch a page",
    inputSchema: jsonSchema<{ url: string }>(
      { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
      { validate: (value) => (typeof (value as { url?: unknown })?.url === "string" ? { success: true, value: value as { url: string } } : { success: false, error: new Error("url must be a string") }) },
    ),
  }),
};
const MESSAGES: ModelMessage[] = [{ role: "user", content: "Read the page." }];

/** What the SDK's own call streams and collects (its content is told only when the call finishes). */
async function sdkCall(model: LanguageModel) {
  let content: unknown[] | undefined;
  const { stream } = await streamLanguageModelCall({ model, system: "Be brief.", messages: MESSAGES, tools: TOOLS, onLanguageModelCallEnd: (e) => void (content = [...e.content]) });
  const parts: unknown[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    parts.push({ thrown: error });
  }
  return { parts, content };
}

/** What ours streams and collects. */
async function ourCall(model: LanguageModel) {
  const call = await callModel({ model, system: "Be brief.", messages: MESSAGES, tools: TOOLS, abortSignal: new AbortController().signal });
  const parts: unknown[] = [];
  try {
    for await (const part of call.parts) parts.push(part);
  } catch (error) {
    parts.push({ thrown: error });
  }
  return { parts, content: call.content };
}

/** The SDK's parts as the turn reads them: its call bookkeeping (start, metadata, timings) left out, as the turn ignores it. */
function asTurnReadsThem(parts: unknown[]) {
  return parts.flatMap((part) => {
    const p = part as { type?: string; finishReason?: unknown; usage?: unknown };
    if (p.type === "model-call-start" || p.type === "model-call-response-metadata") return [];
    if (p.type === "model-call-end") return [{ type: p.type, finishReason: p.finishReason, usage: p.usage }];
    return [part];
  });
}

const start = sse("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "claude-replay", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } });
const end = (stop: string) => [sse("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 30 } }), sse("message_stop", {})];
const chat = (d: object, finish: string | null = null) => `data: ${JSON.stringify({ id: "c1", created: 1_700_000_000, model: "replay-model", choices: [{ index: 0, delta: d, finish_reason: finish }] })}\n\n`;

const ANSWERS: Record<string, ["anthropic" | "openai", WireReplay]> = {
  "thinking with its signature, text, and a tool call (Anthropic)": [
    "anthropic",
    {
      pieces: [
        start,
        ...block(0, { type: "thinking", thinking: "", signature: "" }, { type: "thinking_delta", thinking: "I should " }, { type: "thinking_delta", thinking: "read it." }, { type: "signature_delta", signature: "sig-abc" }),
        ...block(1, { type: "text", text: "" }, { type: "text_delta", text: "Reading." }),
        ...block(2, { type: "tool_use", id: "toolu_1", name: "fetch_content", input: {} }, { type: "input_json_delta", partial_json: '{"url":' }, { type: "input_json_delta", partial_json: '"https://a.test/"}' }),
        ...end("tool_use"),
      ],
    },
  ],
  "redacted thinking, then text (Anthropic)": ["anthropic", { pieces: [start, ...block(0, { type: "redacted_thinking", data: "opaque-data" }), ...block(1, { type: "text", text: "" }, { type: "text_delta", text: "Done." }), ...end("end_turn")] }],
  "a search the provider ran itself, its results as sources, and text citing one (Anthropic)": [
    "anthropic",
    {
      pieces: [
        start,
        ...block(0, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} }, { type: "input_json_delta", partial_json: '{"query":"rivers"}' }),
        ...block(1, { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [{ type: "web_search_result", url: "https://rivers.test/", title: "Rivers", encrypted_content: "enc", page_age: null }] }),
        ...block(
          2,
          { type: "text", text: "" },
          { type: "text_delta", text: "Rivers flow." },
          { type: "citations_delta", citation: { type: "web_search_result_location", url: "https://rivers.test/", title: "Rivers", encrypted_index: "ei", cited_text: "Rivers flow." } },
        ),
        ...end("end_turn"),
      ],
    },
  ],
  "a tool the model made up, and a call with input the tool refuses (Chat Completions)": [
    "openai",
    {
      pieces: [
        chat({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "delete_everything", arguments: "{}" } }] }),
        chat({ tool_calls: [{ index: 1, id: "c2", type: "function", function: { name: "fetch_content", arguments: '{"url":42}' } }] }),
        chat({ tool_calls: [{ index: 2, id: "c3", type: "function", function: { name: "fetch_content", arguments: "{not json" } }] }),
        chat({}, "tool_calls"),
        "data: [DONE]\n\n",
      ],
    },
  ],
  "an error in the stream, as an object with a message (Chat Completions)": ["openai", { pieces: [chat({ content: "Par" }), `data: ${JSON.stringify({ error: { message: "overloaded", type: "server_error", code: 503 } })}\n\n`] }],
  "an error event mid-answer (Anthropic)": ["anthropic", { pieces: [start, sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }), sse("error", { error: { type: "overloaded_error", message: "Overloaded" } })] }],
  "a stream that is not JSON (Chat Completions)": ["openai", { pieces: ["data: {oops\n\n", chat({ content: "x" }, "stop")] }],
};

describe("a model call, read without the SDK's streams", () => {
  for (const [name, [api, replay]] of Object.entries(ANSWERS)) {
    it(`streams and keeps what the SDK's call does: ${name}`, async () => {
      const [ours, sdks] = [await ourCall(replaying(api, replay)), await sdkCall(replaying(api, replay))];
      expect(normalised(ours.parts)).toEqual(normalised(asTurnReadsThem(sdks.parts)));
      // A call that never finished adds nothing to the conversation: the turn ends on its error.
      if (sdks.content) expect(normalised(ours.content)).toEqual(normalised(sdks.content));
      else expect(ours.parts.some((part) => (part as { type?: string }).type === "error" || "thrown" in (part as object))).toBe(true);
      expect(ours.parts.length).toBeGreaterThan(1);
    });
  }

  it("closes the provider's stream when the turn stops reading early", async () => {
    const replay = { pieces: [chat({ content: "a" }), ...Array.from({ length: 40 }, () => chat({ content: "." })), chat({}, "stop")] };
    let cancelled = false;
    const model = replaying("openai", replay) as OpenAICompatibleModel;
    const watched = {
      ...model,
      specificationVersion: "v4" as const,
      provider: model.provider,
      modelId: model.modelId,
      supportedUrls: model.supportedUrls,
      doGenerate: model.doGenerate.bind(model),
      doStream: async (options: Parameters<OpenAICompatibleModel["doStream"]>[0]) => {
        const result = await model.doStream(options);
        const reader = result.stream.getReader();
        const stream = new ReadableStream({
          pull: async (controller) => {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
          cancel: (reason) => {
            cancelled = true;
            return reader.cancel(reason);
          },
        });
        return { ...result, stream };
      },
    };
    const call = await callModel({ model: watched, system: "s", messages: MESSAGES, tools: TOOLS, abortSignal: new AbortController().signal });
    for await (const part of call.parts) if (part.type === "text-delta") break;
    expect(cancelled).toBe(true);
  });
});
