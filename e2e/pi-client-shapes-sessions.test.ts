import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { PiUploadAttachmentResponseSchema } from "../test-support/pi-protocol/attachment.ts";
import { secretClear, secretKeep, secretSet } from "../test-support/pi-protocol/secret.ts";
import { PiAssistantMessageSchema, PiToolResultMessageSchema, PiUserMessageSchema } from "../test-support/pi-protocol/messages.ts";
import {
  PiCreateSessionRequestSchema,
  PiCreateSessionResponseSchema,
  PiGetAvailableModelsResponseSchema,
  PiGetMessagesResponseSchema,
  PiGetStateResponseSchema,
} from "../test-support/pi-protocol/rest.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789";
const ADMIN = "admin-token-0123456789";
const KEY = "sk-pi-sessions-model-key-0123456789";
const SET_KEY = "sk-set-through-the-config-api-0123456789";

/** Parses `value` with `schema`, failing the test with valibot's issues (paths and messages). */
function shaped<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) expect.fail(`${JSON.stringify(value).slice(0, 600)}\n${parsed.issues.map((i) => `${v.getDotPath(i) ?? "(root)"}: ${i.message}`).join("\n")}`);
  return parsed.output;
}

/**
 * The session shapes the original pi-web client reads, checked against npm start's stack with pi's
 * shapes (test-support/pi-protocol): models, state, resuming a session and its history, attachments,
 * and the config API's secret writes.
 */
