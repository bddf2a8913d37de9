import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { PiUploadAttachmentResponseSchema } from "../test-support/pi-protocol/attachment.ts";
import { PiCreateSessionRequestSchema, PiCreateSessionResponseSchema, PiGetAvailableModelsResponseSchema, PiGetStateResponseSchema } from "../test-support/pi-protocol/rest.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789";
const KEY = "sk-pi-sessions-model-key-0123456789";

/** Parses `value` with `schema`, failing the test with valibot's issues (paths and messages). */
function shaped<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) expect.fail(`${JSON.stringify(value).slice(0, 600)}\n${parsed.issues.map((i) => `${v.getDotPath(i) ?? "(root)"}: ${i.message}`).join("\n")}`);
  return parsed.output;
}

/**
 * The session shapes the original pi-web client reads, checked against npm start's stack with pi's
 * shapes (test-support/pi-protocol): models, state, resuming a session, attachments.
 */
describe("the pi-web client's session shapes over npm start's stack", () => {
  let model: FakeModelServer;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-pi-sessions-"));

  beforeAll(async () => {
    model = await startFakeOpenAI({ apiKey: KEY, models: ["pi-model"] });
    // The operator's model server is on loopback: its address must never be shown.
    const provider = { api: "openai-compatible", baseURL: model.baseURL, apiKey: KEY, models: [{ id: "pi-model", name: "Pi Model", reasoning: true, contextWindow: 64_000, cost: { input: 1, output: 4 } }] };
    stack = await startStack({ PERSIST_DIR: persist, API_TOKENS: `${ALICE},${BOB}`, AGENT_CONFIG: JSON.stringify({ modelProviders: { local: provider }, defaultModel: "pi-model" }) });
  });
  afterAll(async () => {
    await stack?.stop();
    await model?.close();
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

  it("answers an upload as pi-web's Attachment, createdAt included", async () => {
    const id = await newSession();
    const form = new FormData();
    form.set("file", new File(["attached bytes"], "a.txt", { type: "text/plain" }));
    const res = await fetch(`${stack.url}/api/sessions/${id}/attachments`, { method: "POST", body: form, headers: { authorization: `Bearer ${ALICE}` } });
    expect(res.status).toBe(200);
    const { attachment } = shaped(PiUploadAttachmentResponseSchema, await res.json());
    expect(attachment).toMatchObject({ name: "a.txt", mimeType: "text/plain", size: 14, origin: "upload", sessionId: id });
  });
});
