import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { PiCommandsResponseSchema } from "../test-support/pi-protocol/commands.ts";
import { PiCompletionResponseSchema, PiCompletionTriggersResponseSchema, type PiCompletionItem } from "../test-support/pi-protocol/completion.ts";
import { PiCommandAckSchema, PiUiRpcControlFrameSchema, PiUiRpcRequestSchema, type PiUiRpcRequest } from "../test-support/pi-protocol/ui-rpc.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const KEY = "sk-pi-shapes-model-key-0123456789";

/** Parses `value` with `schema`, failing the test with valibot's issues (paths and messages). */
function shaped<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) expect.fail(`${JSON.stringify(value).slice(0, 600)}\n${parsed.issues.map((i) => `${v.getDotPath(i) ?? "(root)"}: ${i.message}`).join("\n")}`);
  return parsed.output;
}

/**
 * What the original pi-web client sends and reads, checked against npm start's stack: slash
 * commands typed as messages, GET /commands, GET /completion(/triggers) and POST /ui-rpc.
 */
describe("the pi-web client's shapes over npm start's stack", () => {
  let model: FakeModelServer;
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-pi-shapes-"));

  beforeAll(async () => {
    model = await startFakeOpenAI({ apiKey: KEY, models: ["shapes-model"] });
    origin = await startOrigin("127.0.0.2", routes({ "/note.txt": send(200, "text/plain", "a note for the shapes") }));
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      AGENT_CONFIG: JSON.stringify({ modelProviders: { local: { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY } }, defaultModel: "shapes-model" }),
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
  const newSession = async () => (await api("POST", "/api/sessions", { source: "pi-shapes" })).body.sessionId as string;
  const follow = async (id: string) => sseReader((await fetch(`${stack.url}/api/sessions/${id}/stream`)).body!);
  /** The chunks of one turn, `start` to `finish`. */
  const turn = async (stream: ReturnType<typeof sseReader>) => {
    const chunks: any[] = [];
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      if (frame.data?.kind !== "uiMessageChunk") continue;
      chunks.push(frame.data.chunk);
      if (frame.data.chunk.type === "finish") return chunks;
    }
    return chunks;
  };
  /** The user texts of the model's last request. */
  const askedOf = () => (model.script.requests.at(-1)?.body?.messages ?? []).filter((m: any) => m.role === "user").map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

  describe("slash commands typed as messages", () => {
    it("sends an unknown /word to the model as an ordinary message, as the client expects", async () => {
      const id = await newSession();
      const stream = await follow(id);
      for (const message of ["/zzz", "/help me"]) {
        model.script.script({ text: [`answered ${message}`] });
        expect(await api("POST", `/api/sessions/${id}/messages`, { message })).toMatchObject({ status: 200, body: { ok: true } });
        const chunks = await turn(stream);
        expect(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join("")).toBe(`answered ${message}`);
        expect(askedOf().at(-1)).toContain(message);
      }
      await stream.cancel();
    });

    it("still runs the web commands typed, with no model call", async () => {
      const id = await newSession();
      const stream = await follow(id);
      const before = model.script.requests.length;
      expect((await api("POST", `/api/sessions/${id}/messages`, { message: `/fetch ${origin.url}/note.txt` })).status).toBe(200);
      const chunks = await turn(stream);
      expect(chunks.map((c) => c.type)).toEqual(["start", "tool-input-available", "tool-output-available", "finish"]);
      expect(chunks[1]).toMatchObject({ toolName: "fetch_content" });
      expect(model.script.requests.length).toBe(before);
      // A known command without what it needs is still refused, saying how to use it.
      const bare = await api("POST", `/api/sessions/${id}/messages`, { message: "/search" });
      expect(bare).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_FAILED" } } });
      expect(bare.body.error.message).toContain("/search <query>");
      await stream.cancel();
    });
  });

  describe("GET /commands", () => {
    it("lists pi's slash commands, which the client shows by default and which run when sent as it sends them", async () => {
      const id = await newSession();
      const { commands } = shaped(PiCommandsResponseSchema, (await api("GET", `/api/sessions/${id}/commands`)).body);
      expect(commands.map((c) => c.name)).toEqual(["search", "fetch", "convert", "get", "compact"]);
      // The client hides "extension" commands unless told otherwise (in pi they never finish a turn).
      expect(commands.filter((c) => c.source === "extension")).toEqual([]);
      expect(commands.every((c) => c.description)).toBe(true);
      const fetchCommand = commands.find((c) => c.name === "fetch")!;
      const stream = await follow(id);
      const before = model.script.requests.length;
      // The client fills in "/" + name and a space; the user adds the arguments.
      expect((await api("POST", `/api/sessions/${id}/messages`, { message: `/${fetchCommand.name} ${origin.url}/note.txt` })).status).toBe(200);
      expect((await turn(stream)).find((c) => c.type === "tool-output-available")?.output.results[0].content).toContain("a note for the shapes");
      expect(model.script.requests.length).toBe(before);
      await stream.cancel();
    });
  });

  describe("POST /ui-rpc", () => {
    it("takes the client's request, acknowledges it, and answers on the stream paired by correlationId, failures as { code, message }", async () => {
      const id = await newSession();
      const fetched = (await api("POST", `/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/note.txt` })).body;
      const stream = await follow(id);
      /** What the client's RPC bus does: POST the request (an ack), then wait for the control frame with its correlationId. */
      const rpc = async (call: Omit<PiUiRpcRequest, "correlationId" | "protocolVersion">, correlationId: string) => {
        const request = shaped(PiUiRpcRequestSchema, { correlationId, ...call, protocolVersion: "0.1.0" });
        const posted = await api("POST", `/api/sessions/${id}/ui-rpc`, request);
        expect(posted.status).toBe(200);
        expect(posted.body).toEqual({ ok: true, protocolVersion: "0.1.0" });
        shaped(PiCommandAckSchema, posted.body);
        for (let frame = await stream.next(); frame; frame = await stream.next()) {
          if (frame.data?.kind !== "control") continue;
          const { payload } = shaped(PiUiRpcControlFrameSchema, frame.data);
          if (payload.response.correlationId === correlationId) return payload.response;
        }
        throw new Error(`no answer to ${correlationId}`);
      };

      const listed = await rpc({ point: "mention", action: "list", payload: {} }, "m1");
      expect(listed).toEqual({ correlationId: "m1", ok: true, result: [{ id: fetched.responseId, label: expect.stringContaining("note.txt"), kind: "fetch" }] });
      expect(await rpc({ point: "mention", action: "resolve", payload: { q: fetched.responseId.slice(0, 6) } }, "m2")).toMatchObject({ ok: true, result: [{ id: fetched.responseId }] });
      expect(await rpc({ point: "mention", action: "resolve", payload: { q: "no such result" } }, "m3")).toMatchObject({ ok: true, result: [] });
      expect(await rpc({ point: "custom", action: "execute", payload: { method: "session.stats" } }, "c1")).toMatchObject({ ok: true, result: { toolCalls: 1 } });
      expect(await rpc({ point: "custom", action: "execute", payload: { method: "results.get", params: { responseId: fetched.responseId } } }, "c2")).toMatchObject({ ok: true, result: { kind: "fetch", responseId: fetched.responseId } });

      // Failures reach the client's bus as { code, message }.
      const missing = await rpc({ point: "custom", action: "execute", payload: { method: "results.get", params: { responseId: "nope" } } }, "f1");
      expect(missing).toEqual({ correlationId: "f1", ok: false, error: { code: "NOT_FOUND", message: expect.stringContaining('"nope"') } });
      const unserved = await rpc({ point: "inlineComplete", action: "complete", payload: { ctx: "hel" } }, "f2");
      expect(unserved).toEqual({ correlationId: "f2", ok: false, error: { code: "VALIDATION_FAILED", message: expect.stringContaining("inlineComplete complete") } });
      expect(await rpc({ point: "custom", action: "execute", payload: { method: "nope" } }, "f3")).toMatchObject({ ok: false, error: { code: "VALIDATION_FAILED", message: expect.stringContaining("session.stats") } });
      expect(await rpc({ point: "mention", action: "list", payload: { q: 5 } }, "f4")).toMatchObject({ ok: false, error: { code: "VALIDATION_FAILED" } });

      // A request the client would never send is refused at once.
      const refused = await api("POST", `/api/sessions/${id}/ui-rpc`, { correlationId: "x", point: "nowhere", action: "list", payload: {}, protocolVersion: "0.1.0" });
      expect(refused).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_FAILED" } } });
      expect(refused.body.error.message).toContain("mention");
      await stream.cancel();
    });
  });

  describe("GET /completion/triggers and GET /completion", () => {
    /** What the client does with a picked item: the token, from its trigger to the cursor, becomes the item's insertText (else its label) and a space. */
    const accept = (value: string, start: number, item: PiCompletionItem) => `${value.slice(0, start)}${item.insertText ?? item.label} `;
    const complete = async (id: string, query: string) => shaped(PiCompletionResponseSchema, (await api("GET", `/api/sessions/${id}/completion?${query}`)).body);

    it("lists the triggers with their extract rules", async () => {
      const id = await newSession();
      const { triggers } = shaped(PiCompletionTriggersResponseSchema, (await api("GET", `/api/sessions/${id}/completion/triggers`)).body);
      expect(triggers.map(({ trigger, extract }) => ({ trigger, extract }))).toEqual([
        { trigger: "/", extract: "lineStart" },
        { trigger: "@", extract: "wordTail" },
      ]);
    });

    it("completes a command from q=, grouped by kind; the accepted text runs the command", async () => {
      const id = await newSession();
      const answer = await complete(id, "trigger=/&q=fe");
      expect(answer.items).toEqual([{ providerId: "commands", kind: "command", id: "fetch", label: "/fetch <url> [url…]", detail: expect.stringContaining("fetch_content"), insertText: "/fetch" }]);
      expect(answer.groups).toEqual([{ kind: "command", count: 1 }]);
      // query= is read too, and an empty query lists every command.
      expect(await complete(id, "trigger=/&query=fe")).toEqual(answer);
      expect((await complete(id, "trigger=/&q=")).items.map((item) => item.id)).toEqual(["search", "fetch", "convert", "get", "compact"]);

      const stream = await follow(id);
      const typed = `${accept("/fe", 0, answer.items[0]!)}${origin.url}/note.txt`;
      expect(typed).toBe(`/fetch ${origin.url}/note.txt`);
      expect((await api("POST", `/api/sessions/${id}/messages`, { message: typed })).status).toBe(200);
      expect((await turn(stream)).map((c) => c.type)).toEqual(["start", "tool-input-available", "tool-output-available", "finish"]);
      await stream.cancel();
    });

    it("completes @ with the stored results; the accepted mention gives the model that result", async () => {
      const id = await newSession();
      const fetched = (await api("POST", `/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/note.txt` })).body;
      const answer = await complete(id, `trigger=@&q=${fetched.responseId.slice(0, 4)}`);
      expect(answer.items).toEqual([{ providerId: "results", kind: "result", id: fetched.responseId, label: expect.stringContaining("note.txt"), detail: "fetch_content result", insertText: `@${fetched.responseId}` }]);
      expect(answer.groups).toEqual([{ kind: "result", count: 1 }]);
      expect((await complete(id, "trigger=@&q=nothing-like-it")).items).toEqual([]);

      const stream = await follow(id);
      model.script.script({ text: ["It is a note."] });
      const typed = `${accept("what does @" + fetched.responseId.slice(0, 4), 10, answer.items[0]!)}say?`;
      expect((await api("POST", `/api/sessions/${id}/messages`, { message: typed })).status).toBe(200);
      await turn(stream);
      expect(askedOf().join("\n")).toContain("a note for the shapes");
      await stream.cancel();
    });

    it("answers no items for a trigger it does not have, or none, as the client's server does", async () => {
      const id = await newSession();
      for (const query of ["trigger=%23&q=x", "q=x", ""]) expect(await complete(id, query)).toEqual({ items: [], groups: [], protocolVersion: "0.1.0" });
    });
  });
});
