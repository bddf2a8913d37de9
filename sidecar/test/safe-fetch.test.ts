import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SafeFetchRequest } from "../src/fetch/egress-types.ts";
import { createHostResolver } from "../src/fetch/resolve-host.ts";
import { safeFetch } from "../src/fetch/safe-fetch.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { egressDeps, policy, USER_AGENT } from "./support/egress.ts";
import { startOrigin, type Handler, type Origin } from "../../test-support/origin.ts";

const MiB = 1024 * 1024;
const TEXT = "Sidecar egress test page. ".repeat(100);

let dns: DnsServer;
let site: Origin; // 127.0.0.2, allow-listed: the server every test talks to
let outside: Origin; // 127.0.0.3 on the same port, never allow-listed
let deps: ReturnType<typeof egressDeps>;
let base: string; // http://site.test:PORT
const onRequest = new Map<string, () => void>();
const drips = new Set<NodeJS.Timeout>();

const redirect = (res: ServerResponse, status: number, location?: string) =>
  res.writeHead(status, location === undefined ? {} : { location }).end("moved");

const routes: Record<string, Handler> = {
  "/ok": (_req, res) => res.end(TEXT),
  "/echo": (req, res, body) => res.setHeader("content-type", "application/json").end(JSON.stringify({ method: req.method, headers: req.headers, body })),
  "/status/404": (_req, res) => res.writeHead(404).end("not here"),
  "/rel": (_req, res) => redirect(res, 302, "/ok"),
  "/dir/rel": (_req, res) => redirect(res, 302, "../ok?from=dir"),
  "/abs": (_req, res) => redirect(res, 301, `${base}/ok`),
  "/loop": (_req, res) => redirect(res, 302, "/loop"),
  "/to-outside": (_req, res) => redirect(res, 302, `http://127.0.0.3:${site.port}/ok`),
  "/to-outside-name": (_req, res) => redirect(res, 302, `http://outside.test:${site.port}/ok`),
  "/to-localhost": (_req, res) => redirect(res, 307, `http://localhost:${site.port}/ok`),
  "/to-literal": (_req, res) => redirect(res, 302, `http://127.0.0.2:${site.port}/echo`),
  "/see-other": (_req, res) => redirect(res, 303, "/echo"),
  "/moved": (_req, res) => redirect(res, 301, "/echo"),
  "/found": (_req, res) => redirect(res, 302, "/echo"),
  "/temporary": (_req, res) => redirect(res, 307, "/echo"),
  "/permanent": (_req, res) => redirect(res, 308, "/echo"),
  "/no-location": (_req, res) => redirect(res, 302),
  "/bad-location": (_req, res) => redirect(res, 302, "http://[::1"),
  "/ftp-location": (_req, res) => redirect(res, 302, "ftp://site.test/file"),
  "/userinfo-location": (_req, res) => redirect(res, 302, `http://me:pw@site.test:${site.port}/echo`),
  "/gzip-bomb": (_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync(Buffer.alloc(50 * MiB))),
  "/br": (_req, res) => res.writeHead(200, { "content-encoding": "br" }).end(zlib.brotliCompressSync(TEXT)),
  "/deflate": (_req, res) => res.writeHead(200, { "content-encoding": "deflate" }).end(zlib.deflateSync(TEXT)),
  "/big": (_req, res) => res.end(Buffer.alloc(3 * MiB, 0x61)),
  "/multi-header": (_req, res) => res.writeHead(200, [["X-Twice", "a"], ["X-Twice", "b"]]).end(),
  "/drip": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => res.write("."), 200);
    drips.add(timer);
    res.on("close", () => clearInterval(timer));
  },
  "/hang": () => {},
  "/reset": (_req, res) => {
    res.writeHead(200, { "content-length": "1000" });
    res.write("only part of it", () => res.socket?.resetAndDestroy());
  },
  "/garbage": (_req, res) => res.socket?.end("THIS IS NOT HTTP\r\n\r\n"),
};

