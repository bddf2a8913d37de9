import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { EgressRefusedError } from "../src/egress-refused-error.ts";
import type { Env } from "../src/env.ts";
import { relayFetch } from "../src/relay-fetch.ts";
import { RelayUnavailableError } from "../src/relay-unavailable-error.ts";

const bindings = env as unknown as Env;
const origin = inject("originUrl"); // 127.0.0.2
const ALLOWED = { allowPrivateNetwork: false, allowHosts: ["127.0.0.2"] };
const TIMING = { timeoutMs: 10_000, idleMs: 10_000 };
const API_KEY = "sk-relay-worker-key-0123456789abcdef";

const state = async (id: string) => (await (await fetch(`${origin}/relay-state?id=${id}`)).json()) as { opened: boolean; ended: boolean; closed: boolean };
const decoder = new TextDecoder();

describe("relayFetch", () => {
  it("streams an answer from a loopback upstream that allowHosts allows, while the upstream holds it open", async () => {
    const response = await relayFetch(bindings, ALLOWED, TIMING)(`${origin}/relay-stream?id=stream`);
    expect([response.status, response.headers.get("content-type"), response.headers.get("x-relay")]).toEqual([200, "text/event-stream", null]);
    const reader = response.body!.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe("data: one\n\n");
    expect(await state("stream")).toEqual({ opened: true, ended: false, closed: false });
    await fetch(`${origin}/relay-release?id=stream`);
    let rest = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += decoder.decode(next.value);
    expect(rest).toBe("data: two\n\n");
  });

  it("relays through the sidecar's service binding when there is one, whatever SIDECAR_URL's host", async () => {
    const socket = (env as unknown as { SIDECAR_SOCKET: Fetcher }).SIDECAR_SOCKET;
    // Port 9 on loopback answers nothing: only the binding can reach the sidecar.
    const relay = relayFetch({ SIDECAR_URL: "http://127.0.0.1:9", SIDECAR_TOKEN: bindings.SIDECAR_TOKEN, SIDECAR: socket }, ALLOWED, TIMING);
    const response = await relay(`${origin}/relay-echo`, { method: "POST", body: "through the binding" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("through the binding");
  });

  it("sends a Request's method, headers and body", async () => {
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "héllo" }] });
    const request = new Request(`${origin}/relay-echo`, { method: "POST", headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }, body });
    const response = await relayFetch(bindings, ALLOWED, TIMING)(request);
    const echoed = (await response.json()) as { method: string; headers: Record<string, string>; body: string };
    expect(echoed).toMatchObject({ method: "POST", body, headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" } });
  });

  it("answers a POST's redirect as it is: neither the sidecar nor the worker follows it", async () => {
    const response = await relayFetch(bindings, ALLOWED, TIMING)(`${origin}/relay-redirect`, { method: "POST", body: "{}" });
    expect([response.status, response.headers.get("location")]).toEqual([302, "/relay-echo"]);
  });

  it("throws EgressRefusedError with status 403 for a destination the policy blocks, before any request reaches it", async () => {
    const fetchBlocked = relayFetch(bindings, { allowPrivateNetwork: false, allowHosts: [] }, TIMING);
    const refused = await fetchBlocked(`${origin}/relay-stream?id=blocked`, { headers: { authorization: `Bearer ${API_KEY}` } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EgressRefusedError);
    expect(refused).toMatchObject({ status: 403, code: "blocked", message: expect.stringContaining("blocked by the network policy") });
    expect((refused as Error).message).not.toContain(API_KEY);
    expect((await state("blocked")).opened).toBe(false);
  });

  it("throws EgressRefusedError with status 502 for an upstream status outside 100–599, which a Response cannot carry", async () => {
    const refused = await relayFetch(bindings, ALLOWED, TIMING)(`${origin}/relay-status-600`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EgressRefusedError);
    expect(refused).toMatchObject({ status: 502, code: "network", message: expect.stringContaining("answered with status 600, which is not an HTTP status") });
  });

  it("closes the relayed request when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const response = await relayFetch(bindings, ALLOWED, TIMING)(`${origin}/relay-stream?id=abort`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect.poll(async () => (await state("abort")).closed, { timeout: 5_000 }).toBe(true);
  });

  it("says when the sidecar refuses the worker's token, without the token", async () => {
    const token = "not-the-sidecar-token-0123456789";
    const failed = await relayFetch({ SIDECAR_URL: bindings.SIDECAR_URL, SIDECAR_TOKEN: token }, ALLOWED, TIMING)(`${origin}/relay-echo`).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RelayUnavailableError);
    expect((failed as Error).message).toMatch(/refused the worker's token/);
    expect((failed as Error).message).not.toContain(token);
  });
});
