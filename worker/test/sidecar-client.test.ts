import { env } from "cloudflare:workers";
import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, searchRequestFrom } from "@edge-web/shared";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { createSidecarClient } from "../src/sidecar-client.ts";

const bindings = env as unknown as Env;
const origin = inject("originUrl");
const options = { ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"] };

describe("the worker's sidecar client", () => {
  it("reports a token the sidecar refuses without echoing the token", async () => {
    const token = "not-the-sidecar-token-0123456789";
    const client = createSidecarClient({ SIDECAR_URL: bindings.SIDECAR_URL, SIDECAR_TOKEN: token });
    const result = await client.fetchContent(`${origin}/notes.txt`, false, options);
    expect(result).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/refused the worker's token/) } });
    expect(JSON.stringify(result)).not.toContain(token);
    expect(await client.healthy()).toBe(false);
  });

  it("reports an unreachable sidecar in the tool's codes", async () => {
    const client = createSidecarClient({ SIDECAR_URL: "http://127.0.0.1:9", SIDECAR_TOKEN: bindings.SIDECAR_TOKEN });
    const fetched = await client.fetchContent(`${origin}/notes.txt`, false, options);
    expect(fetched).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/sidecar is unreachable/) } });
    const searched = await client.search(searchRequestFrom(DEFAULT_WEB_CONFIG, "q", 1, {}));
    expect(searched).toMatchObject({ ok: false, error: { code: "WEB_SEARCH_FAILED", message: expect.stringMatching(/sidecar is unreachable/) } });
  });

  it("passes the sidecar's answer and the bytes it read through", async () => {
    const result = await createSidecarClient(bindings).fetchContent(`${origin}/notes.txt`, false, options);
    expect(result).toMatchObject({ ok: true, value: { content: "plain notes\nsecond line" }, bytes: 23 });
  });
});