beforeAll(async () => {
  dns = await startDnsServer((name, type) => {
    if (type !== "A") return [];
    if (name === "site.test") return ["127.0.0.2"];
    if (name === "outside.test") return ["127.0.0.3"];
    if (name === "private.test") return ["10.0.0.5"];
    return "nxdomain";
  });
  site = await startOrigin("127.0.0.2", (req, res, body) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    onRequest.get(path)?.();
    (routes[path] ?? ((_q, r) => r.writeHead(500).end("no route")))(req, res, body);
  });
  outside = await startOrigin("127.0.0.3", (_req, res) => res.end("outside"), { port: site.port });
  base = `http://site.test:${site.port}`;
});
afterAll(async () => {
  for (const timer of drips) clearInterval(timer);
  await site.close();
  await outside.close();
  await dns.close();
});
beforeEach(() => {
  deps = egressDeps(dns);
});
afterEach(async () => {
  onRequest.clear();
  await deps.dispatchers.close();
  expect(outside.connections).toHaveLength(0);
});

const fetchUrl = (url: string, over: Partial<SafeFetchRequest> = {}) =>
  safeFetch({ url, policy: policy({ allowHosts: ["127.0.0.2"] }), timeoutMs: 5_000, maxResponseBytes: MiB, ...over }, deps);

const ok = async (url: string, over: Partial<SafeFetchRequest> = {}) => {
  const result = await fetchUrl(url, over);
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.value;
};
const echoed = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString()) as { method: string; headers: Record<string, string>; body: string };

