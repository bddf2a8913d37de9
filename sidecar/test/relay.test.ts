import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { createHostLimiter, RELAY_HEADER, RELAY_REQUEST_HEADER, type SidecarRelayRequest } from "@edge-web/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startOrigin, type Handler, type Origin } from "../../test-support/origin.ts";
import { createConvertPool } from "../src/convert/service/convert-pool.ts";
import { createSidecarServer, listen } from "../src/server.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { egressDeps } from "./support/egress.ts";
import { selfSignedCert } from "./support/tls.ts";

const TOKEN = "relay-test-token-0123456789";
const API_KEY = "sk-relay-secret-key-0123456789abcdef";
const MiB = 1024 * 1024;

let dns: DnsServer;
let site: Origin; // 127.0.0.2 (site.test), allowed by the policy most tests use
let outside: Origin; // 127.0.0.3 on the same port, never allowed: nothing may ever reach it
let secure: Origin; // https on 127.0.0.4 with a certificate for secure.test only
let deps: ReturnType<typeof egressDeps>;
let server: http.Server;
let base: string;
let siteBase: string;
const converter = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 128 });

/** A response an upstream route holds open until the test ends it (through `stream`, which may compress); `closed` once its connection is gone. */
interface Held {
  write(text: string): void;
  end(text?: string): void;
  res: http.ServerResponse;
  ended: boolean;
  closed: boolean;
}
const held = new Map<string, Held>();
const hold = (name: string, res: http.ServerResponse, stream: NodeJS.WritableStream = res) => {
  const entry: Held = {
    write: (text) => void stream.write(text),
    end: (text) => {
      entry.ended = true;
      stream.end(text ?? "");
    },
    res,
    ended: false,
    closed: false,
  };
  res.on("close", () => (entry.closed = true));
  held.set(name, entry);
};

const routes: Record<string, Handler> = {
  "/echo": (req, res, body) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method, headers: req.headers, body })),
  "/ok": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("ok"),
  "/sse": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("data: first\n\n");
    hold("sse", res);
  },
  "/gzip-sse": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
    const gzip = zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });
    gzip.pipe(res);
    gzip.write("data: packed\n\n");
    hold("gzip-sse", res, gzip);
  },
  "/gzip": (_req, res) => res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(zlib.gzipSync("unpacked ".repeat(1_000))),
  "/hop-headers": (_req, res) =>
    res.writeHead(200, { connection: "x-hop", "x-hop": "1", "keep-alive": "timeout=5", "x-upstream": "yes", "x-relay": "spoofed" }).end("headers"),
  "/multi-cookie": (_req, res) => res.writeHead(200, [["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"]]).end(),
  "/stall": (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: only\n\n");
    hold("stall", res);
  },
  "/hang": (_req, res) => hold("hang", res),
  "/rel": (_req, res) => res.writeHead(302, { location: "/ok" }).end(),
  "/to-outside": (_req, res) => res.writeHead(302, { location: `http://127.0.0.3:${site.port}/ok` }).end("moved"),
  "/to-private-name": (_req, res) => res.writeHead(307, { location: `http://private.test:${site.port}/ok` }).end(),
  "/teapot": (_req, res) => res.writeHead(418, { "content-type": "application/json" }).end('{"error":"teapot"}'),
  // Written raw: a status line no HTTP status has (Node's own writeHead allows up to 999, but this says exactly what goes on the wire).
  "/status-600": (req) => req.socket.end("HTTP/1.1 600 Weird\r\ncontent-type: text/plain\r\ncontent-length: 5\r\nconnection: close\r\n\r\nweird"),
  "/status-999": (req) => req.socket.end("HTTP/1.1 999 Odd\r\ncontent-length: 3\r\nconnection: close\r\n\r\nodd"),
};

