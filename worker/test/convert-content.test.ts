import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { Env } from "../src/env.ts";
import { sseReader } from "../../test-support/sse-reader.ts";
import { call, newSession, openStream, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");
const SECRET = "test-attachment-secret-0123456789";
const ENV: Partial<Env> = { ...withConfig({ timeoutMs: 5_000 }), ATTACHMENT_SECRET: SECRET };
const app = createApp();

const convert = (id: string, params: unknown, overrides: Partial<Env> = ENV) => tool(id, "convert_content", params, overrides);

async function upload(id: string, bytes: Uint8Array | string, name: string, type: string, overrides: Partial<Env> = ENV) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  const res = await app.request(`/api/sessions/${id}/attachments`, { method: "POST", body: form }, { ...(env as unknown as Env), ...overrides });
  expect(res.status).toBe(200);
  return ((await res.json()) as { attachment: { id: string } }).attachment.id;
}

describe("convert_content through the worker, the session object and the sidecar's converter threads", () => {
  it("converts a PDF by URL: headings, text in page order, pages, metadata, provider", async () => {
    const id = await newSession(ENV);
    const res = await convert(id, { url: `${origin}/guide.pdf` });
    expect(res.status).toBe(200);
    const { body } = res;
    expect(body).toMatchObject({ source: `${origin}/guide.pdf`, provider: "unpdf", truncated: false, responseId: expect.any(String) });
    expect(body.metadata).toMatchObject({ contentType: "application/pdf", fileName: "guide.pdf", pages: { total: 3, included: 3 }, fileSize: expect.any(Number), durationMs: expect.any(Number) });
    const content: string = body.content;
    expect(content).toMatch(/^#+ Second chapter$/m);
    expect(content.indexOf("first page")).toBeLessThan(content.indexOf("second page"));
    expect(content.indexOf("second page")).toBeLessThan(content.indexOf("third page"));
  });

  it("reads only the selected pages", async () => {
    const id = await newSession(ENV);
    const { body } = await convert(id, { url: `${origin}/guide.pdf`, pages: "2-3" });
    expect(body.metadata.pages).toEqual({ total: 3, included: 2 });
    expect(body.content).not.toContain("first page");
    expect(body.content).toContain("third page");
  });

  it("stores the answer like a fetch result, readable by get_search_content", async () => {
    const id = await newSession(ENV);
    const { body } = await convert(id, { url: `${origin}/minutes.docx` });
    expect(body.provider).toBe("mammoth");
    expect(body.content).toMatch(/^# Minutes$/m);
    const whole = await tool(id, "get_search_content", { responseId: body.responseId }, ENV);
    expect(whole.body.result).toMatchObject({ kind: "fetch", responseId: body.responseId, results: [{ url: `${origin}/minutes.docx`, content: body.content }] });
    const one = await tool(id, "get_search_content", { responseId: body.responseId, url: `${origin}/minutes.docx` }, ENV);
    expect(one.body.result.metadata).toMatchObject({ converter: "mammoth", fileName: "minutes.docx" });
  });

  it("detects a spreadsheet served as application/octet-stream by its bytes", async () => {
    const id = await newSession(ENV);
    const { status, body } = await convert(id, { url: `${origin}/budget.xlsx` });
    expect(status).toBe(200);
    expect(body.content).toContain("## Budget");
    expect(body.content).toMatch(/\| *Tents *\| *120 *\|/);
  });

  it("converts an uploaded attachment; another session's attachment is not found", async () => {
    const owner = await newSession(ENV);
    const pdf = await (await fetch(`${origin}/guide.pdf`)).arrayBuffer();
    const attachmentId = await upload(owner, new Uint8Array(pdf), "guide.pdf", "application/pdf");
    const res = await convert(owner, { attachmentId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: `attachment:${attachmentId}`, provider: "unpdf", metadata: { fileName: "guide.pdf" } });
    expect(res.body.content).toContain("where the birds nest");

    const tooLarge = await convert(owner, { attachmentId }, { ...ENV, ...withConfig({ convert: { maxResponseBytes: 100 } }) });
    expect(tooLarge).toMatchObject({ status: 413, body: { error: { code: "FILE_TOO_LARGE" } } });
    const named = await upload(owner, new Uint8Array(pdf), "鳥の巣 guide.pdf", "application/pdf");
    expect((await convert(owner, { attachmentId: named })).body.metadata.fileName).toBe("鳥の巣 guide.pdf");

    const other = await newSession(ENV);
    const refused = await convert(other, { attachmentId });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("FILE_NOT_FOUND");
    expect((await convert(owner, { attachmentId: "att_unknown" })).body.error.code).toBe("FILE_NOT_FOUND");
  });

  it("answers each input error with its code and status, and keeps serving", async () => {
    const id = await newSession(ENV);
    const cases: Array<[unknown, number, string, object?]> = [
      [{}, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, attachmentId: "att_x" }, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, pages: "two" }, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, maxContentChars: 0 }, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, timeoutMs: 1.5 }, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, images: "embedded" }, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, comments: "yes" }, 400, "INVALID_INPUT"],
      [{ url: `${origin}/guide.pdf`, pages: "9-12" }, 400, "INVALID_INPUT"],
      [{ url: "ftp://127.0.0.2/guide.pdf" }, 400, "UNSUPPORTED_PROTOCOL"],
      [{ url: "file:///etc/passwd" }, 400, "UNSUPPORTED_PROTOCOL"],
      [{ url: "http://127.0.0.1:9/guide.pdf" }, 403, "PRIVATE_NETWORK_BLOCKED"],
      [{ url: `${origin}/guide-redirect` }, 403, "PRIVATE_NETWORK_BLOCKED"],
      [{ url: `${origin}/missing` }, 404, "FILE_NOT_FOUND", { fault: "not-found", upstreamStatus: 404 }],
      [{ url: `${origin}/gone` }, 410, "FILE_NOT_FOUND", { fault: "not-found", upstreamStatus: 410 }],
      [{ url: `${origin}/photo.png` }, 415, "CONVERT_FAILED", { fault: "unsupported-type" }],
      [{ url: `${origin}/report.pdf` }, 422, "CONVERT_FAILED", { fault: "unreadable" }],
      [{ url: `${origin}/broken` }, 502, "NETWORK_ERROR", { fault: "upstream", upstreamStatus: 500 }],
      [{ url: `${origin}/private` }, 502, "CONVERT_FAILED", { fault: "upstream", upstreamStatus: 403 }],
    ];
    for (const [params, status, code, details] of cases) {
      const res = await convert(id, params);
      expect({ params, status: res.status, code: res.body.error?.code, details: res.body.error?.details }).toEqual({ params, status, code, details });
      expect(res.body.error.message.length).toBeGreaterThan(10);
    }
    const tooLarge = await convert(id, { url: `${origin}/guide.pdf` }, { ...ENV, ...withConfig({ convert: { maxResponseBytes: 200 } }) });
    expect(tooLarge).toMatchObject({ status: 413, body: { error: { code: "FILE_TOO_LARGE" } } });
    expect((await convert(id, { url: `${origin}/guide.pdf` })).status).toBe(200);
  });

  it("caps maxContentChars at the configured limit and marks the cut", async () => {
    const id = await newSession(ENV);
    const capped = withConfig({ convert: { maxContentChars: 40 } });
    const { body } = await convert(id, { url: `${origin}/guide.pdf`, maxContentChars: 10_000 }, { ...ENV, ...capped });
    expect(body.truncated).toBe(true);
    expect(body.content.length).toBeLessThanOrEqual(40);
    const own = await convert(id, { url: `${origin}/guide.pdf`, maxContentChars: 25 });
    expect(own.body.content.length).toBeLessThanOrEqual(25);
  });

  it("streams the call and counts it in the session's stats", async () => {
    const id = await newSession(ENV);
    const stream = sseReader((await openStream(id, {}, ENV)).body!);
    await convert(id, { url: `${origin}/guide.pdf` });
    const frames = await stream.take(4);
    await stream.cancel();
    expect(frames.map((f) => f.data.chunk.type)).toEqual(["start", "tool-input-available", "tool-output-available", "finish"]);
    expect(frames[1]!.data.chunk.toolName).toBe("convert_content");
    const { stats } = (await call("GET", `/api/sessions/${id}/stats`, undefined, ENV)).body;
    expect(stats).toMatchObject({ toolCalls: 1, web: { conversions: 1 } });
  });

  it("runs /convert <url> as a slash command", async () => {
    const id = await newSession(ENV);
    const stream = sseReader((await openStream(id, {}, ENV)).body!);
    const posted = await call("POST", `/api/sessions/${id}/messages`, { message: `/convert ${origin}/guide.pdf` }, ENV);
    expect(posted.status).toBe(200);
    const frames = await stream.take(4);
    await stream.cancel();
    const output = frames.find((f) => f.data.chunk.type === "tool-output-available")!.data.chunk.output;
    expect(output.content).toContain("where the birds nest");
  });
});
