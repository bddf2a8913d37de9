import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { send, startOrigin, type Origin, routes } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const KEY = "sk-e2e-model-key-0123456789abcdef";
const PAGE = `<!doctype html><html><head><title>Turn page</title></head><body><article><h1>Turn page</h1>
<p>An agent turn fetched this page from a loopback origin and read it back to the model.</p></article></body></html>`;

/** A live SSE response, read as it arrives. */
function frames(res: Response) {
  const reader = sseReader(res.body!);
  return {
    /** The chunks of one turn, `start` to `finish`. */
    async turn(): Promise<UIMessageChunk[]> {
      const chunks: UIMessageChunk[] = [];
      for (let frame = await reader.next(); frame; frame = await reader.next()) {
        if (frame.data?.kind !== "uiMessageChunk") continue;
        chunks.push(frame.data.chunk);
        if (frame.data.chunk.type === "finish") break;
      }
      return chunks;
    },
    close: () => reader.cancel(),
  };
}

/** What an AI SDK client builds from a turn's chunks. */
async function rebuild(chunks: UIMessageChunk[]): Promise<UIMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last;
}

describe("agent turns over npm start's stack", () => {
  let model: FakeModelServer;
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-agent-"));
  let env: Record<string, string>;

  beforeAll(async () => {
    model = await startFakeOpenAI({ apiKey: KEY, models: ["e2e-model"] });
    origin = await startOrigin("127.0.0.2", routes({ "/turn.html": send(200, "text/html; charset=utf-8", PAGE) }));
    env = {
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY } }, defaultModel: "e2e-model" }),
      PERSIST_DIR: persist,
    };
    stack = await startStack(env);
  });
  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    await model?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);
  const follow = async (id: string) => frames(await fetch(`${stack.url}/api/sessions/${id}/stream`));

  it("streams a two-step turn an AI SDK client rebuilds into exactly the stored message", async () => {
    model.script.script(
      { toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/turn.html` } }] },
      { text: ["It says an agent ", "turn fetched it."] },
    );
    const id = (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId;
    const stream = await follow(id);
    expect(await api("POST", `/api/sessions/${id}/messages`, { message: "What does the turn page say?" })).toMatchObject({ status: 200, body: { ok: true } });
    const chunks = await stream.turn();
    expect(chunks.map((c) => c.type)).toEqual(expect.arrayContaining(["start", "tool-input-available", "tool-output-available", "text-delta", "finish"]));
    const rebuilt = await rebuild(chunks);
    await stream.close();

    const messages: any[] = await waitFor(async () => {
      const now = (await api("GET", `/api/sessions/${id}/messages?format=ui`)).body.messages;
      return now.length >= 2 && now;
    }, "the turn's message in the history");
    const stored = messages.at(-1);
    expect(stored.id).toBe(rebuilt!.id);
    expect(stored.parts).toEqual(rebuilt!.parts);
    expect(model.script.requests[1]!.body.messages.find((m: any) => m.role === "tool").content).toContain("loopback origin");
    const { stats } = (await api("GET", `/api/sessions/${id}/stats`)).body;
    expect(stats.tokens.total).toBeGreaterThan(0);
    expect(stack.output.join("")).not.toContain(KEY);
  });

  it("aborts a turn, closing the model's connection, and closes a turn a restart cut short", async () => {
    const id = (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId;
    const stream = await follow(id);
    model.script.script({ text: ["slow", " and", " slower"], delayMs: 400 });
    await api("POST", `/api/sessions/${id}/messages`, { message: "take your time" });
    const asked = (content: string) => model.script.requests.at(-1)?.body?.messages?.some((m: any) => m.content === content);
    await waitFor(() => asked("take your time"), "the model call of the slow turn");
    expect((await api("POST", `/api/sessions/${id}/abort`)).status).toBe(200);
    const aborted = await stream.turn();
    expect(aborted.map((c) => c.type)).toContain("abort");
    await waitFor(() => model.script.requests.at(-1)!.aborted, "the model to see its connection closed");
    expect((await api("GET", `/api/sessions/${id}/state`)).body.state.isStreaming).toBe(false);
    await stream.close();

    // A turn that never ends, then the whole stack stops under it.
    model.script.script({ hang: true });
    await api("POST", `/api/sessions/${id}/messages`, { message: "hang" });
    await waitFor(() => asked("hang") && !model.script.requests.at(-1)!.completed, "the model call that hangs");
    // The turn's marker is written unconfirmed before the model call. Opening a stream writes the
    // session's activity and answers only once that write commits; writes commit in order, so the
    // marker is on disk before the stack stops.
    await (await follow(id)).close();
    await stack.stop();
    stack = await startStack(env);
    const after = await follow(id);
    const closed = await after.turn();
    expect(closed.find((c) => c.type === "error")).toMatchObject({ errorText: expect.stringMatching(/^interrupted/) });
    model.script.script({ text: ["back again"] });
    expect((await api("POST", `/api/sessions/${id}/messages`, { message: "still there?" })).status).toBe(200);
    expect((await after.turn()).map((c) => c.type)).toContain("text-delta");
    await after.close();
  });
});