beforeAll(async () => {
  dns = await startDnsServer((name, type) => {
    if (type !== "A") return [];
    if (name === "site.test") return ["127.0.0.2"];
    if (name === "private.test") return ["10.0.0.5"];
    if (name === "secure.test" || name === "wrong.test") return ["127.0.0.4"];
    return "nxdomain";
  });
  site = await startOrigin("127.0.0.2", (req, res, body) => (routes[new URL(req.url ?? "/", "http://x").pathname] ?? ((_q, r) => r.writeHead(404).end()))(req, res, body));
  outside = await startOrigin("127.0.0.3", (_req, res) => res.end("outside"), { port: site.port });
  const cert = selfSignedCert("secure.test");
  secure = await startOrigin("127.0.0.4", (req, res) => res.end(`secure ${req.headers.host}`), { tls: cert });
  deps = egressDeps(dns, { ca: cert.cert });
  server = createSidecarServer({ token: TOKEN, deps: { ...deps, limiter: createHostLimiter({ maxConcurrent: 16, maxPerHost: 8, maxQueue: 64 }), converter } });
  base = `http://127.0.0.1:${(await listen(server, 0, "127.0.0.1") as AddressInfo).port}`;
  siteBase = `http://site.test:${site.port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  for (const origin of [site, outside, secure]) await origin.close();
  await deps.dispatchers.close();
  await converter.close();
  await dns.close();
});
afterEach(() => {
  for (const { res } of held.values()) res.destroy();
  held.clear();
  expect(outside.connections).toHaveLength(0);
});

const ALLOWED = { allowPrivateNetwork: false, allowHosts: ["127.0.0.2"] };

function description(over: Partial<SidecarRelayRequest> & { url: string }): SidecarRelayRequest {
  return { method: "GET", headers: {}, policy: ALLOWED, timeoutMs: 5_000, idleMs: 5_000, ...over };
}

const relay = (over: Partial<SidecarRelayRequest> & { url: string }, init: { body?: string; token?: string; signal?: AbortSignal } = {}) =>
  fetch(`${base}/v1/relay`, {
    method: "POST",
    // A relayed 3xx is the caller's to act on: this client must not follow it past the relay.
    redirect: "manual",
    headers: { authorization: `Bearer ${init.token ?? TOKEN}`, [RELAY_REQUEST_HEADER]: encodeURIComponent(JSON.stringify(description(over))) },
    ...(init.body !== undefined && { body: init.body }),
    ...(init.signal && { signal: init.signal }),
  });

const refusal = async (res: Response) => ({ status: res.status, relay: res.headers.get(RELAY_HEADER), body: (await res.json()) as { ok: false; error: { code: string; message: string } } });

const decoder = new TextDecoder();

describe("POST /v1/relay", () => {
  it("streams an SSE answer chunk by chunk while the upstream holds the stream open", async () => {
    const res = await relay({ url: `${siteBase}/sse` });
    expect([res.status, res.headers.get(RELAY_HEADER), res.headers.get("content-type")]).toEqual([200, "upstream", "text/event-stream"]);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe("data: first\n\n");
    const upstream = held.get("sse")!;
    expect(upstream.ended).toBe(false);
    upstream.write("data: second\n\n");
    expect(decoder.decode((await reader.read()).value)).toBe("data: second\n\n");
    upstream.end("data: [DONE]\n\n");
    let rest = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += decoder.decode(next.value);
    expect(rest).toBe("data: [DONE]\n\n");
  });

  it("streams a gzip-compressed SSE answer decoded, as it comes", async () => {
    const res = await relay({ url: `${siteBase}/gzip-sse` });
    expect(res.headers.get("content-encoding")).toBeNull();
    const reader = res.body!.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe("data: packed\n\n");
    const upstream = held.get("gzip-sse")!;
    expect(upstream.ended).toBe(false);
    upstream.write("data: more\n\n");
    expect(decoder.decode((await reader.read()).value)).toBe("data: more\n\n");
    upstream.end();
    expect((await reader.read()).done).toBe(true);
  });

  it("passes a POST's body and end-to-end headers intact, and none of the hop-by-hop ones or the caller's Host", async () => {
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: `héllo ${"x".repeat(MiB)}` }] });
    const res = await relay(
      {
        url: `${siteBase}/echo?q=1`,
        method: "POST",
        headers: {
          Authorization: `Bearer ${API_KEY}`,
          "content-type": "application/json",
          "x-custom": "kept",
          host: "evil.test",
          connection: "x-drop",
          "x-drop": "1",
          "keep-alive": "timeout=5",
          te: "trailers",
          "accept-encoding": "zstd",
        },
      },
      { body },
    );
    expect(res.status).toBe(200);
    const echoed = (await res.json()) as { method: string; headers: Record<string, string>; body: string };
    expect(echoed.method).toBe("POST");
    expect(echoed.body).toBe(body);
    expect(echoed.headers).toMatchObject({ authorization: `Bearer ${API_KEY}`, "content-type": "application/json", "x-custom": "kept", host: `site.test:${site.port}`, "accept-encoding": "gzip, deflate, br" });
    for (const name of ["x-drop", "keep-alive", "te"]) expect(echoed.headers[name], name).toBeUndefined();
    expect(echoed.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
  });

  it("answers the upstream's status and end-to-end headers, marked as the upstream's", async () => {
    const teapot = await relay({ url: `${siteBase}/teapot` });
    expect([teapot.status, teapot.headers.get(RELAY_HEADER), await teapot.text()]).toEqual([418, "upstream", '{"error":"teapot"}']);
    const hop = await relay({ url: `${siteBase}/hop-headers` });
    expect([hop.headers.get("x-upstream"), hop.headers.get("x-hop"), hop.headers.get(RELAY_HEADER)]).toEqual(["yes", null, "upstream"]);
    expect(hop.headers.get("keep-alive")).not.toBe("timeout=5");
    expect((await relay({ url: `${siteBase}/multi-cookie` })).headers.getSetCookie()).toEqual(["a=1", "b=2"]);
  });

  it.each([
    ["/status-600", 600],
    ["/status-999", 999],
  ])("answers 502 for an upstream status outside 100–599 (%s), never passing it on", async (path, status) => {
    const res = await relay({ url: `${siteBase}${path}` });
    expect(await refusal(res)).toEqual({
      status: 502,
      relay: "refused",
      body: { ok: false, error: { code: "network", message: `${siteBase} answered with status ${status}, which is not an HTTP status (100–599).` } },
    });
  });

  it("decodes a gzip upstream body and drops Content-Encoding and Content-Length", async () => {
    const res = await relay({ url: `${siteBase}/gzip` });
    expect([res.headers.get("content-encoding"), res.headers.get("content-length")]).toEqual([null, null]);
    expect(await res.text()).toBe("unpacked ".repeat(1_000));
  });

  it.each([
    ["a loopback literal", "http://127.0.0.1:PORT/ok"],
    ["an IPv4-mapped IPv6 literal", "http://[::ffff:127.0.0.1]:PORT/ok"],
    ["a decimal IPv4", "http://2130706433:PORT/ok"],
    ["an octal IPv4", "http://0177.0.0.1:PORT/ok"],
    ["a hex IPv4", "http://0x7f.0.0.2:PORT/ok"],
    ["a name resolving to loopback", "http://site.test:PORT/ok"],
    ["a name resolving to a private address", "http://private.test:PORT/ok"],
    ["localhost", "http://localhost:PORT/ok"],
    ["a localhost subdomain", "http://api.localhost:PORT/ok"],
  ])("refuses %s with 403 before any connection", async (_what, url) => {
    const before = { site: site.requests.length, handedOut: deps.dispatchers.handedOut.length };
    const res = await relay({ url: url.replace("PORT", String(site.port)), headers: { authorization: `Bearer ${API_KEY}` }, policy: { allowPrivateNetwork: false, allowHosts: [] } });
    const answer = await refusal(res);
    expect(answer).toMatchObject({ status: 403, relay: "refused", body: { ok: false, error: { code: "blocked", message: expect.stringContaining("network policy") } } });
    expect(JSON.stringify(answer.body)).not.toContain(API_KEY);
    expect([site.requests.length, deps.dispatchers.handedOut.length]).toEqual([before.site, before.handedOut]);
  });

  it("lets allowHosts exempt a private destination, by address or by name", async () => {
    expect(await (await relay({ url: `http://127.0.0.2:${site.port}/ok` })).text()).toBe("ok");
    const byName = await relay({ url: `${siteBase}/ok`, policy: { allowPrivateNetwork: false, allowHosts: ["site.test"] } });
    expect([byName.status, await byName.text()]).toEqual([200, "ok"]);
  });

  it("applies the domain lists", async () => {
    const denied = await relay({ url: `${siteBase}/ok`, policy: { ...ALLOWED, deniedDomains: ["site.test"] } });
    expect(await refusal(denied)).toMatchObject({ status: 403, body: { error: { code: "blocked", message: expect.stringContaining("web.deniedDomains") } } });
  });

  it("follows a GET's redirect, vetting each hop, and never toward a private address", async () => {
    const followed = await relay({ url: `${siteBase}/rel` });
    expect([followed.status, await followed.text()]).toEqual([200, "ok"]);
    expect(await refusal(await relay({ url: `${siteBase}/to-outside` }))).toMatchObject({ status: 403, relay: "refused", body: { error: { code: "blocked" } } });
    expect(await refusal(await relay({ url: `${siteBase}/to-private-name` }))).toMatchObject({ status: 403, body: { error: { code: "blocked" } } });
  });

  it("answers a POST's redirect as it is, without following it", async () => {
    const before = site.requests.length;
    const res = await relay({ url: `${siteBase}/to-outside`, method: "POST" }, { body: "{}" });
    expect([res.status, res.headers.get(RELAY_HEADER), res.headers.get("location"), await res.text()]).toEqual([302, "upstream", `http://127.0.0.3:${site.port}/ok`, "moved"]);
    expect(site.requests.length - before).toBe(1);
  });

  it("connects over TLS verified against the name", async () => {
    const policy = { allowPrivateNetwork: false, allowHosts: ["127.0.0.4"] };
    const good = await relay({ url: `https://secure.test:${secure.port}/`, policy });
    expect(await good.text()).toBe(`secure secure.test:${secure.port}`);
    const wrongName = await refusal(await relay({ url: `https://wrong.test:${secure.port}/`, policy }));
    expect(wrongName).toMatchObject({ status: 502, relay: "refused", body: { error: { code: "network", message: expect.stringContaining("TLS") } } });
  });

  it("answers 502 when the name does not resolve or the connection fails, 504 when no headers come in time", async () => {
    expect(await refusal(await relay({ url: "http://nowhere.test/" }))).toMatchObject({ status: 502, body: { error: { code: "dns" } } });
    const closed = await startOrigin("127.0.0.2", () => {});
    await closed.close();
    expect(await refusal(await relay({ url: `http://127.0.0.2:${closed.port}/` }))).toMatchObject({ status: 502, body: { error: { code: "network" } } });
    const late = await refusal(await relay({ url: `${siteBase}/hang`, timeoutMs: 300 }));
    expect(late).toMatchObject({ status: 504, relay: "refused", body: { error: { code: "timeout", message: expect.stringContaining("300 ms") } } });
    await expect.poll(() => held.get("hang")?.closed).toBe(true);
  });

  it("closes both sides when the upstream sends nothing for idleMs", async () => {
    const res = await relay({ url: `${siteBase}/stall`, idleMs: 300 });
    const reader = res.body!.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe("data: only\n\n");
    await expect(reader.read()).rejects.toThrow();
    await expect.poll(() => held.get("stall")?.closed).toBe(true);
  });

  it("closes the upstream request when the caller goes away", async () => {
    const controller = new AbortController();
    const res = await relay({ url: `${siteBase}/sse` }, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    expect(held.get("sse")!.closed).toBe(false);
    controller.abort();
    await expect.poll(() => held.get("sse")?.closed).toBe(true);
  });

  it("requires the bearer token", async () => {
    const before = site.requests.length;
    const res = await relay({ url: `${siteBase}/ok` }, { token: "wrong-token" });
    expect(res.status).toBe(401);
    await res.body?.cancel();
    expect(site.requests.length).toBe(before);
  });

  it("refuses a description that is not valid, naming fields but never their values", async () => {
    const res = await fetch(`${base}/v1/relay`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, [RELAY_REQUEST_HEADER]: "%7Bnot json" } });
    expect(await refusal(res)).toMatchObject({ status: 400, relay: "refused", body: { error: { code: "INVALID_JSON" } } });
    const invalid = await refusal(await relay({ url: `${siteBase}/ok`, method: "PUT" as "GET", headers: { authorization: `Bearer ${API_KEY}\r\nx-injected: 1` }, idleMs: 0 }));
    expect(invalid).toMatchObject({ status: 400, relay: "refused", body: { error: { code: "VALIDATION_FAILED", fields: ["method", "headers.authorization", "idleMs"] } } });
    expect(JSON.stringify(invalid.body)).not.toContain(API_KEY);
    expect(await refusal(await relay({ url: `${siteBase}/ok` }, { body: "x" }))).toMatchObject({ status: 400, body: { error: { fields: ["method"] } } });
    expect(await refusal(await relay({ url: "ftp://site.test/" }))).toMatchObject({ status: 400, body: { error: { code: "invalid-url" } } });
  });

  it("refuses a body over 16 MiB while it streams, with 413 and nothing sent upstream", async () => {
    const before = site.requests.length;
    const answer = await new Promise<{ status: number; relay: string | undefined; body: string }>((resolve, reject) => {
      const req = http.request(`${base}/v1/relay`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, [RELAY_REQUEST_HEADER]: encodeURIComponent(JSON.stringify(description({ url: `${siteBase}/echo`, method: "POST" }))) },
      });
      let done = false;
      req.on("response", (res) => {
        done = true;
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, relay: res.headers[RELAY_HEADER] as string | undefined, body }));
      });
      req.on("error", (error) => (done ? undefined : reject(error)));
      const chunk = Buffer.alloc(MiB, 0x61);
      let sent = 0;
      const write = () => {
        while (!done && sent < 20) {
          sent++;
          if (!req.write(chunk)) return void req.once("drain", write);
        }
        if (!done) req.end();
      };
      write();
    });
    expect([answer.status, answer.relay]).toEqual([413, "refused"]);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining(String(16 * MiB)) } });
    expect(site.requests.length).toBe(before);
  });
});
