import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { call, newSession, openStream, tool } from "./helpers.ts";
import { sseReader, type ReadFrame } from "../../test-support/sse-reader.ts";
import { waitFor } from "../../test-support/wait-for.ts";

const origin = inject("originUrl");
/** A quick tool call that produces its four frames without touching the network. */
const quickCall = (id: string) => tool(id, "get_search_content", { responseId: "none" });
const types = (frames: ReadFrame[]) => frames.map((f) => f.data?.chunk?.type ?? f.data?.payload?.control);

describe("session streams", () => {
  it("streams every tool call as AI SDK UI-message chunks, incrementally", async () => {
    const id = await newSession();
    const res = await openStream(id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("X-Pi-Protocol-Version")).toBe("0.1.0");
    const stream = sseReader(res.body!);

    const call1 = await tool(id, "fetch_content", { url: `${origin}/notes.txt` });
    const first = await stream.take(4);
    expect(types(first)).toEqual(["start", "tool-input-available", "tool-output-available", "finish"]);
    expect(first.map((f) => f.event)).toEqual(["uiMessageChunk", "uiMessageChunk", "uiMessageChunk", "uiMessageChunk"]);
    expect(first[1]!.data.chunk).toMatchObject({ toolName: "fetch_content", input: { url: `${origin}/notes.txt` } });
    expect(first[2]!.data.chunk.output.responseId).toBe(call1.body.responseId);
    expect(first[0]!.data.protocolVersion).toBe("0.1.0");

    // The second call's frames arrive after the first's, with ids that keep counting up.
    await quickCall(id);
    const second = await stream.take(4);
    expect(types(second)).toEqual(["start", "tool-input-available", "tool-output-error", "finish"]);
    expect(second[2]!.data.chunk.errorText).toMatch(/^NOT_FOUND: /);
    const ids = [...first, ...second].map((f) => f.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await stream.cancel();
  });

  it("replays exactly the missed frames after Last-Event-ID, then goes live", async () => {
    const id = await newSession();
    for (let i = 0; i < 3; i++) await quickCall(id);
    const res = await openStream(id, { "Last-Event-ID": "5" });
    const stream = sseReader(res.body!);
    const replayed = await stream.take(7);
    expect(replayed.map((f) => f.id)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    await quickCall(id);
    expect((await stream.take(4)).map((f) => f.id)).toEqual([13, 14, 15, 16]);
    await stream.cancel();
  });

  it("says so in a control frame when the missed frames are no longer buffered", async () => {
    const id = await newSession();
    for (let i = 0; i < 12; i++) await quickCall(id); // 48 frames; 40 are kept
    const stream = sseReader((await openStream(id, { "Last-Event-ID": "2" })).body!);
    const [notice, ...rest] = await stream.take(41);
    // pi-web's protocol has no resync control frame: an error with code "resync" says it.
    expect(notice).toMatchObject({ event: "control", data: { kind: "control", payload: { control: "error", code: "resync", message: expect.stringMatching(/GET \/api\/sessions\/:id\/messages/), lastEventId: 2, oldestAvailableId: 9 } } });
    expect(rest.map((f) => f.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 9));
    await stream.cancel();
  });

  it("fans out to 100 subscribers", async () => {
    const id = await newSession();
    const streams = await Promise.all(Array.from({ length: 100 }, async () => sseReader((await openStream(id)).body!)));
    await quickCall(id);
    const received = await Promise.all(streams.map((s) => s.take(4)));
    for (const frames of received) expect(frames.map((f) => f.id)).toEqual([1, 2, 3, 4]);
    await Promise.all(streams.map((s) => s.cancel()));
  });

  it("drops a subscriber that falls behind without slowing the others or the tool calls", async () => {
    const id = await newSession();
    const slow = sseReader((await openStream(id)).body!);
    const fast = sseReader((await openStream(id)).body!);
    for (let i = 0; i < 10; i++) {
      expect((await quickCall(id)).status).toBe(404); // each call completes while `slow` reads nothing
      expect((await fast.take(4)).map((f) => f.id)).toEqual([1, 2, 3, 4].map((n) => n + i * 4));
    }
    const seen: ReadFrame[] = [];
    for (let frame = await slow.next(); frame; frame = await slow.next()) seen.push(frame);
    const last = seen.at(-1)!;
    expect(last.data.payload).toMatchObject({ control: "error", code: "slow-consumer" });
    expect(seen.filter((f) => f.id !== undefined).length).toBeLessThan(40);
  });

  it("forgets a subscriber that disconnects", async () => {
    const id = await newSession();
    const subscribers = async () => (await call("GET", `/api/sessions/${id}/state`)).body.state.subscribers as number;
    const stream = sseReader((await openStream(id)).body!);
    const other = sseReader((await openStream(id)).body!);
    expect(await subscribers()).toBe(2);
    await stream.cancel();
    // The next frames it would get find it gone.
    await quickCall(id);
    await waitFor(async () => (await subscribers()) === 1, "the disconnected subscriber to be dropped", { intervalMs: 50, timeoutMs: 5_000 });
    expect((await other.take(4)).map((f) => f.id)).toEqual([1, 2, 3, 4]);
    await other.cancel();
  });

  it("closes open streams with a control frame when the session is deleted", async () => {
    const id = await newSession();
    const stream = sseReader((await openStream(id)).body!);
    await call("DELETE", `/api/sessions/${id}`);
    const frame = await stream.next();
    expect(frame).toMatchObject({ event: "control", id: 1, data: { payload: { control: "error", code: "deleted", message: "session ended: deleted" } } });
    expect(await stream.next()).toBeUndefined();
  });

  it("answers 404 for deleted and unknown sessions", async () => {
    const id = await newSession();
    await call("DELETE", `/api/sessions/${id}`);
    const deleted = await openStream(id);
    expect(deleted.status).toBe(404);
    expect(((await deleted.json()) as { error: { code: string } }).error.code).toBe("SESSION_NOT_FOUND");
    expect((await openStream(crypto.randomUUID())).status).toBe(404);
  });

  it("ends idle sessions from the alarm and clears their results", async () => {
    const id = await newSession();
    const fetched = await tool(id, "fetch_content", { url: `${origin}/notes.txt` });
    const stream = sseReader((await openStream(id)).body!);
    const stub = (env as unknown as Env).SESSIONS.get((env as unknown as Env).SESSIONS.idFromName(id));
    // Still active: the alarm only moves the deadline.
    await runDurableObjectAlarm(stub);
    expect((await call("GET", `/api/sessions/${id}/state`)).body.state.status).toBe("active");
    // SESSION_IDLE_MS is 5000 in the tests: the alarm, run until then, ends the session once it is idle that long.
    const ended = async () => (await call("GET", `/api/sessions/${id}/state`)).body.state.status === "ended";
    await waitFor(async () => (await runDurableObjectAlarm(stub), await ended()), "the alarm to end the idle session", { intervalMs: 200, timeoutMs: 12_000 });
    expect((await stream.next())?.data.payload).toMatchObject({ control: "error", code: "idle" });
    expect((await tool(id, "get_search_content", { responseId: fetched.body.responseId })).body.error.code).toBe("SESSION_ENDED");
    expect((await call("GET", `/api/sessions/${id}/state`)).body.state.status).toBe("ended");
    const stream2 = await openStream(id);
    expect(stream2.status).toBe(409);
    expect(((await stream2.json()) as { error: { code: string } }).error.code).toBe("SESSION_ENDED");
  });
});

describe("session reads", () => {
  it("reports isStreaming while a tool call runs", async () => {
    const id = await newSession();
    const running = tool(id, "fetch_content", { url: `${origin}/slow` });
    const state = await waitFor(async () => {
      const now = (await call("GET", `/api/sessions/${id}/state`)).body.state;
      return now.isStreaming && now;
    }, "the call to be reported as running");
    expect(state).toMatchObject({ sessionId: id, isStreaming: true, pendingMessageCount: 1, status: "active", source: "test" });
    await running;
    expect((await call("GET", `/api/sessions/${id}/state`)).body.state).toMatchObject({ isStreaming: false, pendingMessageCount: 0, messageCount: 1 });
  });

  it("keeps the history as UI messages with tool parts in their final state", async () => {
    const id = await newSession();
    await tool(id, "fetch_content", { url: `${origin}/notes.txt` });
    await quickCall(id);
    const { messages } = (await call("GET", `/api/sessions/${id}/messages?format=ui`)).body;
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({ role: "assistant", parts: [{ type: "tool-fetch_content", state: "output-available", input: { url: `${origin}/notes.txt` } }] });
    expect(messages[0].parts[0].output.results[0].content).toContain("plain notes");
    expect(messages[1].parts[0]).toMatchObject({ type: "tool-get_search_content", state: "output-error", errorText: expect.stringMatching(/^NOT_FOUND/) });
  });

  it("counts calls, pages, bytes and errors in stats", async () => {
    const id = await newSession();
    // Pages no other test has read, so the fetch cache holds none of them.
    await tool(id, "fetch_content", { urls: [`${origin}/notes.txt?stats`, `${origin}/data.json?stats`] });
    await tool(id, "fetch_content", { url: `${origin}/missing` });
    await quickCall(id);
    const { stats } = (await call("GET", `/api/sessions/${id}/stats`)).body;
    expect(stats).toMatchObject({ sessionId: id, toolCalls: 3, toolResults: 3, totalMessages: 3, cost: 0 });
    expect(stats.web).toMatchObject({ fetches: 2, pagesFetched: 2, fetchCache: { hits: 0, misses: 3, revalidated: 0 }, errors: { CONTENT_FETCH_FAILED: 1, NOT_FOUND: 1 } });
    expect(stats.web.bytesFetched).toBeGreaterThan(20);
  });

  it("lists the slash commands in pi's command shape: names without the slash, how to use each, the tool it runs", async () => {
    const id = await newSession();
    const { commands } = (await call("GET", `/api/sessions/${id}/commands`)).body;
    expect(commands.map((c: { name: string }) => c.name)).toEqual(["search", "fetch", "convert", "get", "compact"]);
    expect(commands.find((c: { name: string }) => c.name === "fetch")).toEqual({
      name: "fetch",
      description: expect.stringContaining("fetch_content"),
      source: "prompt",
      sourceInfo: { path: "builtin:/fetch", source: "builtin", scope: "user", origin: "top-level" },
      usage: "/fetch <url> [url…]",
      tool: "fetch_content",
    });
    expect(commands.find((c: { name: string }) => c.name === "compact").tool).toBeUndefined();
  });
});
