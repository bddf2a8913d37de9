import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test-support/free-port.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const ALICE = "alice-token-e2e-0123456789";
const MALLORY = "mallory-token-e2e-0123456789";
const ADMIN = "admin-token-e2e-0123456789";
const SENTENCE = "The quick brown fox jumps over the lazy dog, and then it rests a while in the sun. ";

/** A caller with an ordinary API token, trying to stall the service or reach what is not theirs. */
describe("a hostile caller over npm start", () => {
  let origin: Origin;
  let stack: Stack;
  let inspectorPort: number;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-hostile-"));

  beforeAll(async () => {
    origin = await startOrigin(
      "127.0.0.2",
      routes({
        "/a.txt": send(200, "text/plain; charset=utf-8", "a".repeat(100_000)),
        "/prose.txt": send(200, "text/plain; charset=utf-8", SENTENCE.repeat(Math.ceil(100_000 / SENTENCE.length)).slice(0, 100_000)),
      }),
    );
    inspectorPort = await freePort();
    stack = await startStack({
      PERSIST_DIR: persist,
      API_TOKENS: `${ALICE},${MALLORY}`,
      ADMIN_TOKEN: ADMIN,
      INSPECTOR_PORT: String(inspectorPort),
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], maxContentChars: 200_000 }),
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  const request = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const newSession = async (token: string) => (await request("POST", "/api/sessions", token, { source: "hostile-e2e" })).body.sessionId as string;

  /** Polynomial shapes: k stacked stars, nested repeats, optional runs, on texts where nothing matches. */
  function polynomialPatterns(): string[] {
    const patterns: string[] = [];
    for (let k = 2; k <= 16; k += 2) {
      patterns.push(`/${"a*".repeat(k)}c/`, `/${".*".repeat(k)}~/`, `/(?:a?){${k * 4}}a{${k * 4}}c/`, `/(?:${"a+".repeat(k)})+c/`);
    }
    patterns.push("/(a|aa)*c/", "/(.*a){20}c/", String.raw`/(\w+\s?)+~/`, "/(?:(?:a*)*)*c/", "a a a a a a a a a a a a a a a a a c");
    return patterns;
  }

  it("answers every polynomial find on 100,000 characters within a second, and nobody else waits on it", async () => {
    const alice = await newSession(ALICE);
    const stored = await request("POST", `/api/sessions/${alice}/tools/fetch_content`, ALICE, { urls: [`${origin.url}/a.txt`, `${origin.url}/prose.txt`] });
    expect(stored.status).toBe(200);
    expect(stored.body.results.map((r: { content: string }) => r.content.length)).toEqual([100_000, 100_000]);
    const mallory = await newSession(MALLORY);

    // Meanwhile another token's session and the health check are asked again and again.
    let searching = true;
    const waits: number[] = [];
    const watcher = (async () => {
      while (searching) {
        for (const path of ["/healthz", `/api/sessions/${mallory}/state`]) {
          const started = performance.now();
          const res = await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${MALLORY}` } });
          await res.arrayBuffer();
          expect(res.status).toBe(200);
          waits.push(performance.now() - started);
        }
      }
    })();

    const slow: string[] = [];
    try {
      for (const find of polynomialPatterns()) {
        for (const urlIndex of [0, 1]) {
          const started = performance.now();
          const answer = await request("POST", `/api/sessions/${alice}/tools/get_search_content`, ALICE, { responseId: stored.body.responseId, urlIndex, find });
          const took = performance.now() - started;
          if (answer.status === 400) expect(answer.body.error).toMatchObject({ code: "INVALID_INPUT", fields: ["find"] });
          else expect(answer.status, find).toBe(200);
          if (took > 1_000) slow.push(`${find} on page ${urlIndex}: ${Math.round(took)} ms`);
        }
      }
    } finally {
      searching = false;
      await watcher;
    }
    expect(slow).toEqual([]);
    expect(waits.length).toBeGreaterThan(10);
    // Unloaded, every wait is under 40 ms; a loaded machine's scheduler may delay a few more.
    // Before searches ran in linear time, these waited 44 s.
    expect(waits.filter((ms) => ms > 500).map(Math.round)).toEqual([]);
    expect(waits.filter((ms) => ms > 100).length).toBeLessThanOrEqual(waits.length / 10);
  });

  it("another token's session answers 403 on every {id} route before its body is read or validated", async () => {
    const alice = await newSession(ALICE);
    const cases: Array<[string, string, unknown?]> = [
      ["GET", "/completion"],
      ["GET", "/completion/triggers"],
      ["POST", "/model", { provider: 3 }],
      ["POST", "/model", { provider: "nobody", modelId: "nothing" }],
      ["POST", "/thinking", { level: "enormous" }],
      ["POST", "/ui-rpc", { nonsense: true }],
      ["POST", "/ui-response", "not json"],
      ["POST", "/messages", { message: 42 }],
      ["POST", "/steer", {}],
      ["POST", "/follow_up", {}],
      ["POST", "/fork", { entryId: 7 }],
      ["POST", "/compact", "{"],
      ["POST", "/abort", "{"],
      ["GET", "/models"],
      ["POST", "/tools/get_search_content", { responseId: 5 }],
    ];
    for (const [method, path, body] of cases) {
      const answer = await request(method, `/api/sessions/${alice}${path}`, MALLORY, body);
      expect([method, path, answer.status, answer.body?.error?.code]).toEqual([method, path, 403, "FORBIDDEN"]);
    }
  });

  describe("the inspector (INSPECTOR_PORT)", () => {
    /** One raw request to the inspector, answering its status (101 for an accepted WebSocket) and body. */
    const ask = (headers: Record<string, string>, path = "/json/list", host = "127.0.0.1") =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ host, port: inspectorPort, path, headers, setHost: false });
        req.on("upgrade", (res, socket) => {
          socket.destroy();
          resolve({ status: res.statusCode ?? 0, body: "" });
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const upgrade = { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" };

    it("lists the worker for its own loopback name, with WebSocket URLs that point back at itself", async () => {
      const listed = await ask({ host: `127.0.0.1:${inspectorPort}` });
      expect(listed.status).toBe(200);
      const targets = JSON.parse(listed.body) as Array<{ webSocketDebuggerUrl: string }>;
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) expect(target.webSocketDebuggerUrl).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:${inspectorPort}/`));
      expect((await ask({ host: `localhost:${inspectorPort}` })).status).toBe(200);
    });

    it("refuses a foreign Host (DNS rebinding) and a web page's Origin, and opens for DevTools", async () => {
      const listed = JSON.parse((await ask({ host: `127.0.0.1:${inspectorPort}` })).body) as Array<{ webSocketDebuggerUrl: string }>;
      const path = new URL(listed[0]!.webSocketDebuggerUrl).pathname;
      const refused = [
        await ask({ host: `evil.example:${inspectorPort}` }),
        await ask({ host: "127.0.0.1" }),
        await ask({ host: `127.0.0.1:${inspectorPort}`, origin: "https://evil.example" }),
        await ask({ ...upgrade, host: `evil.example:${inspectorPort}` }, path),
        await ask({ ...upgrade, host: `127.0.0.1:${inspectorPort}`, origin: "https://evil.example" }, path),
        await ask({ ...upgrade, host: `127.0.0.1:${inspectorPort}`, origin: `http://127.0.0.1:${new URL(stack.url).port}` }, path),
      ];
      expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
      expect((await ask({ ...upgrade, host: `127.0.0.1:${inspectorPort}` }, path)).status).toBe(101);
      expect((await ask({ ...upgrade, host: `localhost:${inspectorPort}`, origin: "devtools://devtools" }, path)).status).toBe(101);
    });

    it("listens on loopback 127.0.0.1 only", async () => {
      await expect(ask({ host: `127.0.0.1:${inspectorPort}` }, "/json/list", "127.0.0.3")).rejects.toThrow(/ECONNREFUSED/);
    });
  });
});