describe("the pi-web client's session shapes over npm start's stack", () => {
  let model: FakeModelServer;
  /** A model server an admin configures through the config API (on an address web.allowHosts exempts). */
  let configured: FakeModelServer;
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-pi-sessions-"));

  beforeAll(async () => {
    model = await startFakeOpenAI({ apiKey: KEY, models: ["pi-model"] });
    configured = await startFakeOpenAI({ host: "127.0.0.3", apiKey: SET_KEY, models: ["set-model"] });
    origin = await startOrigin("127.0.0.2", routes({ "/page.html": send(200, "text/html; charset=utf-8", "<title>Resumed</title><article><p>A page a turn read before the reload.</p></article>") }));
    // The operator's model server is on loopback: its address must never be shown.
    const provider = { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY, models: [{ id: "pi-model", name: "Pi Model", reasoning: true, contextWindow: 64_000, cost: { input: 1, output: 4 } }] };
    stack = await startStack({ PERSIST_DIR: persist, API_TOKENS: `${ALICE},${BOB}`, ADMIN_TOKEN: ADMIN, WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2", "127.0.0.3"] }), AGENT_CONFIG: JSON.stringify({ modelProviders: { local: provider }, defaultModel: "pi-model" }) });
  });
  afterAll(async () => {
    await stack?.stop();
    await model?.close();
    await configured?.close();
    await origin?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const newSession = async (token = ALICE) => (await api("POST", "/api/sessions", token, { source: "pi-sessions" })).body.sessionId as string;

  it("lists models in pi's Model shape and answers a new session's state with the model a turn would use", async () => {
    const id = await newSession();
    const expected = {
      id: "pi-model", name: "Pi Model", api: "openai-completions", provider: "local", baseUrl: "", reasoning: true, input: ["text", "image"],
      cost: { input: 1, output: 4, cacheRead: 0, cacheWrite: 0 }, contextWindow: 64_000, maxTokens: 64_000,
    };
    const listed = await api("GET", `/api/sessions/${id}/models`, ALICE);
    expect(shaped(PiGetAvailableModelsResponseSchema, listed.body).models).toEqual([expected]);
    const state = await api("GET", `/api/sessions/${id}/state`, ALICE);
    expect(shaped(PiGetStateResponseSchema, state.body).state.model).toEqual(expected);
    for (const answer of [listed, state]) expect(JSON.stringify(answer.body)).not.toContain(new URL(model.baseURL).host);
  });

  it("resumes the caller's own session when its page is loaded again, history kept; another caller's resumeId gets a new session", async () => {
    const id = await newSession();
    await api("POST", `/api/sessions/${id}/tools/get_search_content`, ALICE, { responseId: "nothing-stored" });
    // What the client sends when the page of a session is loaded again.
    const resume = (token: string) => api("POST", "/api/sessions", token, shaped(PiCreateSessionRequestSchema, { source: "pi-sessions", resumeId: id }));
    const resumed = await resume(ALICE);
    expect(resumed.status).toBe(201);
    expect(shaped(PiCreateSessionResponseSchema, resumed.body).sessionId).toBe(id);
    expect((await api("GET", `/api/sessions/${id}/messages?format=ui`, ALICE)).body.messages).toHaveLength(1);
    const other = await resume(BOB);
    expect(other.status).toBe(201);
    expect(other.body.sessionId).not.toBe(id);
    expect((await api("GET", `/api/sessions/${other.body.sessionId}/messages?format=ui`, BOB)).body.messages).toEqual([]);
  });

  it("answers a resumed session's history in pi's message shape: the user's text and image, thinking, the tool call and its result, the answer", async () => {
    const id = await newSession();
    const form = new FormData();
    form.set("file", new File([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], "shot.png", { type: "image/png" }));
    const upload = await fetch(`${stack.url}/api/sessions/${id}/attachments`, { method: "POST", body: form, headers: { authorization: `Bearer ${ALICE}` } });
    const image = shaped(PiUploadAttachmentResponseSchema, await upload.json()).attachment;
    model.script.script(
      { reasoning: ["Reading ", "the page."], toolCalls: [{ name: "fetch_content", arguments: { url: `${origin.url}/page.html` } }] },
      { text: ["It was read ", "before the reload."] },
    );
    const stream = sseReader((await fetch(`${stack.url}/api/sessions/${id}/stream`, { headers: { authorization: `Bearer ${ALICE}` } })).body!);
    expect((await api("POST", `/api/sessions/${id}/messages`, ALICE, { message: "What does the page say?", attachmentIds: [image.id] })).status).toBe(200);
    for (let frame = await stream.next(); frame && frame.data?.chunk?.type !== "finish"; frame = await stream.next());
    await stream.cancel();
    await waitFor(async () => !(await api("GET", `/api/sessions/${id}/state`, ALICE)).body.state.isStreaming, "the turn to end");

    // The page is loaded again: the client resumes the session, then reads its history.
    expect((await api("POST", "/api/sessions", ALICE, { source: "pi-sessions", resumeId: id })).body.sessionId).toBe(id);
    const history = (await api("GET", `/api/sessions/${id}/messages`, ALICE)).body;
    const { messages } = shaped(PiGetMessagesResponseSchema, history);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const [user, call, result, answer] = [shaped(PiUserMessageSchema, messages[0]), shaped(PiAssistantMessageSchema, messages[1]), shaped(PiToolResultMessageSchema, messages[2]), shaped(PiAssistantMessageSchema, messages[3])];
    expect(user.content).toEqual([
      { type: "text", text: "What does the page say?" },
      { type: "image", data: "", mimeType: "image/png" },
    ]);
    // The image is read through the signed URL the message carries beside pi's fields (which the schema drops).
    expect(history.messages[0].content[1]).toMatchObject({ attachmentId: image.id, displayUrl: expect.stringMatching(/^\/api\/attachments\//) });
    const displayUrl: string = history.messages[0].content[1].displayUrl;
    const bytes = await fetch(new URL(displayUrl, stack.url));
    expect([bytes.status, bytes.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(call.content).toEqual([
      { type: "thinking", thinking: "Reading the page." },
      { type: "toolCall", id: expect.any(String), name: "fetch_content", arguments: { url: `${origin.url}/page.html` } },
    ]);
    expect(call.stopReason).toBe("toolUse");
    const toolCallId = (call.content[1] as { id: string }).id;
    expect(result).toMatchObject({ toolCallId, toolName: "fetch_content", isError: false });
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("before the reload") });
    expect(result.details).toMatchObject({ results: [{ title: "Resumed" }] });
    expect(answer).toMatchObject({ content: [{ type: "text", text: "It was read before the reload." }], stopReason: "stop" });
    // The AI SDK's shape stays available.
    const ui = (await api("GET", `/api/sessions/${id}/messages?format=ui`, ALICE)).body.messages;
    expect(ui.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  });

  it("answers an upload as pi-web's Attachment, createdAt included", async () => {
    const id = await newSession();
    const form = new FormData();
    form.set("file", new File(["attached bytes"], "a.txt", { type: "text/plain" }));
    const res = await fetch(`${stack.url}/api/sessions/${id}/attachments`, { method: "POST", body: form, headers: { authorization: `Bearer ${ALICE}` } });
    expect(res.status).toBe(200);
    const { attachment } = shaped(PiUploadAttachmentResponseSchema, await res.json());
    expect(attachment).toMatchObject({ name: "a.txt", mimeType: "text/plain", size: 14, origin: "upload", sessionId: id });
  });

  it("takes pi-web's secret writes in the config API: set, keep, clear; reads stay masks; a keep does not carry a key to a new URL", async () => {
    const provider = (apiKey: unknown, baseURL = configured.baseURL) => ({ values: { modelProviders: { piset: { api: "openai-compatible", baseURL, apiKey } } } });
    const listed = async () => ((await api("GET", "/api/config/models", ADMIN)).body.models as Array<{ provider: string; id: string }>).filter((m) => m.provider === "piset").map((m) => m.id);
    const lastAuthorization = () => configured.script.requests.at(-1)?.headers.authorization;

    expect((await api("PUT", "/api/config/auth", ADMIN, provider(secretSet(SET_KEY)))).status).toBe(200);
    expect((await api("GET", "/api/config/auth", ADMIN)).body.values.modelProviders.piset.apiKey).toBe("sk-***");
    expect(await listed()).toEqual(["set-model"]);
    expect((await api("PUT", "/api/config/auth", ADMIN, provider(secretKeep()))).status).toBe(200);
    expect(await listed()).toEqual(["set-model"]);
    expect(lastAuthorization()).toBe(`Bearer ${SET_KEY}`);

    // The same server under another URL: the stored key was set for the first one, and a keep gives none.
    expect((await api("PUT", "/api/config/auth", ADMIN, provider(secretKeep(), `${configured.url}/other/v1`))).status).toBe(200);
    expect(await listed()).toEqual([]);
    expect(configured.script.requests.at(-1)?.path).toBe("/other/v1/models");
    expect(lastAuthorization()).toBeUndefined();

    expect((await api("PUT", "/api/config/auth", ADMIN, provider(secretSet(SET_KEY)))).status).toBe(200);
    expect(await listed()).toEqual(["set-model"]);
    expect((await api("PUT", "/api/config/auth", ADMIN, provider(secretClear()))).status).toBe(200);
    expect((await api("GET", "/api/config/auth", ADMIN)).body.values.modelProviders.piset).not.toHaveProperty("apiKey");
    expect(await listed()).toEqual([]);
    expect((await api("PUT", "/api/config/auth", ADMIN, { values: { modelProviders: { piset: null } } })).status).toBe(200);
  });
});
