import type { SessionMessage } from "@edge-web/shared";
import * as v from "valibot";
import { describe, expect, inject, it } from "vitest";
import { toPiMessages } from "../src/agent/context/to-pi-messages.ts";
import { PiGetMessagesResponseSchema } from "../../test-support/pi-protocol/rest.ts";
import { call, newSession, tool } from "./helpers.ts";

const origin = inject("originUrl");
const NO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: unknown[], stopReason: string, timestamp: number) => ({ role: "assistant", content, api: "", provider: "", model: "", usage: NO_USAGE, stopReason, timestamp });

describe("the history in pi's message shape", () => {
  it("gives each model call its assistant message and its tools' results, steers and compactions where they happened", () => {
    const output = { responseId: "r1", results: [{ url: "https://example.com/", content: "hello" }] };
    const history: SessionMessage[] = [
      {
        id: "u1",
        role: "user",
        parts: [{ type: "text", text: "What does it say?" }, { type: "file", mediaType: "image/png", url: "attachment:att_abc", filename: "shot.png" }],
        metadata: { createdAt: 1_000 },
      },
      {
        id: "a1",
        role: "assistant",
        metadata: { createdAt: 2_000 },
        parts: [
          { type: "step-start" },
          { type: "reasoning", text: "Let me read it.", state: "done" },
          { type: "tool-fetch_content", toolCallId: "call_1", state: "output-available", input: { url: "https://example.com/" }, output },
          { type: "tool-web_search", toolCallId: "call_2", state: "output-error", input: { query: "x" }, errorText: "WEB_SEARCH_FAILED: down" },
          { type: "data-pi-queue", data: { steering: [], followUp: [], delivered: ["Only official sources."] } },
          { type: "data-pi-compaction", id: "c1", data: { phase: "end", reason: "threshold", tokensBefore: 9_000, tokensAfter: 2_000, summary: "Earlier: a fetch.", firstKeptMessageId: "a1", firstKeptStep: 1 } },
          { type: "data-pi-compaction", id: "c2", data: { phase: "end", reason: "manual", tokensBefore: 2_000, tokensAfter: 2_000, error: "the summary call failed" } },
          { type: "step-start" },
          { type: "text", text: "It says hello.", state: "done" },
        ],
      },
      // A direct call still running: its call, no result yet.
      { id: "a2", role: "assistant", metadata: { createdAt: 3_000 }, parts: [{ type: "tool-get_search_content", toolCallId: "call_3", state: "input-available", input: { responseId: "r1" } }] },
    ];
    const messages = toPiMessages(history, new Map([["att_abc", "/api/attachments/att_abc/raw?exp=1&sig=s"]]));
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What does it say?" },
          { type: "image", data: "", mimeType: "image/png", attachmentId: "att_abc", displayUrl: "/api/attachments/att_abc/raw?exp=1&sig=s" },
        ],
        timestamp: 1_000,
      },
      assistant(
        [
          { type: "thinking", thinking: "Let me read it." },
          { type: "toolCall", id: "call_1", name: "fetch_content", arguments: { url: "https://example.com/" } },
          { type: "toolCall", id: "call_2", name: "web_search", arguments: { query: "x" } },
        ],
        "toolUse",
        2_000,
      ),
      { role: "toolResult", toolCallId: "call_1", toolName: "fetch_content", content: [{ type: "text", text: JSON.stringify(output) }], details: output, isError: false, timestamp: 2_000 },
      { role: "toolResult", toolCallId: "call_2", toolName: "web_search", content: [{ type: "text", text: "WEB_SEARCH_FAILED: down" }], isError: true, timestamp: 2_000 },
      { role: "user", content: [{ type: "text", text: "Only official sources." }], timestamp: 2_000 },
      { role: "compactionSummary", summary: "Earlier: a fetch.", tokensBefore: 9_000, timestamp: 2_000 },
      assistant([{ type: "text", text: "It says hello." }], "stop", 2_000),
      assistant([{ type: "toolCall", id: "call_3", name: "get_search_content", arguments: { responseId: "r1" } }], "toolUse", 3_000),
    ]);
    expect(v.safeParse(PiGetMessagesResponseSchema, { messages }).issues).toBeUndefined();
  });
});

describe("GET /api/sessions/:id/messages", () => {
  it("answers pi's messages by default, AI SDK UIMessages with ?format=ui, and 400 naming format for anything else", async () => {
    const id = await newSession();
    const fetched = await tool(id, "fetch_content", { url: `${origin}/article.html` });
    expect(fetched.status).toBe(200);
    await tool(id, "get_search_content", { responseId: "missing" });

    const pi = await call("GET", `/api/sessions/${id}/messages`);
    expect(pi.status).toBe(200);
    const { messages } = v.parse(PiGetMessagesResponseSchema, pi.body);
    expect(messages.map((m) => m.role)).toEqual(["assistant", "toolResult", "assistant", "toolResult"]);
    expect(messages[1]).toMatchObject({ toolName: "fetch_content", isError: false, details: { responseId: fetched.body.responseId } });
    expect(messages[3]).toMatchObject({ toolName: "get_search_content", isError: true, content: [{ type: "text", text: expect.stringMatching(/^NOT_FOUND: /) }] });
    expect((await call("GET", `/api/sessions/${id}/messages?format=pi`)).body.messages).toEqual(pi.body.messages);

    const ui = (await call("GET", `/api/sessions/${id}/messages?format=ui`)).body.messages;
    expect(ui.map((m: SessionMessage) => m.parts[0]!.type)).toEqual(["tool-fetch_content", "tool-get_search_content"]);

    const bad = await call("GET", `/api/sessions/${id}/messages?format=html`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "VALIDATION_FAILED", fields: ["format"] });
  });
});
