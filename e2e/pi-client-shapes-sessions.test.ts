import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PiUploadAttachmentResponseSchema } from "../test-support/pi-protocol/attachment.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const ALICE = "alice-token-0123456789";

/** Parses `value` with `schema`, failing the test with valibot's issues (paths and messages). */
function shaped<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) expect.fail(`${JSON.stringify(value).slice(0, 600)}\n${parsed.issues.map((i) => `${v.getDotPath(i) ?? "(root)"}: ${i.message}`).join("\n")}`);
  return parsed.output;
}

/**
 * The session shapes the original pi-web client reads, checked against npm start's stack with pi's
 * shapes (test-support/pi-protocol): attachments.
 */
describe("the pi-web client's session shapes over npm start's stack", () => {
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-pi-sessions-"));
  const env = { PERSIST_DIR: persist, API_TOKENS: ALICE };

  beforeAll(async () => {
    stack = await startStack(env);
  });
  afterAll(async () => {
    await stack?.stop();
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
