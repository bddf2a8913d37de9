import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from "ai-v5";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { PiExtensionUiConfirmSchema, PiSseFrameSchema, type PiSseFrame } from "../test-support/pi-protocol/sse-frame.ts";
import { sseReader, type ReadFrame } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const KEY = "sk-e2e-pi-client-0123456789abcdef";
/** A small window, so that a turn reading a few long pages compacts its context. */
const WINDOW = 6_000;
/** 20,000 characters of paragraphs naming their page. */
const page = (n: number) => Array.from({ length: 50 }, (_, p) => `Page ${n}, paragraph ${p}: finding ${n}.${p}.`.padEnd(398, ".")).join("\n\n");
const STEER = "Only the findings, please.";
const FOLLOW_UP = "Now list the findings.";

/** A frame as pi-web's client takes it: parsed by the protocol's frame schema, or the issues that make the client drop it. */
function asClient(frame: ReadFrame): PiSseFrame {
  const parsed = v.safeParse(PiSseFrameSchema, frame.data);
  if (!parsed.success) throw new Error(`frame ${frame.id} is not one of the protocol's: ${JSON.stringify(frame.data)}\n${v.summarize(parsed.issues)}`);
  return parsed.output;
}

/** Each message's chunks, `start` to `finish`, as the client takes them. */
function turns(frames: ReadFrame[]): UIMessageChunk[][] {
  const out: UIMessageChunk[][] = [];
  let current: UIMessageChunk[] | undefined;
  for (const frame of frames) {
    const taken = asClient(frame);
    if (taken.kind !== "uiMessageChunk") continue;
    if (taken.chunk.type === "start") current = [];
    current?.push(taken.chunk as UIMessageChunk);
    if (taken.chunk.type === "finish" && current) {
      out.push(current);
      current = undefined;
    }
  }
  return out;
}

/** What AI SDK v5's client builds from one message's chunks; an error it reports fails the test. */
async function rebuildV5(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const errors: unknown[] = [];
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true, onError: (error) => errors.push(error) })) last = message;
  expect(errors).toEqual([]);
  return last!;
}

