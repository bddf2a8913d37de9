import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isWebErrorCode } from "@edge-web/shared";
import { startOrigin, type Origin } from "../test-support/origin.ts";
import { cpuMs } from "../test-support/process-stats.ts";
import { startStack } from "../test-support/stack.ts";
import { apiTarget, BENCH_PAGE } from "./bench-stack.ts";

/** The reliability scenario of issue 20. */
const CALLS = 1_000;
const SESSIONS = 50;
const TIMEOUT_MS = 4_000;
/** How long each origin takes to answer, by call: fast, slow, and past the deadline. */
const ORIGIN_DELAYS_MS = [100, 1_000, 2_500, 6_000];
const ORIGIN_HOSTS = ["127.0.0.21", "127.0.0.22", "127.0.0.23", "127.0.0.24", "127.0.0.25"];
/** An answer later than this is counted lost (no answer at all). */
const GIVE_UP_MS = 60_000;

interface Answer {
  outcome: string;
  ms: number;
}

/**
 * 1,000 concurrent fetch_content calls over 50 sessions against slow loopback origins, web.timeoutMs
 * 4 s, on the real `npm start` stack. Every answer — the page, the session queue's refusal (429
 * CONTENT_FETCH_FAILED), the sidecar's (503) or a timeout (504 CONTENT_FETCH_TIMEOUT) — should come
 * within timeoutMs + 1 s; an answer without a canonical code, or none at all, is lost. Afterwards
 * the stack must still answer /healthz and a fast call.
 */
export async function benchReliability() {
  const origins: Origin[] = await Promise.all(
    ORIGIN_HOSTS.map((host) =>
      startOrigin(host, (req, res) => {
        const delay = Number(new URL(req.url ?? "/", "http://o").searchParams.get("ms") ?? 0);
        const timer = setTimeout(() => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(BENCH_PAGE), delay);
        res.on("close", () => clearTimeout(timer));
      }),
    ),
  );
  const persist = mkdtempSync(join(tmpdir(), "edge-web-reliability-"));
  const webConfig = { timeoutMs: TIMEOUT_MS, allowHosts: ORIGIN_HOSTS };
  const stack = await startStack({ WEB_CONFIG: JSON.stringify(webConfig), PERSIST_DIR: persist });
  try {
    const api = apiTarget(stack.url);
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => api.newSession()));
    const callOnce = async (sessionId: string, url: string): Promise<Answer> => {
      const started = performance.now();
      try {
        const res = await fetch(`${api.url}/api/sessions/${sessionId}/tools/fetch_content`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ url }),
          signal: AbortSignal.timeout(GIVE_UP_MS),
        });
        const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
        const ms = performance.now() - started;
        if (res.status === 200) return { outcome: "ok", ms };
        const code = body?.error?.code;
        return { outcome: code && isWebErrorCode(code) ? `${code} ${res.status}` : `lost: HTTP ${res.status} ${code ?? "no code"}`, ms };
      } catch (error) {
        return { outcome: `lost: ${(error as Error).name}`, ms: performance.now() - started };
      }
    };
    const pids = stack.pids();
    const cpuBefore = { worker: cpuMs(pids.worker), sidecar: cpuMs(pids.sidecar) };
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: CALLS }, (_, i) => {
        const host = ORIGINS_URL(origins[i % origins.length]!);
        const delay = ORIGIN_DELAYS_MS[Math.floor(i / SESSIONS) % ORIGIN_DELAYS_MS.length];
        return callOnce(sessions[i % SESSIONS]!, `${host}/page.html?ms=${delay}&i=${i}`);
      }),
    );
    const wallMs = performance.now() - started;
    const cpuPerCallMs = { worker: +((cpuMs(pids.worker) - cpuBefore.worker) / CALLS).toFixed(2), sidecar: +((cpuMs(pids.sidecar) - cpuBefore.sidecar) / CALLS).toFixed(2) };
    // The stack after the storm: the origins' lingering requests end, then a fast call on a fresh session.
    await sleep(1_000);
    const healthz = (await fetch(`${api.url}/healthz`).catch(() => undefined))?.status ?? 0;
    const after = await callOnce(await api.newSession(), `${ORIGINS_URL(origins[0]!)}/page.html?ms=0`);

    const byOutcome: Record<string, number[]> = {};
    for (const { outcome, ms } of answers) (byOutcome[outcome] ??= []).push(ms);
    const all = answers.map((a) => a.ms);
    const lost = answers.filter((a) => a.outcome.startsWith("lost")).length;
    const p99 = quantiles(all).p99;
    return {
      case: "reliability: 1,000 concurrent fetch_content calls over 50 sessions, slow origins, web.timeoutMs 4 s (npm start)",
      calls: CALLS,
      sessions: SESSIONS,
      timeoutMs: TIMEOUT_MS,
      originDelaysMs: ORIGIN_DELAYS_MS,
      wallMs: Math.round(wallMs),
      cpuPerCallMs,
      answerMs: quantiles(all),
      byOutcome: Object.fromEntries(Object.entries(byOutcome).map(([outcome, ms]) => [outcome, { count: ms.length, ...quantiles(ms) }])),
      lost,
      healthAfter: { healthz, fetch: after.outcome, ms: Math.round(after.ms) },
      target: { p99MaxMs: TIMEOUT_MS + 1_000, met: p99 <= TIMEOUT_MS + 1_000 && lost === 0 && healthz === 200 && after.outcome === "ok" },
    };
  } finally {
    await stack.stop();
    await Promise.all(origins.map((o) => o.close()));
    rmSync(persist, { recursive: true, force: true });
  }
}

const ORIGINS_URL = (origin: Origin) => origin.url;

function quantiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(sorted.at(-1) ?? NaN) };
}

if (import.meta.main) console.log(JSON.stringify(await benchReliability()));