describe("safeFetch", () => {
  it("fetches a page over the pinned address and reports where it came from", async () => {
    const response = await ok(`${base}/ok`);
    expect(response).toMatchObject({ url: `${base}/ok`, status: 200, redirects: 0, truncated: false, remoteAddress: "127.0.0.2" });
    expect(Buffer.from(response.bytes).toString()).toBe(TEXT);
    expect(response.headers["content-length"]).toBe(String(TEXT.length));
  });

  it("sends User-Agent, Accept-Encoding and the caller's headers (caller wins, whatever the case)", async () => {
    const response = await ok(`${base}/echo`, { headers: { "X-Custom": "yes", "User-Agent": "custom-agent" } });
    const { headers } = echoed(response.bytes);
    expect(headers["user-agent"]).toBe("custom-agent");
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
    expect(headers["x-custom"]).toBe("yes");
    expect((await ok(`${base}/echo`)).bytes).toSatisfy((bytes: Uint8Array) => echoed(bytes).headers["user-agent"] === USER_AGENT);
  });

  it("sends a POST body", async () => {
    const response = await ok(`${base}/echo`, { method: "POST", body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(echoed(response.bytes)).toMatchObject({ method: "POST", body: "a=1" });
  });

  it("joins repeated response headers", async () => {
    expect((await ok(`${base}/multi-header`)).headers["x-twice"]).toBe("a, b");
  });

  it("returns non-2xx responses as values", async () => {
    const response = await ok(`${base}/status/404`);
    expect([response.status, Buffer.from(response.bytes).toString()]).toEqual([404, "not here"]);
  });

  it("drops userinfo: never sent, never in the final URL", async () => {
    const response = await ok(`http://alice:s3cret@site.test:${site.port}/echo`);
    expect(response.url).toBe(`${base}/echo`);
    expect(echoed(response.bytes).headers.authorization).toBeUndefined();
  });

  it("reuses one keep-alive connection for sequential fetches", async () => {
    const before = site.connections.length;
    await ok(`${base}/ok`);
    await ok(`${base}/ok`);
    expect(site.connections.length - before).toBe(1);
    const [first, second] = site.requests.slice(-2);
    expect(first?.connection).toBe(second?.connection);
  });

  it("answers a config failure naming invalid allowHosts entries", async () => {
    const result = await fetchUrl(`${base}/ok`, { policy: policy({ allowHosts: ["127.0.0.2", "*.bad.test", "x:1"] }) });
    expect(result).toMatchObject({ ok: false, error: { code: "config", message: expect.stringContaining("*.bad.test, x:1") } });
  });

  it("uses a precompiled allow list when given one", async () => {
    const { compileAllowList } = await import("../src/fetch/allow-list.ts");
    const allow = compileAllowList(["127.0.0.2"]);
    if (!allow.ok) throw new Error("bad allow list");
    const result = await safeFetch({ url: `${base}/ok`, policy: policy(), timeoutMs: 5_000, maxResponseBytes: MiB }, { ...deps, allow: allow.value });
    expect(result.ok).toBe(true);
  });

  it("answers invalid-url for unusable URLs without any request", async () => {
    const before = site.requests.length;
    expect(await fetchUrl("ftp://site.test/")).toMatchObject({ ok: false, error: { code: "invalid-url" } });
    expect(await fetchUrl("not a url")).toMatchObject({ ok: false, error: { code: "invalid-url" } });
    expect(site.requests.length).toBe(before);
  });

  it("answers dns for a name that does not resolve", async () => {
    expect(await fetchUrl("http://nowhere.test/")).toMatchObject({ ok: false, error: { code: "dns", message: expect.stringContaining("nowhere.test") } });
  });
});

describe("safeFetch redirects", () => {
  it("follows a relative Location", async () => {
    expect(await ok(`${base}/rel`)).toMatchObject({ url: `${base}/ok`, status: 200, redirects: 1 });
    expect(await ok(`${base}/dir/rel`)).toMatchObject({ url: `${base}/ok?from=dir`, status: 200, redirects: 1 });
  });

  it("follows an absolute Location", async () => {
    expect(await ok(`${base}/abs`)).toMatchObject({ url: `${base}/ok`, redirects: 1 });
  });

  it("follows a chain of exactly maxRedirects", async () => {
    const chain = (n: number) => {
      for (let i = 1; i <= n; i++) routes[`/chain${n}/${i}`] = (_req, res) => redirect(res, 302, i === n ? "/ok" : `/chain${n}/${i + 1}`);
      return `${base}/chain${n}/1`;
    };
    expect(await ok(chain(5))).toMatchObject({ url: `${base}/ok`, redirects: 5 });
    const before = site.requests.length;
    const result = await fetchUrl(chain(6));
    expect(result).toMatchObject({ ok: false, error: { code: "redirect", message: expect.stringContaining("stopped after 5 redirects") } });
    expect(site.requests.length - before).toBe(6);
    expect(await fetchUrl(chain(3), { maxRedirects: 2 })).toMatchObject({ ok: false, error: { code: "redirect", message: expect.stringContaining("stopped after 2 redirects") } });
    expect(await fetchUrl(`${base}/rel`, { maxRedirects: 0 })).toMatchObject({ ok: false, error: { code: "redirect" } });
  });

  it("stops a redirect loop", async () => {
    expect(await fetchUrl(`${base}/loop`)).toMatchObject({ ok: false, error: { code: "redirect", message: expect.stringContaining("stopped after 5 redirects") } });
  });

  it.each(["/to-outside", "/to-outside-name", "/to-localhost"])("re-vets every hop: %s is blocked and never contacted", async (path) => {
    const result = await fetchUrl(`${base}${path}`);
    expect(result).toMatchObject({ ok: false, error: { code: "blocked", message: expect.stringContaining("web.allowHosts") } });
    expect(outside.connections).toHaveLength(0);
    expect(deps.dispatchers.handedOut.every(({ vetted }) => vetted.address === "127.0.0.2")).toBe(true);
  });

  it("turns POST into GET on 303, 301 and 302, and keeps it on 307 and 308", async () => {
    const post = { method: "POST" as const, body: "payload" };
    for (const path of ["/see-other", "/moved", "/found"]) {
      expect(echoed((await ok(`${base}${path}`, post)).bytes), path).toMatchObject({ method: "GET", body: "" });
    }
    for (const path of ["/temporary", "/permanent"]) {
      expect(echoed((await ok(`${base}${path}`, post)).bytes), path).toMatchObject({ method: "POST", body: "payload" });
    }
  });

  it("sends the caller's headers only to the origin they were meant for", async () => {
    const sameOrigin = await ok(`${base}/rel`, { headers: { authorization: "Bearer t0ken" } });
    expect(sameOrigin.status).toBe(200);
    const crossOrigin = await ok(`${base}/to-literal`, { headers: { authorization: "Bearer t0ken", "x-custom": "1" } });
    const { headers } = echoed(crossOrigin.bytes);
    expect([headers.authorization, headers["x-custom"], headers["user-agent"]]).toEqual([undefined, undefined, USER_AGENT]);
    expect(echoed((await ok(`${base}/echo`, { headers: { authorization: "Bearer t0ken" } })).bytes).headers.authorization).toBe("Bearer t0ken");
  });

  it("strips userinfo from a redirect target", async () => {
    const response = await ok(`${base}/userinfo-location`);
    expect(response.url).toBe(`${base}/echo`);
    expect(echoed(response.bytes).headers.authorization).toBeUndefined();
  });

  it.each(["/no-location", "/bad-location", "/ftp-location"])("answers redirect for %s", async (path) => {
    expect(await fetchUrl(`${base}${path}`)).toMatchObject({ ok: false, error: { code: "redirect" } });
  });
});

describe("safeFetch bodies", () => {
  it("stops a gzip bomb at exactly maxResponseBytes", async () => {
    const response = await ok(`${base}/gzip-bomb`);
    expect([response.bytes.length, response.truncated]).toEqual([MiB, true]);
  });

  it.each(["/br", "/deflate"])("decodes %s", async (path) => {
    const response = await ok(`${base}${path}`);
    expect([Buffer.from(response.bytes).toString(), response.truncated]).toEqual([TEXT, false]);
  });

  it("truncates a plain body over the cap", async () => {
    const response = await ok(`${base}/big`, { maxResponseBytes: 1000 });
    expect([response.bytes.length, response.truncated]).toEqual([1000, true]);
  });
});

describe("safeFetch failures", () => {
  it("times out a slow drip past timeoutMs, counting body time", async () => {
    const result = await fetchUrl(`${base}/drip`, { timeoutMs: 1_000 });
    expect(result).toMatchObject({ ok: false, error: { code: "timeout", message: expect.stringContaining("1000 ms") } });
  });

  it("times out while waiting for headers", async () => {
    expect(await fetchUrl(`${base}/hang`, { timeoutMs: 300 })).toMatchObject({ ok: false, error: { code: "timeout" } });
  });

  it("times out while resolving", async () => {
    const silent = await startDnsServer(() => "drop");
    try {
      const slowDeps = { ...deps, resolver: createHostResolver({ servers: [silent.address], timeoutMs: 10_000 }) };
      const result = await safeFetch({ url: `${base}/ok`, policy: policy({ allowHosts: ["127.0.0.2"] }), timeoutMs: 300, maxResponseBytes: MiB }, slowDeps);
      expect(result).toMatchObject({ ok: false, error: { code: "timeout" } });
    } finally {
      await silent.close();
    }
  });

  it("answers aborted when the caller's signal fires mid-body", async () => {
    const controller = new AbortController();
    onRequest.set("/drip", () => controller.abort());
    expect(await fetchUrl(`${base}/drip`, { signal: controller.signal })).toMatchObject({ ok: false, error: { code: "aborted" } });
  });

  it("answers aborted for a signal that already fired, without a request", async () => {
    const before = site.requests.length;
    expect(await fetchUrl(`${base}/ok`, { signal: AbortSignal.abort() })).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(await fetchUrl(`http://127.0.0.2:${site.port}/ok`, { signal: AbortSignal.abort() })).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(site.requests.length).toBe(before);
  });

  it("answers network for a connection reset mid-body", async () => {
    const result = await fetchUrl(`${base}/reset`);
    expect(result).toMatchObject({ ok: false, error: { code: "network" } });
  });

  it("answers network for a refused port", async () => {
    const closed = await startOrigin("127.0.0.2", () => {});
    await closed.close();
    const result = await fetchUrl(`http://127.0.0.2:${closed.port}/`);
    expect(result).toEqual({ ok: false, error: { code: "network", message: `The request to http://127.0.0.2:${closed.port} failed: the connection was refused.` } });
  });

  it("answers network for a malformed response", async () => {
    expect(await fetchUrl(`${base}/garbage`)).toMatchObject({ ok: false, error: { code: "network", message: expect.stringContaining("malformed") } });
  });

  it("never throws, and failure messages carry no stack", async () => {
    for (const path of ["/reset", "/garbage", "/loop", "/no-location"]) {
      const result = await fetchUrl(`${base}${path}`);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).not.toMatch(/\n\s+at /);
    }
  });
});