describe("the session's frames, as pi-web's client (protocol 0.1.0, AI SDK v5) takes them", () => {
  let model: FakeModelServer;
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-pi-frames-"));
  let session: string;
  /** Every frame of the turns below, as it came live. */
  const live: ReadFrame[] = [];

  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);

  /**
   * Two turns as a client lives them: the first reads three long pages, each fetch confirmed
   * through /ui-response but page 2's, denied; while page 2's waits, a steer and a follow-up are
   * sent. The follow-up's turn reads three more pages, and the small window makes it compact.
   */
  beforeAll(async () => {
    model = await startFakeOpenAI({ apiKey: KEY, models: ["small-model"] });
    origin = await startOrigin("127.0.0.2", routes(Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`/page-${n}.txt`, send(200, "text/plain; charset=utf-8", page(n))]))));
    const provider = { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY, models: [{ id: "small-model", contextWindow: WINDOW }] };
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { small: provider }, defaultModel: "small-model", askBeforeFetch: true }),
      PERSIST_DIR: persist,
    });

    model.script.contextWindow = WINDOW;
    const fetches = (pages: number[]) => pages.map((n) => ({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/page-${n}.txt` } }] }));
    model.script.script(...fetches([1, 2, 3]), { text: ["Read 1 and 3."] }, ...fetches([4, 5, 6]), { text: ["Findings: ", "4, 5 and 6."] });
    session = `/api/sessions/${(await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId}`;
    const reader = sseReader((await fetch(`${stack.url}${session}/stream`)).body!);
    expect((await api("POST", `${session}/messages`, { message: "Read pages 1 to 3." })).status).toBe(200);
    for (let finishes = 0; finishes < 2; ) {
      const frame = await reader.next();
      if (!frame) throw new Error("the stream ended");
      if (frame.comment !== undefined) continue;
      live.push(frame);
      if (frame.data?.chunk?.type === "finish") finishes++;
      const request = frame.data?.payload?.control === "extension-ui" ? frame.data.payload.request : undefined;
      if (!request) continue;
      const denied = String(request.message).includes("/page-2.txt");
      if (denied) {
        expect((await api("POST", `${session}/steer`, { message: STEER })).status).toBe(200);
        expect((await api("POST", `${session}/follow_up`, { message: FOLLOW_UP })).status).toBe(200);
      }
      expect((await api("POST", `${session}/ui-response`, { type: "extension_ui_response", id: request.id, confirmed: !denied })).status).toBe(200);
    }
    await reader.cancel();
    model.script.contextWindow = undefined;
  });
  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    await model?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  it("streams approvals, a steer, a follow-up and a compaction only in frames the protocol's schema accepts", () => {
    const frames = live.map(asClient);
    const chunks = frames.flatMap((f) => (f.kind === "uiMessageChunk" ? [f.chunk] : []));
    const requests = frames.flatMap((f) => (f.kind === "control" && f.payload.control === "extension-ui" ? [f.payload.request] : []));
    expect(frames.filter((f) => f.kind === "control")).toHaveLength(6);
    // Each approval is pi's confirm request, which the client shows and answers through /ui-response.
    for (const request of requests) v.parse(PiExtensionUiConfirmSchema, request);
    expect(chunks.find((c) => c.type === "tool-output-error")).toMatchObject({ errorText: expect.stringMatching(/^DENIED/) });
    // Steers and follow-ups show as pi's queue: queued, the steer taken by the next model call, the follow-up started.
    expect(live.flatMap((f) => (f.data.chunk?.type === "data-pi-queue" ? [f.data.chunk.data] : []))).toEqual([
      { steering: [STEER], followUp: [] },
      { steering: [STEER], followUp: [FOLLOW_UP] },
      { steering: [], followUp: [FOLLOW_UP], delivered: [STEER] },
      { steering: [], followUp: [] },
    ]);
    expect(chunks.filter((c) => c.type === "data-pi-compaction").map((c) => c.data.phase)).toContain("end");
    // The model got the steer with the first turn's third call, and the follow-up as a turn of its own.
    const asked = model.script.requests.filter((r) => !r.summary && r.path === "/v1/chat/completions").map((r) => r.body.messages.at(-1));
    expect(asked.filter((m) => m.role === "user").map((m) => m.content)).toEqual(expect.arrayContaining([STEER, FOLLOW_UP]));
  });

  it("replays the same frames from the log, and says a replay cannot start where asked with a control frame the protocol knows", async () => {
    const replay = sseReader((await fetch(`${stack.url}${session}/stream`, { headers: { "last-event-id": "0" } })).body!);
    const replayed = await replay.take(live.length);
    await replay.cancel();
    expect(replayed.map((f) => f.id)).toEqual(live.map((f) => f.id));
    expect(replayed.map(asClient)).toEqual(live.map(asClient));

    const past = live.at(-1)!.id! + 100;
    const ahead = sseReader((await fetch(`${stack.url}${session}/stream`, { headers: { "last-event-id": String(past) } })).body!);
    const [notice] = await ahead.take(1);
    await ahead.cancel();
    expect(asClient(notice!)).toMatchObject({ kind: "control", payload: { control: "error", code: "resync" } });
    expect(notice!.data.payload).toMatchObject({ lastEventId: past, oldestAvailableId: expect.any(Number) });
  });

  it("is taken by AI SDK v5: its chunk schema accepts every chunk, and readUIMessageStream builds each message", async () => {
    for (const frame of live.filter((f) => f.data.kind === "uiMessageChunk")) {
      const checked = await uiMessageChunkSchema().validate!(frame.data.chunk);
      expect(checked.success, JSON.stringify(frame.data.chunk)).toBe(true);
    }
    const [first, second] = await Promise.all(turns(live).map(rebuildV5));
    const tools = first!.parts.filter((p) => p.type === "tool-fetch_content") as Array<{ state: string; errorText?: string; output?: any }>;
    expect(tools.map((t) => t.state)).toEqual(["output-available", "output-error", "output-available"]);
    expect(tools[1]!.errorText).toMatch(/^DENIED/);
    expect(tools[0]!.output.results[0].content).toContain("Page 1, paragraph 0");
    expect(first!.parts.filter((p) => p.type === "data-pi-queue")).toHaveLength(3);
    expect(first!.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text)).toEqual(["Read 1 and 3."]);
    expect(second!.parts.some((p) => p.type === "data-pi-compaction")).toBe(true);
    expect(second!.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("")).toBe("Findings: 4, 5 and 6.");
  });
});
