import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import { modelOutputOf } from "../src/agent/context/tool-result-budget.ts";
import { REPLAY_HEADER, type WireReplay } from "../../test-support/wire-replay.ts";

/** The headers that make the loopback replay server (/replay/… on the origin) give `replay`. */
export const replayHeaders = (replay: WireReplay) => ({ [REPLAY_HEADER]: btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(replay)))) });

/** One call with a short prompt and a `fetch_content` tool, answered with `replay`. */
export const replayCall = (replay: WireReplay, extra: Partial<LanguageModelV4CallOptions> = {}): LanguageModelV4CallOptions => ({
  prompt: [
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text: "Read the page." }] },
  ],
  tools: [{ type: "function", name: "fetch_content", description: "Fetch a page", inputSchema: { type: "object", properties: { url: { type: "string" } } } }],
  headers: replayHeaders(replay),
  ...extra,
});

/** A page as a tool answers it: quotes, control characters and nested values, whose JSON a request carries. */
export const RESULT_PAGE = { responseId: "r1", results: [{ url: "https://a.test/", content: 'A "quoted" line\nand a tab\there', truncated: false, meta: { n: 1, list: [1, null, true] } }] };

/** A prompt after three tool calls whose results are `outputs`. */
const afterToolCalls = (outputs: LanguageModelV4ToolResultOutput[]): LanguageModelV4CallOptions["prompt"] => [
  { role: "user", content: [{ type: "text", text: "Read them." }] },
  { role: "assistant", content: outputs.map((_, i) => ({ type: "tool-call" as const, toolCallId: `c${i}`, toolName: "fetch_content", input: { url: `https://${i}.test/` } })) },
  { role: "tool", content: outputs.map((output, i) => ({ type: "tool-result" as const, toolCallId: `c${i}`, toolName: "fetch_content", output })) },
];

const RESULT_VALUES = [RESULT_PAGE, "a bare string", [1, { two: 2 }]];

/** Tool results as JSON, as the AI SDK's own tools hand them over; and an error. */
export const JSON_RESULTS_PROMPT = afterToolCalls([...RESULT_VALUES.map((value) => ({ type: "json" as const, value })), { type: "error-json", value: { code: "NOT_FOUND" } }]);

/** The same results as the web tools hand them to the model (modelOutputOf). */
export const MODEL_OUTPUTS_PROMPT = afterToolCalls([...RESULT_VALUES.map((value) => modelOutputOf(value, {}, 1_000_000)), { type: "error-json", value: { code: "NOT_FOUND" } }]);

/** A request as a model sent it: its JSON body and its headers (but the User-Agent, which names the library). */
export interface SentRequest {
  body: unknown;
  headers: Record<string, string>;
}

/** A fetch that records each request in `sent`, then makes it. */
export function recordingFetch(sent: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers as HeadersInit));
    delete headers["user-agent"];
    sent.push({ body: JSON.parse(String(init?.body)), headers });
    return fetch(input, init);
  };
}

/** Every part of a model's streamed answer: a call that throws is `[{ refused }]`, a stream that errors ends with `{ thrown }`. */
export async function partsOf(model: { doStream(o: LanguageModelV4CallOptions): PromiseLike<{ stream: ReadableStream<LanguageModelV4StreamPart> }> }, options: LanguageModelV4CallOptions) {
  let stream: ReadableStream<LanguageModelV4StreamPart>;
  try {
    ({ stream } = await model.doStream(options));
  } catch (error) {
    return [{ refused: plainError(error) }];
  }
  const parts: unknown[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return parts;
      parts.push(value);
    }
  } catch (error) {
    return [...parts, { thrown: plainError(error) }];
  }
}

/** An error as its name, message and status: two runs throw different instances of the same error. */
export function plainError(error: unknown) {
  return error instanceof Error ? { name: error.name, message: error.message, statusCode: (error as { statusCode?: unknown }).statusCode } : error;
}

/** Parts or content to compare across two runs: errors plain, generated ids as the order they first appeared in. */
export function normalised(value: unknown) {
  const ids = new Map<string, string>();
  const idOf = (id: string) => (ids.has(id) ? ids.get(id)! : (ids.set(id, `id-${ids.size}`), ids.get(id)!));
  return JSON.parse(
    JSON.stringify(value, (key, v) => {
      if (v instanceof Error) return plainError(v);
      if ((key === "id" || key === "toolCallId") && typeof v === "string") return idOf(v);
      return v;
    }),
  );
}

/** One Anthropic Messages event as the API streams it. */
export const messagesEvent = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** A whole content block: its start, its deltas, its stop. */
export const messagesBlock = (index: number, contentBlock: object, ...deltas: object[]) => [
  messagesEvent("content_block_start", { index, content_block: contentBlock }),
  ...deltas.map((delta) => messagesEvent("content_block_delta", { index, delta })),
  messagesEvent("content_block_stop", { index }),
];
