import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "../test-support/fake-anthropic.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const KEY = "sk-ant-e2e-compaction-0123456789";
const WINDOW = 6_000;
/** 20,000 characters of paragraphs naming their page. */
const page = (n: number) => Array.from({ length: 50 }, (_, p) => `Page ${n}, paragraph ${p}: finding ${n}.${p}.`.padEnd(398, ".")).join("\n\n");

describe("compaction over npm start's stack", () => {
  let model: FakeModelServer;
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-compaction-"));

  beforeAll(async () => {
    model = await startFakeAnthropic({ apiKey: KEY });
    origin = await startOrigin("127.0.0.2", routes(Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`/page-${n}.txt`, send(200, "text/plain; charset=utf-8", page(n))]))));
    const provider = { api: "anthropic", baseURL: model.baseURL, apiKey: KEY, models: [{ id: "small-claude", contextWindow: WINDOW }] };
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { small: provider }, defaultModel: "small-claude" }),
      PERSIST_DIR: persist,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    await model?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);

  it("keeps a session of long pages under the window, its compactions streamed, rebuilt by an AI SDK client and stored alike", async () => {
    model.script.contextWindow = WINDOW;
    const id = (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId;
    const reader = sseReader((await fetch(`${stack.url}/api/sessions/${id}/stream`)).body!);
    const turn = async (message: string) => {
      expect((await api("POST", `/api/sessions/${id}/messages`, { message })).status).toBe(200);
      const chunks: UIMessageChunk[] = [];
      for (let frame = await reader.next(); frame; frame = await reader.next()) {
        if (frame.data?.kind !== "uiMessageChunk") continue;
        chunks.push(frame.data.chunk);
        if (frame.data.chunk.type === "finish") break;
      }
      return chunks;
    };
    const fetches = (pages: number[]) => pages.map((n) => ({ toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/page-${n}.txt` } }] }));
    model.script.script(...fetches([1, 2, 3]), { text: ["Read 1 to 3."] });
    await turn("Read pages 1 to 3.");
    model.script.script(...fetches([4, 5, 6]), { text: ["Read 4 to 6."] });
    const second = await turn("Read pages 4 to 6.");
    await reader.cancel();

    const requests = model.script.requests.filter((r) => r.path === "/v1/messages");
    for (const request of requests) expect(request.tokens).toBeLessThan(WINDOW);
    expect(requests.some((r) => r.summary)).toBe(true);
    const marks = second.filter((c) => c.type === "data-pi-compaction") as Array<{ type: string; data: { phase: string } }>;
    expect(marks.map((c) => c.data.phase)).toContain("end");

    let rebuilt: UIMessage | undefined;
    const stream = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of second) controller.enqueue(chunk);
        controller.close();
      },
    });
    for await (const message of readUIMessageStream({ stream })) rebuilt = message;
    const stored: UIMessage = await waitFor(async () => {
      const messages = (await api("GET", `/api/sessions/${id}/messages?format=ui`)).body.messages as UIMessage[];
      const last = messages.at(-1);
      return last && last.id === rebuilt?.id && last.parts.some((p) => p.type === "text") ? last : undefined;
    }, "the second turn's message in the history");
    expect(stored.parts).toEqual(rebuilt!.parts);
    expect(stored.parts.some((p) => p.type === "data-pi-compaction")).toBe(true);

    const compacted = await api("POST", `/api/sessions/${id}/compact`, { instructions: "keep page numbers" });
    expect(compacted.status).toBe(200);
    expect(typeof compacted.body.compacted).toBe("boolean");
    const stats = (await api("GET", `/api/sessions/${id}/stats`)).body.stats;
    expect(stats.compactions.count).toBe(requests.filter((r) => r.summary).length + (compacted.body.compacted ? 1 : 0));
    model.script.contextWindow = undefined;
  });
});
