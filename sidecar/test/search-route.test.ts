import type { AddressInfo } from "node:net";
import { SidecarSearchAnswerSchema } from "@edge-web/shared";
import * as v from "valibot";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createConvertPool } from "../src/convert/service/convert-pool.ts";
import { createSidecarServer, listen } from "../src/server.ts";
import { KEYS, searchRequest, startFakeProviders, startSearchDeps, watchForKeys, type FakeProviders } from "./support/fake-providers.ts";

const TOKEN = "search-route-token-0123456789";
let base: string;
let providers: FakeProviders;
let closeDeps: () => Promise<void>;
let server: ReturnType<typeof createSidecarServer>;
const watch = watchForKeys();

beforeAll(async () => {
  providers = await startFakeProviders();
  const started = await startSearchDeps();
  closeDeps = started.close;
  server = createSidecarServer({ token: TOKEN, deps: { ...started.deps, converter: createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 64 }) } });
  const address: AddressInfo = await listen(server, 0, "127.0.0.1");
  base = `http://127.0.0.1:${address.port}`;
});
beforeEach(() => providers.reset());
afterAll(async () => {
  watch.restore();
  server.closeAllConnections();
  server.close();
  await providers.close();
  await closeDeps();
});

async function post(body: unknown, token = TOKEN) {
  const res = await fetch(`${base}/v1/search`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: watch.record(await res.json()) as unknown };
}

describe("POST /v1/search", () => {
  it("requires the bearer token and asks no provider without it", async () => {
    const res = await post(searchRequest(providers), "wrong-token");
    expect(res).toEqual({ status: 401, body: { ok: false, error: { code: "UNAUTHORIZED", message: expect.any(String) } } });
    expect(providers.log).toEqual([]);
  });

  it("searches and answers the Result as 200 JSON", async () => {
    const res = await post(searchRequest(providers, { provider: "serper" }, { numResults: 2 }));
    expect(res.status).toBe(200);
    expect(v.is(SidecarSearchAnswerSchema, res.body)).toBe(true);
    expect(res.body).toEqual({
      ok: true,
      value: {
        provider: "serper",
        results: [
          { title: "Rust Programming Language", url: "https://www.rust-lang.org/", snippet: "A language empowering everyone.", source: "serper" },
          { title: "Rust - Wikipedia", url: "https://en.wikipedia.org/wiki/Rust_(programming_language)", snippet: "Rust is a general-purpose language.", source: "serper" },
        ],
      },
    });
    expect(providers.fakes.serper.requests[0]?.headers["x-api-key"]).toBe(KEYS.serper);
  });

  it("answers provider failures as 200 with the coded error and retryAfter", async () => {
    providers.fakes.brave.behave(429);
    const res = await post(searchRequest(providers, { provider: "brave" }));
    expect(res.status).toBe(200);
    expect(v.is(SidecarSearchAnswerSchema, res.body)).toBe(true);
    expect(res.body).toEqual({ ok: false, error: { code: "PROVIDER_RATE_LIMITED", message: expect.stringContaining("Brave") }, retryAfter: "17" });
  });

  it("rejects invalid requests with 400 VALIDATION_FAILED and the field paths", async () => {
    const request = searchRequest(providers);
    const res = await post({ ...request, query: "  ", numResults: 51, provider: "bing", providers: { ...request.providers, brave: { enabled: "yes" } } });
    expect(res).toEqual({
      status: 400,
      body: {
        ok: false,
        error: {
          code: "VALIDATION_FAILED",
          message: expect.stringMatching(/^Invalid search request: /),
          fields: ["query", "numResults", "provider", "providers.brave.enabled", "providers.brave.trusted", "providers.brave.baseUrl"],
        },
      },
    });
    expect((await post("{")).status).toBe(400);
    expect(providers.log).toEqual([]);
  });

  it("never answers a key", () => {
    expect(watch.count()).toBeGreaterThan(3);
    expect(watch.leaks()).toEqual([]);
  });
});
