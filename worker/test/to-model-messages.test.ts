import { describe, expect, it } from "vitest";
import type { SessionMessage, StoredResult } from "@edge-web/shared";
import { HistoryMemo } from "../src/agent/context/history-memo.ts";
import { toModelMessages, type ConvertedMessage, type HistorySources } from "../src/agent/context/to-model-messages.ts";

const RESPONSE_ID = "0f0e0d0c-0b0a-4908-8706-050403020100";
const page = (text: string) => ({ responseId: RESPONSE_ID, results: [{ url: "https://example.test/", content: text, truncated: false }] });
const user = (id: string, text: string, extra: SessionMessage["parts"] = []): SessionMessage => ({ id, role: "user", parts: [{ type: "text", text }, ...extra] });
const assistant = (id: string, content: string): SessionMessage => ({
  id,
  role: "assistant",
  parts: [
    { type: "step-start" },
    { type: "tool-fetch_content", toolCallId: `call-${id}`, state: "output-available", input: { url: "https://example.test/" }, output: page(content) },
    { type: "text", text: `read ${id}` },
  ] as SessionMessage["parts"],
});

/** A history whose messages are read through `read` only, each read recorded, with revisions set by the test. */
function historyOf(messages: SessionMessage[]) {
  const stored = new Map(messages.map((m) => [m.id, { message: m, revision: 1 }]));
  const reads: string[][] = [];
  const memo = new HistoryMemo<ConvertedMessage>();
  return {
    reads,
    put(message: SessionMessage) {
      stored.set(message.id, { message, revision: (stored.get(message.id)?.revision ?? 0) + 1 });
    },
    read(ids?: string[]) {
      const shown = ids ?? [...stored.keys()];
      return { revisions: shown.map((id) => ({ id, revision: stored.get(id)!.revision })), read: (asked: readonly string[]) => (reads.push([...asked]), asked.map((id) => stored.get(id)!.message)), memo };
    },
  };
}

function sources(results: Record<string, StoredResult> = {}, maxToolResultChars = 12_000): HistorySources {
  return {
    attachment: async (id) => (id === "att_kept" ? { mimeType: "text/plain", bytes: new TextEncoder().encode("the attached notes") } : undefined),
    storedResult: (id) => results[id],
    maxMentionChars: 2_000,
    maxToolResultChars,
  };
}

const text = (view: { messages: unknown[] }) => JSON.stringify(view.messages);

describe("the history as the model's messages, kept between conversions", () => {
  it("reads and converts only what is new or changed since the last conversion, and gives the same messages for the rest", async () => {
    const history = historyOf([user("u1", "hello"), assistant("a1", "first page")]);
    const first = await toModelMessages(history.read(), sources());
    history.put(user("u2", "more"));
    const second = await toModelMessages(history.read(), sources());
    expect(history.reads).toEqual([["u1", "a1"], ["u2"]]);
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    // The same objects: what was measured of them (context-meter.ts) holds too.
    expect(second.messages[1]).toBe(first.messages[1]);
    history.put(assistant("a1", "a changed page"));
    const third = await toModelMessages(history.read(), sources());
    expect(history.reads.at(-1)).toEqual(["a1"]);
    expect(text(third)).toContain("a changed page");
    expect(text(third)).not.toContain("first page");
  });

  it("converts again under another tool result budget", async () => {
    const history = historyOf([user("u1", "hello"), assistant("a1", "word ".repeat(2_000))]);
    const whole = await toModelMessages(history.read(), sources({}, 12_000));
    const cut = await toModelMessages(history.read(), sources({}, 3_000));
    expect(history.reads).toEqual([["u1", "a1"], ["u1", "a1"]]);
    expect(text(whole)).not.toContain("settings.agent.maxToolResultChars");
    expect(text(cut)).toContain("settings.agent.maxToolResultChars");
  });

  it("looks mentions up anew each time and reads a message with attachments each time", async () => {
    const stored: Record<string, StoredResult> = { [RESPONSE_ID]: { kind: "fetch", ...page("the stored page") } };
    const history = historyOf([user("u1", `Summarise @${RESPONSE_ID}`), user("u2", "notes", [{ type: "file", mediaType: "text/plain", filename: "notes.txt", url: "attachment:att_kept" }])]);
    const first = await toModelMessages(history.read(), sources(stored));
    expect(text(first)).toContain("the stored page");
    expect(text(first)).toContain(btoa("the attached notes"));
    const second = await toModelMessages(history.read(), sources({}));
    expect(history.reads).toEqual([["u1", "u2"], ["u2"]]);
    expect(text(second)).toContain("names no stored result");
    expect(text(second)).not.toContain("the stored page");
  });

  it("forgets the messages a view no longer holds", async () => {
    const history = historyOf([user("u1", "hello"), assistant("a1", "page")]);
    await toModelMessages(history.read(), sources());
    await toModelMessages(history.read(["a1"]), sources());
    await toModelMessages(history.read(), sources());
    expect(history.reads).toEqual([["u1", "a1"], [], ["u1"]]);
  });
});

describe("steers in the history", () => {
  it("gives the model the steers a turn took where they joined (data-pi-queue's delivered; data-steer in histories written before), and nothing for the queue's other states", async () => {
    const turn: SessionMessage = {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "data-pi-queue", data: { steering: ["shorter"], followUp: ["then stop"] } },
        { type: "text", text: "a long answer" },
        { type: "data-pi-queue", data: { steering: [], followUp: ["then stop"], delivered: ["shorter", "in French"] } },
        { type: "step-start" },
        { type: "text", text: "court" },
        { type: "data-steer", id: "u-old", data: { text: "plus court" } },
        { type: "step-start" },
        { type: "text", text: "bref" },
      ],
    };
    const view = await toModelMessages(historyOf([user("u1", "explain"), turn]).read(), sources());
    const said = view.messages.map((m) => [m.role, typeof m.content === "string" ? m.content : m.content.map((part) => ("text" in part ? part.text : part.type)).join("")]);
    expect(said).toEqual([
      ["user", "explain"],
      ["assistant", "a long answer"],
      ["user", "shorter"],
      ["user", "in French"],
      ["assistant", "court"],
      ["user", "plus court"],
      ["assistant", "bref"],
    ]);
  });
});
