import type { UiMessageChunk } from "@edge-web/shared";
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { MessageAssembly } from "../src/agent/wire/message-assembly.ts";

/** What an AI SDK client rebuilds from `chunks`, as it would be stored (JSON). */
async function clientParts(chunks: object[]): Promise<unknown> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let last: { parts: unknown } | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return JSON.parse(JSON.stringify(last?.parts ?? []));
}

async function assembled(chunks: object[]): Promise<unknown> {
  const assembly = new MessageAssembly();
  for (const chunk of chunks) assembly.add(chunk as UiMessageChunk);
  return JSON.parse(JSON.stringify(await assembly.snapshot()));
}

const meta = { provider: { signature: "sig-1" } };

const CASES: Record<string, object[]> = {
  "reasoning, text and a streamed tool call over two steps": [
    { type: "start", messageId: "m1" },
    { type: "start-step" },
    { type: "reasoning-start", id: "r1", providerMetadata: meta },
    { type: "reasoning-delta", id: "r1", delta: "Thinking" },
    { type: "reasoning-delta", id: "r1", delta: " hard", providerMetadata: { provider: { signature: "sig-2" } } },
    { type: "reasoning-end", id: "r1" },
    { type: "text-start", id: "t1" },
    { type: "text-delta", id: "t1", delta: "Let me " },
    { type: "text-delta", id: "t1", delta: "look." },
    { type: "text-end", id: "t1", providerMetadata: meta },
    { type: "tool-input-start", toolCallId: "c1", toolName: "fetch_content" },
    { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"url":' },
    { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '"https://example.test/"}' },
    { type: "tool-input-available", toolCallId: "c1", toolName: "fetch_content", input: { url: "https://example.test/" }, providerMetadata: meta },
    { type: "tool-output-available", toolCallId: "c1", output: { responseId: "r", results: [{ content: "page" }] } },
    { type: "finish-step" },
    { type: "start-step" },
    { type: "text-start", id: "t2" },
    { type: "text-delta", id: "t2", delta: "Done." },
    { type: "text-end", id: "t2" },
    { type: "finish-step" },
    { type: "finish", finishReason: "stop" },
  ],
  "failed inputs and outputs, parallel calls": [
    { type: "start" },
    { type: "start-step" },
    { type: "tool-input-start", toolCallId: "a", toolName: "web_search" },
    { type: "tool-input-delta", toolCallId: "a", inputTextDelta: '{"query":"x"}' },
    { type: "tool-input-available", toolCallId: "a", toolName: "web_search", input: { query: "x" } },
    { type: "tool-input-start", toolCallId: "b", toolName: "fetch_content" },
    { type: "tool-input-delta", toolCallId: "b", inputTextDelta: '{"urll":1}' },
    { type: "tool-input-available", toolCallId: "b", toolName: "fetch_content", input: { urll: 1 } },
    { type: "tool-output-error", toolCallId: "b", errorText: "bad input" },
    { type: "tool-output-error", toolCallId: "a", errorText: "WEB_SEARCH_FAILED: down", providerMetadata: meta },
    { type: "finish-step" },
  ],
  "pi's data parts: the queue appended each time, a compaction replaced by its id": [
    { type: "start-step" },
    { type: "data-pi-queue", data: { steering: ["also this"], followUp: [] } },
    { type: "data-pi-compaction", id: "k1", data: { phase: "start", reason: "threshold", tokensBefore: 10, tokensAfter: 10 } },
    { type: "data-pi-queue", data: { steering: [], followUp: [], delivered: ["also this"] } },
    { type: "data-pi-compaction", id: "k1", data: { phase: "end", reason: "threshold", tokensBefore: 10, tokensAfter: 4, summary: "s" } },
  ],
  "a provider-executed dynamic tool": [
    { type: "start-step" },
    { type: "tool-input-start", toolCallId: "d", toolName: "provider_search", dynamic: true, providerExecuted: true },
    { type: "tool-input-available", toolCallId: "d", toolName: "provider_search", input: { q: 1 }, dynamic: true, providerExecuted: true },
    { type: "tool-output-available", toolCallId: "d", output: [1, 2], providerExecuted: true },
  ],
  "cut off while a tool's input streams": [
    { type: "start-step" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Reading" },
    { type: "tool-input-start", toolCallId: "c", toolName: "fetch_content" },
    { type: "tool-input-delta", toolCallId: "c", inputTextDelta: '{"url":"https://exa' },
    { type: "abort" },
  ],
};

describe("the assistant message rebuilt from a turn's chunks", () => {
  for (const [name, chunks] of Object.entries(CASES)) {
    it(`is what an AI SDK client rebuilds: ${name}`, async () => {
      const ours = await assembled(chunks);
      expect(ours).toEqual(await clientParts(chunks));
      expect((ours as unknown[]).length).toBeGreaterThan(0);
    });
  }

  it("takes copies: a snapshot does not change as the turn goes on", async () => {
    const assembly = new MessageAssembly();
    assembly.add({ type: "text-start", id: "t" });
    assembly.add({ type: "text-delta", id: "t", delta: "first" });
    const before = await assembly.snapshot();
    assembly.add({ type: "text-delta", id: "t", delta: " second" });
    expect(before).toEqual([{ type: "text", text: "first", state: "streaming" }]);
    expect(await assembly.snapshot()).toEqual([{ type: "text", text: "first second", state: "streaming" }]);
  });
});
