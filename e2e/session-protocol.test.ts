import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789";
const ADMIN = "admin-token-0123456789";

describe("the session protocol over npm start's stack", () => {
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-protocol-"));

  beforeAll(async () => {
    origin = await startOrigin("127.0.0.2", routes({ "/note.txt": send(200, "text/plain", "a note"), "/page.html": send(200, "text/html", "<title>T</title><p>page body</p>") }));
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }),
      PERSIST_DIR: persist,
      API_TOKENS: `${ALICE},${BOB}`,
      ADMIN_TOKEN: ADMIN,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const api = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${stack.url}${path}`, {
      ...init,
      headers: { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }), ...(init.headers as Record<string, string>) },
    });
  const post = (path: string, token: string | undefined, body: unknown) => api(path, token, { method: "POST", body: JSON.stringify(body) });
  const newSession = async () => ((await (await post("/api/sessions", ALICE, { source: "e2e" })).json()) as { sessionId: string }).sessionId;

  it("streams tool calls live and replays exactly the missed frames after a reconnect", async () => {
    const id = await newSession();
    const live = await api(`/api/sessions/${id}/stream`, ALICE);
    expect(live.headers.get("content-type")).toBe("text/event-stream");
    const stream = sseReader(live.body!);
    await post(`/api/sessions/${id}/tools/fetch_content`, ALICE, { url: `${origin.url}/note.txt` });
    const first = await stream.take(4);
    expect(first.map((f) => f.data.chunk.type)).toEqual(["start", "tool-input-available", "tool-output-available", "finish"]);
    await stream.cancel();

    // Missed while disconnected: two more calls.
    await post(`/api/sessions/${id}/tools/get_search_content`, ALICE, { responseId: "nope" });
    await post(`/api/sessions/${id}/tools/fetch_content`, ALICE, { url: `${origin.url}/page.html` });
    const resumed = await api(`/api/sessions/${id}/stream`, ALICE, { headers: { "Last-Event-ID": String(first.at(-1)!.id) } });
    const again = sseReader(resumed.body!);
    const replay = await again.take(8);
    expect(replay.map((f) => f.id)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(replay[2]!.data.chunk.type).toBe("tool-output-error");
    await again.cancel();
  });

  it("keeps sessions to their token and config writes to the admin", async () => {
    const id = await newSession();
    expect((await post("/api/sessions", undefined, { source: "x" })).status).toBe(401);
    expect((await api(`/api/sessions/${id}/state`, BOB)).status).toBe(403);
    expect((await api(`/api/sessions/${id}/state`, ALICE)).status).toBe(200);
    const write = (token: string) => api("/api/config/sandbox", token, { method: "PUT", body: JSON.stringify({ values: { deniedDomains: ["blocked.test"] } }) });
    expect((await write(ALICE)).status).toBe(403);
    expect((await write(ADMIN)).status).toBe(200);
  });

  it("applies a config change to the next tool call without a restart", async () => {
    const id = await newSession();
    expect((await post(`/api/sessions/${id}/tools/fetch_content`, ALICE, { url: `${origin.url}/note.txt` })).status).toBe(200);
    const put = await api("/api/config/settings", ADMIN, { method: "PUT", body: JSON.stringify({ values: { maxContentChars: 3 } }) });
    expect(put.status).toBe(200);
    const after = (await (await post(`/api/sessions/${id}/tools/fetch_content`, ALICE, { url: `${origin.url}/note.txt` })).json()) as any;
    expect(after.results[0]).toMatchObject({ content: "a n", truncated: true });
    await api("/api/config/settings", ADMIN, { method: "PUT", body: JSON.stringify({ values: { maxContentChars: null } }) });
  });

  it("uploads an attachment and serves it through its signed URL alone", async () => {
    const id = await newSession();
    const form = new FormData();
    form.set("file", new File(["attached bytes"], "a.txt", { type: "text/plain" }));
    const upload = await fetch(`${stack.url}/api/sessions/${id}/attachments`, { method: "POST", body: form, headers: { authorization: `Bearer ${ALICE}` } });
    expect(upload.status).toBe(200);
    const { attachment, displayUrl } = (await upload.json()) as { attachment: { id: string; size: number }; displayUrl: string };
    expect(attachment.size).toBe(14);
    const download = await fetch(`${stack.url}${displayUrl}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe("attached bytes");
    expect((await fetch(`${stack.url}${displayUrl.replace(/sig=[^&]+/, "sig=AAAA")}`)).status).toBe(401);
  });
});
