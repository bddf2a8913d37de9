import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isWebErrorCode } from "@edge-web/shared";
import { afterAll, describe, expect, it } from "vitest";
import { startOrigin, type Origin } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";

const TIMEOUT_MS = 1_500;

/** Answers after ?ms= milliseconds (a request dropped before then is never answered). */
const slowOrigin = () =>
  startOrigin("127.0.0.31", (req, res) => {
    const ms = Number(new URL(req.url ?? "/", "http://o").searchParams.get("ms") ?? "0");
    const timer = setTimeout(() => res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("a slow page"), ms);
    res.on("close", () => clearTimeout(timer));
  });

describe("deadlines under load over npm start's stack", () => {
  let origin: Origin | undefined;
  let stack: Stack | undefined;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-deadline-"));
  afterAll(() => Promise.all([stack?.stop(), origin?.close()]).finally(() => rmSync(persist, { recursive: true, force: true })));

  /** A POST's status and JSON body (null when it has none). */
  const answerOf = async (res: Response) => ({ status: res.status, body: (await res.json().catch(() => null)) as any });
  const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(answerOf);

  it("answers 120 concurrent calls over 6 sessions with canonical codes; calls refused or timed out in the queue never reach the origin; healthy after", async () => {
    origin = await slowOrigin();
    stack = await startStack({ WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.31"], timeoutMs: TIMEOUT_MS }), PERSIST_DIR: persist });
    const base = stack.url;
    const o = origin.url;
    const sessions = await Promise.all(Array.from({ length: 6 }, async () => (await post(`${base}/api/sessions`, { source: "e2e" })).body.sessionId as string));
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const ms = i % 3 === 0 ? 50 : 10_000;
        const answer = await post(`${base}/api/sessions/${sessions[i % sessions.length]}/tools/fetch_content`, { url: `${o}/page?call=${i}&ms=${ms}` });
        return { i, ...answer, ms: Date.now() - started };
      }),
    );

    // Nothing lost: every answer is a page or one of the canonical codes, with its status.
    const kinds = new Set(answers.map((a) => (a.status === 200 ? "ok" : `${a.status} ${a.body?.error?.code}`)));
    for (const kind of kinds) expect(["ok", "429 CONTENT_FETCH_FAILED", "504 CONTENT_FETCH_TIMEOUT"]).toContain(kind);
    for (const a of answers) if (a.status !== 200) expect(isWebErrorCode(a.body.error.code)).toBe(true);
    expect(kinds).toContain("504 CONTENT_FETCH_TIMEOUT");
    // Generous for a loaded 2-core machine, yet short of the 10 s origin: a call that waited for it would fail.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(TIMEOUT_MS + 6_000);

    // What reached the origin: never a call refused by the session's queue or one whose deadline passed while it waited.
    // Only the calls' pages count: robots.txt, read for the first call's origin, has no call number (it read as call 0).
    const calls = origin.requests.map((r) => new URL(r.url, "http://o").searchParams.get("call"));
    const reached = new Set(calls.filter((call) => call !== null).map(Number));
    const neverStarted = answers.filter((a) => a.status === 429 || (a.status === 504 && /waited \d+ ms in this session's queue/.test(a.body.error.message)));
    for (const a of neverStarted) expect(reached.has(a.i)).toBe(false);

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    const after = await post(`${base}/api/sessions/${sessions[0]}/tools/fetch_content`, { url: `${o}/page?after=1&ms=0` });
    expect(after.status).toBe(200);
  });
});
