import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, type Origin, routes } from "../../test-support/origin.ts";
import { createSidecarServer, listen } from "../src/server.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const TOKEN = "test-token-0123456789";
let base: string;
let origin: Origin;
/** Whether the origin's /hang answer (headers, then nothing) has been closed from the other side. */
let hangClosed: boolean | undefined;
const deps = createSidecarDeps(settingsFromEnv({}));
const server = createSidecarServer({ token: TOKEN, deps });

beforeAll(async () => {
  const address: AddressInfo = await listen(server, 0, "127.0.0.1");
  base = `http://127.0.0.1:${address.port}`;
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      "/hello.txt": send(200, "text/plain", "hello"),
      "/hang": (_req, res) => {
        hangClosed = false;
        res.on("close", () => (hangClosed = true));
        res.writeHead(200, { "content-type": "text/plain" }).write("part of it");
      },
    }),
  );
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await origin.close();
  await deps.dispatchers.close();
});

const post = (body: unknown, token = TOKEN) =>
  fetch(`${base}/v1/fetch`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("the sidecar's HTTP API", () => {
  it("requires the bearer token on every route", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(401);
    expect((await fetch(`${base}/healthz`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await post({ url: "http://x.test/" }, "wrong")).status).toBe(401);
    const ok = await fetch(`${base}/healthz`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
  });

  it("fetches through the pipeline and answers a Result", async () => {
    const res = await post({ url: `${origin.url}/hello.txt`, options: { allowHosts: ["127.0.0.2"] } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, value: { content: "hello", contentType: "text/plain" } });
  });

  it("stops the work of a caller that goes away before its answer: the origin's connection is closed", async () => {
    const caller = new AbortController();
    const sent = fetch(`${base}/v1/fetch`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ url: `${origin.url}/hang`, options: { allowHosts: ["127.0.0.2"], timeoutMs: 15_000 } }),
      signal: caller.signal,
    });
    await expect.poll(() => hangClosed).toBe(false);
    caller.abort();
    await expect(sent).rejects.toThrow();
    await expect.poll(() => hangClosed).toBe(true);
  });

  it("answers coded failures as values", async () => {
    const res = await post({ url: `${origin.url}/hello.txt` });
    const body = await res.json();
    expect(body).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED" } });
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it("rejects malformed requests with field paths", async () => {
    expect((await post("{")).status).toBe(400);
    const res = await post({ url: 5, options: { timeoutMs: -1 } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { fields: string[] } }).error.fields).toEqual(["url", "options.timeoutMs"]);
  });

  it("refuses oversized requests and unknown routes", async () => {
    expect((await post({ url: "x".repeat(300_000) })).status).toBe(413);
    expect((await fetch(`${base}/v1/nope`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});
