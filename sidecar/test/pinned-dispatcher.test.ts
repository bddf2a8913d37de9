import { request, type Dispatcher, type Pool } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DispatcherSource } from "../src/fetch/egress-types.ts";
import { createDispatcherPool } from "../src/fetch/pinned-dispatcher.ts";
import { reply, startOrigin, type Origin } from "../../test-support/origin.ts";
import { selfSignedCert } from "./support/tls.ts";

// No DNS server here: the pinned lookup must answer every name itself (.test names resolve nowhere else).
let pinned: Origin; // 127.0.0.2
let other: Origin; // 127.0.0.3, same port
let six: Origin; // ::1
let secure: Origin; // https on 127.0.0.4 with a certificate for secure.test
let cert: { key: string; cert: string };
let pool: DispatcherSource;

beforeAll(async () => {
  pinned = await startOrigin("127.0.0.2", (req, res) => res.end(`pinned ${req.headers.host}`));
  other = await startOrigin("127.0.0.3", reply(200, "other"), { port: pinned.port });
  six = await startOrigin("::1", reply(200, "six"));
  cert = selfSignedCert("secure.test");
  secure = await startOrigin("127.0.0.4", (req, res) => res.end(`secure ${req.headers.host}`), { tls: cert });
});
afterAll(async () => {
  for (const origin of [pinned, other, six, secure]) await origin.close();
});
afterEach(async () => {
  await pool?.close();
  for (const origin of [pinned, other, six, secure]) {
    origin.connections.length = 0;
    origin.requests.length = 0;
  }
});

const isClosed = (dispatcher: Dispatcher) => (dispatcher as Pool).closed;
const get = async (url: string, origin: string, address: string, family: 4 | 6 = 4) => {
  const response = await request(url, { dispatcher: pool.dispatcherFor(origin, { address, family }) });
  return { status: response.statusCode, text: await response.body.text() };
};

describe("createDispatcherPool", () => {
  it("connects only to the vetted address while sending the real Host", async () => {
    pool = createDispatcherPool({ maxSockets: 2, keepAliveTimeoutMs: 10_000 });
    const origin = `http://pinned.test:${pinned.port}`;
    expect(await get(`${origin}/a`, origin, "127.0.0.2")).toEqual({ status: 200, text: `pinned pinned.test:${pinned.port}` });
    expect(pinned.requests.map((r) => r.url)).toEqual(["/a"]);
    expect(other.connections).toHaveLength(0);
  });

  it("answers lookups that want every address (IPv6 vetted address)", async () => {
    pool = createDispatcherPool({ maxSockets: 2, keepAliveTimeoutMs: 10_000 });
    const origin = `http://six.test:${six.port}`;
    expect(await get(`${origin}/`, origin, "::1", 6)).toEqual({ status: 200, text: "six" });
    expect(six.connections[0]?.remoteAddress).toBe("::1");
  });

  it("reuses one keep-alive connection for sequential requests", async () => {
    pool = createDispatcherPool({ maxSockets: 2, keepAliveTimeoutMs: 10_000 });
    const origin = `http://pinned.test:${pinned.port}`;
    await get(`${origin}/1`, origin, "127.0.0.2");
    // undici deliberately waits one event-loop turn before reusing a socket (client-h1 onMessageComplete).
    await new Promise((resolve) => setImmediate(resolve));
    await get(`${origin}/2`, origin, "127.0.0.2");
    expect(pinned.connections).toHaveLength(1);
    expect(pinned.requests.map((r) => r.connection)).toEqual([0, 0]);
  });

  it("gives the same origin a separate pool per vetted address", async () => {
    pool = createDispatcherPool({ maxSockets: 2, keepAliveTimeoutMs: 10_000 });
    const origin = `http://moving.test:${pinned.port}`;
    const first = pool.dispatcherFor(origin, { address: "127.0.0.2", family: 4 });
    expect(pool.dispatcherFor(origin, { address: "127.0.0.2", family: 4 })).toBe(first);
    expect(pool.dispatcherFor(origin, { address: "127.0.0.3", family: 4 })).not.toBe(first);
    expect(await get(`${origin}/`, origin, "127.0.0.2")).toMatchObject({ text: expect.stringMatching(/^pinned/) });
    expect(await get(`${origin}/`, origin, "127.0.0.3")).toEqual({ status: 200, text: "other" });
  });

  it("closes the least recently used pool beyond maxOrigins", async () => {
    pool = createDispatcherPool({ maxSockets: 1, keepAliveTimeoutMs: 10_000, maxOrigins: 2 });
    const at = (name: string) => pool.dispatcherFor(`http://${name}.test:${pinned.port}`, { address: "127.0.0.2", family: 4 });
    const a = at("a");
    const b = at("b");
    expect(at("a")).toBe(a); // a is now the most recent
    at("c");
    expect(isClosed(b)).toBe(true);
    expect(isClosed(a)).toBe(false);
    expect(at("b")).not.toBe(b);
  });

  it("close() closes every pool", async () => {
    pool = createDispatcherPool({ maxSockets: 1, keepAliveTimeoutMs: 10_000 });
    const a = pool.dispatcherFor(`http://a.test:${pinned.port}`, { address: "127.0.0.2", family: 4 });
    await pool.close();
    expect(isClosed(a)).toBe(true);
  });

  it("verifies TLS against the host name while the socket goes to the pinned address", async () => {
    pool = createDispatcherPool({ maxSockets: 1, keepAliveTimeoutMs: 10_000, connect: { ca: cert.cert } });
    const origin = `https://secure.test:${secure.port}`;
    expect(await get(`${origin}/`, origin, "127.0.0.4")).toEqual({ status: 200, text: `secure secure.test:${secure.port}` });
    const wrong = `https://wrong.test:${secure.port}`;
    await expect(get(`${wrong}/`, wrong, "127.0.0.4")).rejects.toMatchObject({ code: "ERR_TLS_CERT_ALTNAME_INVALID" });
  });

  it("does not trust a self-signed certificate without the test CA", async () => {
    pool = createDispatcherPool({ maxSockets: 1, keepAliveTimeoutMs: 10_000 });
    const origin = `https://secure.test:${secure.port}`;
    await expect(get(`${origin}/`, origin, "127.0.0.4")).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    expect(secure.requests).toHaveLength(0);
  });
});
