import { env } from "cloudflare:workers";
import { Hono } from "hono";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { PiUploadAttachmentResponseSchema } from "../../test-support/pi-protocol/attachment.ts";
import type { AppEnv } from "../src/app-env.ts";
import { createApp } from "../src/app.ts";
import type { Attachment } from "../src/attachments/attachment-store.ts";
import { DEFAULT_MAX_ATTACHMENT_BYTES } from "../src/attachments/max-attachment-bytes.ts";
import { MULTIPART_ALLOWANCE_BYTES } from "../src/attachments/read-limited-form.ts";
import { ATTACHMENT_URL_TTL_MS, signAttachmentUrl } from "../src/attachments/sign-attachment-url.ts";
import type { Env } from "../src/env.ts";
import { attachmentDownloadRoute, attachmentRoutes } from "../src/routes/attachment-routes.ts";

const app = createApp({ routes: [attachmentRoutes] });
const SECRET = "test-attachment-secret-0123456789";
const bucket = () => (env as unknown as Env).ATTACHMENTS;

type Overrides = Partial<Env> & { ATTACHMENT_MAX_BYTES?: string };
/** The JSON answers here: an upload's success fields or an error. */
interface Answer {
  attachment: Attachment;
  displayUrl: string;
  protocolVersion: string;
  error: { code: string; message: string };
}

/** Calls the app in workerd with the test bindings plus an attachment secret, optionally overriding some. */
async function send(path: string, init: RequestInit = {}, overrides: Overrides = {}, target = app): Promise<Response> {
  return target.request(path, init, { ...(env as unknown as Env), ATTACHMENT_SECRET: SECRET, ...overrides });
}

async function newSession(overrides: Overrides = {}, headers: Record<string, string> = {}): Promise<string> {
  const res = await send("/api/sessions", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"source":"test"}' }, overrides);
  expect(res.status).toBe(201);
  return ((await res.json()) as { sessionId: string }).sessionId;
}

function form(fields: Record<string, Blob | string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

async function upload(sessionId: string, body: BodyInit, overrides: Overrides = {}, headers: Record<string, string> = {}) {
  const res = await send(`/api/sessions/${sessionId}/attachments`, { method: "POST", body, headers }, overrides);
  return { status: res.status, body: (await res.json()) as Answer };
}

/** Keys of the objects stored for a session. */
async function storedFor(sessionId: string): Promise<string[]> {
  const listed = await bucket().list({ include: ["customMetadata"] });
  return listed.objects.filter((o) => o.customMetadata?.sessionId === sessionId).map((o) => o.key);
}

const MULTIPART = "multipart/form-data; boundary=XBOUNDARYX";
const PART_HEAD = new TextEncoder().encode(
  '--XBOUNDARYX\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
);

/** A multipart body that never ends by itself; counts what the server pulled and whether it cancelled. */
function endlessUpload(chunkBytes: number, highWaterMark = 1) {
  const seen = { pulls: 0, bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = seen.pulls === 0 ? PART_HEAD : new Uint8Array(chunkBytes).fill(120);
        seen.pulls += 1;
        seen.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark },
  );
  return { stream, seen };
}

const BYTES = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
const NAME = "héllo (1)'s *.png";

