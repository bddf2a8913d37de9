import { env } from "cloudflare:workers";
import { deadlineIn, DEFAULT_WEB_CONFIG, fetchOptionsFrom } from "@edge-web/shared";
import { describe, expect, inject, it } from "vitest";
import type { Env } from "../src/env.ts";
import { relayFetch } from "../src/relay-fetch.ts";
import { RelayUnavailableError } from "../src/relay-unavailable-error.ts";
import { createSidecarClient } from "../src/sidecar-client.ts";
import { sidecarFetch } from "../src/sidecar-fetch.ts";
import { sidecarInstance } from "../src/sidecar-instance.ts";

const bindings = env as unknown as Env;
// Records every request it receives: each base URL of the pool is a path of its own there.
const recorder = inject("attackerUrl");
const received = async () => (await (await fetch(`${recorder}/__received`)).json()) as Array<{ url: string; body: string }>;

describe("sidecarFetch over a pool listed in SIDECAR_URL", () => {
  it("sends every call about a host to the sidecar sidecarInstance picks for it, as it does for containers", async () => {
    const pool = `pool-${crypto.randomUUID()}`;
    const bases = [0, 1, 2, 3].map((i) => `${recorder}/${pool}/${i}`);
    // Spaces and a trailing slash around an entry are allowed.
    const send = sidecarFetch({ SIDECAR_URL: bases.map((base, i) => (i === 2 ? ` ${base}/ ` : base)).join(",") });
    const hosts = Array.from({ length: 40 }, (_, i) => `site-${i}.example`);
    for (const host of hosts) expect((await send("/v1/fetch", { method: "POST", body: host }, host)).status).toBe(200);
    const mine = (await received()).filter((request) => request.url.startsWith(`/${pool}/`));
    expect(mine.map((request) => [request.body, request.url])).toEqual(hosts.map((host) => [host, `/${pool}/${sidecarInstance(host, 4)}/v1/fetch`]));
    // The hosts reach every sidecar of the pool.
    expect(new Set(mine.map((request) => request.url)).size).toBe(4);
  });

  it("sends a call about no host to any sidecar of the pool", async () => {
    const pool = `pool-${crypto.randomUUID()}`;
    const send = sidecarFetch({ SIDECAR_URL: `${recorder}/${pool}/0,${recorder}/${pool}/1` });
    for (let i = 0; i < 40; i++) await send("/healthz");
    const urls = new Set((await received()).filter((request) => request.url.startsWith(`/${pool}/`)).map((request) => request.url));
    expect([...urls].sort()).toEqual([`/${pool}/0/healthz`, `/${pool}/1/healthz`]);
  });

  it("answers SIDECAR_UNAVAILABLE naming SIDECAR_URL and the entry at fault when an entry is empty or not an http(s) URL", async () => {
    const cases = [
      [`${recorder}/a,,${recorder}/b`, /SIDECAR_URL is invalid \(its entry 2 of 3: it is empty/],
      [`${recorder}/a,`, /SIDECAR_URL is invalid \(its entry 2 of 2: it is empty/],
      [`${recorder}/a,ftp://files.example/`, /SIDECAR_URL is invalid \(its entry 2 of 2: it is not an http\(s\) URL/],
      ["sidecar:8788", /SIDECAR_URL is invalid \(its entry 1 of 1: it is not an http\(s\) URL/],
    ] as const;
    for (const [list, message] of cases) {
      const response = await sidecarFetch({ SIDECAR_URL: list })("/healthz");
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: "SIDECAR_UNAVAILABLE", message: expect.stringMatching(message) } });
    }
  });

  it("passes the configuration error on to a tool call and a relayed request, as the sidecar being unavailable", async () => {
    const invalid = { SIDECAR_URL: `${bindings.SIDECAR_URL},`, SIDECAR_TOKEN: bindings.SIDECAR_TOKEN };
    const relayed = relayFetch(invalid, { allowPrivateNetwork: false, allowHosts: [] }, { timeoutMs: 1_000, idleMs: 1_000 })("https://models.example/v1/chat");
    await expect(relayed).rejects.toThrow(RelayUnavailableError);
    await expect(relayed).rejects.toThrow(/SIDECAR_URL is invalid/);
    const client = createSidecarClient(invalid);
    const result = await client.fetchContent(`${inject("originUrl")}/notes.txt`, { preferReader: false }, fetchOptionsFrom(DEFAULT_WEB_CONFIG), deadlineIn(2_000));
    expect(result).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", message: expect.stringMatching(/SIDECAR_URL is invalid/), details: { fault: "unavailable" } } });
    expect(await client.healthy()).toBe(false);
  });
});
