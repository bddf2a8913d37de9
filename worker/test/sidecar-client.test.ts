import { env } from "cloudflare:workers";
import { deadlineIn, DEFAULT_WEB_CONFIG, fetchOptionsFrom, searchRequestFrom } from "@edge-web/shared";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { createSidecarClient } from "../src/sidecar-client.ts";
import { OPERATOR_URLS_ONLY } from "../../test-support/operator-urls.ts";

const bindings = env as unknown as Env;
const origin = inject("originUrl");
const options = { ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"] };

describe("the worker's sidecar client", () => {
  it("reports a token the sidecar refuses without echoing the token", async () => {
    const token = "not-the-sidecar-token-0123456789";
    const client = createSidecarClient({ SIDECAR_URL: bindings.SIDECAR_URL, SIDECAR_TOKEN: token });
    const result = await client.fetchContent(`${origin}/notes.txt`, { preferReader: false }, options, deadlineIn(2_000));
    expect(result).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/refused the worker's token/), details: { fault: "unavailable" } } });
    expect(JSON.stringify(result)).not.toContain(token);
    expect(await client.healthy()).toBe(false);
  });

  it("reports an unreachable sidecar in the tool's codes", async () => {
    const client = createSidecarClient({ SIDECAR_URL: "http://127.0.0.1:9", SIDECAR_TOKEN: bindings.SIDECAR_TOKEN });
    const fetched = await client.fetchContent(`${origin}/notes.txt`, { preferReader: false }, options, deadlineIn(2_000));
    expect(fetched).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/sidecar is unreachable/), details: { fault: "unavailable" } } });
    const searched = await client.search(searchRequestFrom(DEFAULT_WEB_CONFIG, "q", 1, {}, OPERATOR_URLS_ONLY), deadlineIn(2_000));
    expect(searched).toMatchObject({ ok: false, error: { code: "WEB_SEARCH_FAILED", message: expect.stringMatching(/sidecar is unreachable/) } });
  });

  it("reaches the sidecar through its service binding when there is one, whatever SIDECAR_URL's host", async () => {
    const socket = (env as unknown as { SIDECAR_SOCKET: Fetcher }).SIDECAR_SOCKET;
    // Port 9 on loopback answers nothing: only the binding can reach the sidecar.
    const client = createSidecarClient({ SIDECAR_URL: "http://127.0.0.1:9", SIDECAR_TOKEN: bindings.SIDECAR_TOKEN, SIDECAR: socket });
    expect(await client.healthy()).toBe(true);
    const result = await client.fetchContent(`${origin}/notes.txt`, { preferReader: false }, options, deadlineIn(2_000));
    expect(result).toMatchObject({ ok: true, value: { url: `${origin}/notes.txt` } });
  });

  it("sends a call once more when the connection closes before any answer", async () => {
    const client = createSidecarClient({ SIDECAR_URL: `${origin}/flaky-sidecar`, SIDECAR_TOKEN: bindings.SIDECAR_TOKEN });
    const result = await client.fetchContent(`${origin}/notes.txt`, { preferReader: false }, options, deadlineIn(2_000));
    expect(result).toMatchObject({ ok: true, value: { content: "second try" } });
  });

  it("names its session to the sidecar by the key it was made with, and no session without one", async () => {
    const echo = { SIDECAR_URL: `${origin}/echo-sidecar`, SIDECAR_TOKEN: bindings.SIDECAR_TOKEN };
    const sent = async (client: ReturnType<typeof createSidecarClient>) => {
      const answer = await client.fetchContent(`${origin}/notes.txt`, { preferReader: false, render: "always" }, options, deadlineIn(2_000));
      return JSON.parse(answer.ok && "value" in answer ? answer.value.content : "{}") as Record<string, unknown>;
    };
    expect(await sent(createSidecarClient(echo, "session-object-id"))).toMatchObject({ url: `${origin}/notes.txt`, render: "always", sessionKey: "session-object-id" });
    expect(await sent(createSidecarClient(echo))).not.toHaveProperty("sessionKey");
  });

  it("passes the fault the sidecar found through with the failure", async () => {
    const result = await createSidecarClient(bindings).fetchContent(`${origin}/missing`, { preferReader: false }, options, deadlineIn(2_000));
    expect(result).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", details: { fault: "not-found", upstreamStatus: 404 } } });
  });

  it("passes the sidecar's answer and the bytes it read through", async () => {
    const result = await createSidecarClient(bindings).fetchContent(`${origin}/notes.txt`, { preferReader: false }, options, deadlineIn(2_000));
    expect(result).toMatchObject({ ok: true, value: { content: "plain notes\nsecond line" }, bytes: 23 });
  });

  it("passes the sidecar's own refusals on, with its code and message, instead of an unexpected answer", async () => {
    const client = createSidecarClient(bindings);
    const invalid = await client.fetchContent(`${origin}/notes.txt`, { preferReader: false }, { ...options, timeoutMs: -1 }, deadlineIn(2_000));
    expect(invalid).toEqual({
      ok: false,
      error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/sidecar refused .*\(VALIDATION_FAILED\): Invalid fetch request: options\.timeoutMs/) },
    });
    const huge = await client.search(searchRequestFrom(DEFAULT_WEB_CONFIG, "q".repeat(300_000), 1, {}, OPERATOR_URLS_ONLY), deadlineIn(2_000));
    expect(huge).toEqual({ ok: false, error: { code: "WEB_SEARCH_FAILED", message: expect.stringMatching(/\(PAYLOAD_TOO_LARGE\): Requests are limited to 262144 bytes/) } });
    expect(JSON.stringify(huge).length).toBeLessThan(1_000);
  });

  it("gives up at the call's deadline when the sidecar is late, in the tool's timeout code", async () => {
    const started = Date.now();
    const late = await createSidecarClient(bindings).fetchContent(`${origin}/slow`, { preferReader: false }, options, deadlineIn(600));
    expect(late).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_TIMEOUT" } });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