describe("uploading an attachment", () => {
  it("stores the bytes in R2 and describes the attachment", async () => {
    const sessionId = await newSession();
    const res = await upload(sessionId, form({ file: new File([BYTES], NAME, { type: "image/png" }) }));
    expect(res.status).toBe(200);
    expect(res.body.protocolVersion).toBe("0.1.0");
    const { attachment, displayUrl } = res.body;
    expect(attachment).toEqual({ id: expect.any(String), name: NAME, mimeType: "image/png", size: 256, origin: "upload", sessionId, createdAt: expect.any(String) });
    // pi-web's client parses the answer with its own schema: createdAt is required there.
    expect(v.safeParse(PiUploadAttachmentResponseSchema, { attachment, displayUrl }).success).toBe(true);
    expect(attachment.id).toMatch(/^att_[A-Za-z0-9_-]{22,}$/);
    expect(displayUrl).toMatch(new RegExp(`^/api/attachments/${attachment.id}/raw\\?exp=\\d+&sig=[A-Za-z0-9_-]+$`));
    const exp = Number(new URL(displayUrl, "http://x").searchParams.get("exp"));
    expect(exp).toBeGreaterThan(Date.now() + ATTACHMENT_URL_TTL_MS - 60_000);
    expect(exp).toBeLessThanOrEqual(Date.now() + ATTACHMENT_URL_TTL_MS);

    const object = await bucket().get(attachment.id);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(BYTES);
    expect(object!.customMetadata).toEqual({ name: NAME, mimeType: "image/png", sessionId, origin: "upload" });
    expect(object!.httpMetadata?.contentType).toBe("image/png");
    expect(attachment.createdAt).toBe(object!.uploaded.toISOString());
  });

  it("gives every upload its own id", async () => {
    const sessionId = await newSession();
    const file = () => form({ file: new File(["same"], "a.txt", { type: "text/plain" }) });
    const [a, b] = [await upload(sessionId, file()), await upload(sessionId, file())];
    expect(a.body.attachment.id).not.toBe(b.body.attachment.id);
    expect((await storedFor(sessionId)).sort()).toEqual([a.body.attachment.id, b.body.attachment.id].sort());
  });

  it("serves the exact bytes at displayUrl with safe headers", async () => {
    const sessionId = await newSession();
    const uploaded = await upload(sessionId, form({ file: new File([BYTES], NAME, { type: "text/html" }) }));
    const res = await send(uploaded.body.displayUrl);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(BYTES);
    expect(res.headers.get("content-type")).toBe("text/html");
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
    expect(res.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''h%C3%A9llo%20%281%29%27s%20%2A.png");
    expect(res.headers.get("x-pi-protocol-version")).toBe("0.1.0");
  });

  it("puts the app's base path in front of displayUrl", async () => {
    const based = createApp({ routes: [attachmentRoutes], basePath: "/v1" });
    const created = await send("/v1/api/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: '{"source":"t"}' }, {}, based);
    const { sessionId } = (await created.json()) as { sessionId: string };
    const res = await send(`/v1/api/sessions/${sessionId}/attachments`, { method: "POST", body: form({ file: new File(["hi"], "a.txt") }) }, {}, based);
    const { displayUrl } = (await res.json()) as Answer;
    expect(displayUrl).toMatch(/^\/v1\/api\/attachments\/att_/);
    expect(await (await send(displayUrl, {}, {}, based)).text()).toBe("hi");
  });

  it("stores an unusable MIME type as application/octet-stream", async () => {
    const sessionId = await newSession();
    const res = await upload(sessionId, form({ file: new File(["x"], "a.bin", { type: "not a mime type" }) }));
    expect(res.body.attachment.mimeType).toBe("application/octet-stream");
  });

  it("answers 404 for an unknown or deleted session, 403 for another token's", async () => {
    const file = () => form({ file: new File(["x"], "a.txt") });
    const unknown = await upload(crypto.randomUUID(), file());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("SESSION_NOT_FOUND");

    const ended = await newSession();
    expect((await send(`/api/sessions/${ended}`, { method: "DELETE" })).status).toBe(200);
    const afterEnd = await upload(ended, file());
    expect(afterEnd.status).toBe(404);
    expect(afterEnd.body.error.code).toBe("SESSION_NOT_FOUND");

    const tokens = { API_TOKENS: "token-a,token-b" };
    const owned = await newSession(tokens, { authorization: "Bearer token-a" });
    const other = await upload(owned, file(), tokens, { authorization: "Bearer token-b" });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe("FORBIDDEN");
    expect((await upload(owned, file(), tokens, { authorization: "Bearer token-a" })).status).toBe(200);
    expect(await storedFor(ended)).toEqual([]);
  });
});

describe("deleting the session", () => {
  it("deletes its attachments' bytes too", async () => {
    const sessionId = await newSession();
    const first = await upload(sessionId, form({ file: new File(["one"], "a.txt", { type: "text/plain" }) }));
    const second = await upload(sessionId, form({ file: new File(["two"], "b.txt", { type: "text/plain" }) }));
    expect((await storedFor(sessionId)).sort()).toEqual([first.body.attachment.id, second.body.attachment.id].sort());
    expect((await send(`/api/sessions/${sessionId}`, { method: "DELETE" })).status).toBe(200);
    expect(await storedFor(sessionId)).toEqual([]);
    const download = await send(first.body.displayUrl);
    expect(download.status).toBe(404);
    expect(((await download.json()) as Answer).error.code).toBe("ATTACHMENT_NOT_FOUND");
  });
});

describe("upload size limit", () => {
  it("refuses a declared Content-Length over the limit without reading the body", async () => {
    const sessionId = await newSession();
    // highWaterMark 0: the stream is pulled only when someone reads the body.
    const { stream, seen } = endlessUpload(1024, 0);
    const res = await upload(sessionId, stream, {}, { "content-type": MULTIPART, "content-length": String(DEFAULT_MAX_ATTACHMENT_BYTES + MULTIPART_ALLOWANCE_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(seen.pulls).toBe(0);
    expect(await storedFor(sessionId)).toEqual([]);
  });

  it("cuts off a body without Content-Length once it passes the limit", async () => {
    const sessionId = await newSession();
    const { stream, seen } = endlessUpload(16_384);
    const res = await upload(sessionId, stream, { ATTACHMENT_MAX_BYTES: "1024" }, { "content-type": MULTIPART });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThanOrEqual(1024 + MULTIPART_ALLOWANCE_BYTES + 4 * 16_384);
    expect(await storedFor(sessionId)).toEqual([]);
  });

  it("cuts off a body whose Content-Length understates it", async () => {
    const sessionId = await newSession();
    const { stream, seen } = endlessUpload(16_384);
    const res = await upload(sessionId, stream, { ATTACHMENT_MAX_BYTES: "1024" }, { "content-type": MULTIPART, "content-length": "200" });
    expect(res.status).toBe(413);
    expect(seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThanOrEqual(1024 + MULTIPART_ALLOWANCE_BYTES + 4 * 16_384);
    expect(await storedFor(sessionId)).toEqual([]);
  });

  it("accepts a file of exactly the limit and refuses one byte more", async () => {
    const sessionId = await newSession();
    const limit = { ATTACHMENT_MAX_BYTES: "1024" };
    const atLimit = await upload(sessionId, form({ file: new File([new Uint8Array(1024)], "ok.bin") }), limit);
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.attachment.size).toBe(1024);
    const over = await upload(sessionId, form({ file: new File([new Uint8Array(1025)], "big.bin") }), limit);
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await storedFor(sessionId)).toEqual([atLimit.body.attachment.id]);
  });
});

describe("uploads without a file", () => {
  it.each([
    ["no file part", () => form({ note: "hello" })],
    ["the wrong field name", () => form({ upload: new File(["x"], "a.txt") })],
    ["an empty file", () => form({ file: new File([], "empty.txt") })],
    ["a text field named file", () => form({ file: "just text" })],
    ["a JSON body", () => JSON.stringify({ file: "x" })],
  ])("answers 400 NO_FILE for %s", async (_label, body) => {
    const sessionId = await newSession();
    const res = await upload(sessionId, body());
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("NO_FILE");
    expect(await storedFor(sessionId)).toEqual([]);
  });
});

describe("signed downloads", () => {
  async function uploaded() {
    const sessionId = await newSession();
    const res = await upload(sessionId, form({ file: new File([BYTES], "a.bin", { type: "application/octet-stream" }) }));
    const url = new URL(res.body.displayUrl, "http://x");
    return { id: res.body.attachment.id, exp: url.searchParams.get("exp")!, sig: url.searchParams.get("sig")! };
  }

  async function expectInvalid(path: string) {
    const res = await send(path);
    expect(res.status).toBe(401);
    const body = (await res.json()) as Answer;
    expect(body.error.code).toBe("INVALID_SIGNATURE");
    return body.error.message as string;
  }

  it("refuses tampered signatures, ids and expiries", async () => {
    const { id, exp, sig } = await uploaded();
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    await expectInvalid(`/api/attachments/${id}/raw?exp=${exp}&sig=${flipped}`);
    await expectInvalid(`/api/attachments/${id}/raw?exp=${Number(exp) + 1}&sig=${sig}`);
    await expectInvalid(`/api/attachments/${id}/raw?exp=${exp}&sig=${sig}!`);
    const other = await uploaded();
    await expectInvalid(`/api/attachments/${other.id}/raw?exp=${exp}&sig=${sig}`);
    const foreign = await signAttachmentUrl("some-other-secret", id);
    await expectInvalid(foreign);
    expect((await send(`/api/attachments/${id}/raw?exp=${exp}&sig=${sig}`)).status).toBe(200);
  });

  it("needs no principal: the download route alone, as mounted ahead of the API's auth, serves the file", async () => {
    const { id, exp, sig } = await uploaded();
    const bare = new Hono<AppEnv>().route("/", attachmentDownloadRoute);
    const res = await bare.request(`/api/attachments/${id}/raw?exp=${exp}&sig=${sig}`, {}, { ...(env as unknown as Env), ATTACHMENT_SECRET: SECRET, API_TOKENS: "t" });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(BYTES);
  });

  it("refuses an expired URL", async () => {
    const { id } = await uploaded();
    const expired = await signAttachmentUrl(SECRET, id, Date.now() - ATTACHMENT_URL_TTL_MS - 1_000);
    await expectInvalid(expired);
  });

  it("refuses missing parameters, with the same answer whether or not the id exists", async () => {
    const { id, exp, sig } = await uploaded();
    const messages = [
      await expectInvalid(`/api/attachments/${id}/raw`),
      await expectInvalid(`/api/attachments/${id}/raw?exp=${exp}`),
      await expectInvalid(`/api/attachments/${id}/raw?sig=${sig}`),
      await expectInvalid(`/api/attachments/${id}/raw?exp=&sig=`),
      await expectInvalid(`/api/attachments/att_nothing/raw?exp=${exp}&sig=${sig}`),
    ];
    expect(new Set(messages).size).toBe(1);
  });

  it("answers 404 ATTACHMENT_NOT_FOUND to a valid signature for a missing object", async () => {
    const res = await send(await signAttachmentUrl(SECRET, "att_neverStoredAnywhere0"));
    expect(res.status).toBe(404);
    expect(((await res.json()) as Answer).error.code).toBe("ATTACHMENT_NOT_FOUND");

    const { id, exp, sig } = await uploaded();
    await bucket().delete(id);
    expect((await send(`/api/attachments/${id}/raw?exp=${exp}&sig=${sig}`)).status).toBe(404);
  });
});

describe("without ATTACHMENT_SECRET", () => {
  it.each([[undefined], [""]])("answers 500 to uploads and downloads (secret %j)", async (secret) => {
    const sessionId = await newSession();
    const up = await upload(sessionId, form({ file: new File(["x"], "a.txt") }), { ATTACHMENT_SECRET: secret });
    expect(up.status).toBe(500);
    expect(up.body.error.code).toBe("INTERNAL_ERROR");
    expect(up.body.error.message).toContain("ATTACHMENT_SECRET");
    expect(await storedFor(sessionId)).toEqual([]);

    const stored = await upload(sessionId, form({ file: new File(["x"], "a.txt") }));
    const down = await send(stored.body.displayUrl, {}, { ATTACHMENT_SECRET: secret });
    expect(down.status).toBe(500);
    expect(((await down.json()) as Answer).error.message).toContain("ATTACHMENT_SECRET");
  });
});
