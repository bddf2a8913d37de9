import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONVERT_ERROR_CODES, CONVERT_REQUEST_HEADER, DEFAULT_WEB_CONFIG } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../../test-support/wait-for.ts";
import { SIDECAR_MALLOC_ENV } from "../src/sidecar-malloc-env.ts";
import { buildDocx, buildPptx, buildXlsx } from "./support/document-fixtures.ts";

/**
 * A real sidecar process, its resident memory read from /proc while it converts documents that are small on
 * the wire and inflate large, within the documented limits (convert.maxUnzippedBytes, maxResponseBytes).
 */

const TOKEN = "test-token-0123456789";
const MEMORY_MB = 160;
/** What the process may hold beyond its idle level and the converter thread's setting: the request's bytes, the answer, what a memory reading lags behind. */
const PEAK_SLACK_MB = 64;
/** "Near idle": what the allocator may keep of a finished thread's allocations. */
const RETURN_SLACK_MB = 80;
const LIMITS = { ...DEFAULT_WEB_CONFIG.convert, timeoutMs: 120_000 };

let child: ChildProcess;
let base: string;
let idleMb: number;

const rssMb = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]) / 1024;

/** The resident size once it stops moving (the warmed converter thread has loaded its modules). */
async function settledRss(): Promise<number> {
  const readings: number[] = [];
  await waitFor(
    () => {
      readings.push(rssMb());
      const last = readings.slice(-8);
      return last.length === 8 && Math.max(...last) - Math.min(...last) < 2;
    },
    "the sidecar's resident size to settle",
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return readings.at(-1) as number;
}

beforeAll(async () => {
  // Started as operations.md says: with the allocator settings `npm start` gives it.
  child = spawn(process.execPath, [join(import.meta.dirname, "..", "src", "main.ts")], {
    env: { ...process.env, SIDECAR_TOKEN: TOKEN, SIDECAR_PORT: "0", SIDECAR_CONVERT_THREADS: "1", SIDECAR_CONVERT_MEMORY_MB: String(MEMORY_MB), ...SIDECAR_MALLOC_ENV },
    stdio: ["ignore", "pipe", "inherit"],
  });
  base = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the sidecar exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      const address = /listening on (http:\/\/\S+)/.exec(chunk.toString())?.[1];
      if (address) resolve(address);
    });
  });
  idleMb = await settledRss();
}, 60_000);

afterAll(() => {
  child.kill();
});

/** Converts the document, reading the process's resident size every few milliseconds meanwhile. */
async function convertWatched(fileName: string, bytes: Uint8Array): Promise<{ answer: any; peakMb: number }> {
  let peakMb = rssMb();
  const watch = setInterval(() => (peakMb = Math.max(peakMb, rssMb())), 5);
  try {
    const res = await fetch(`${base}/v1/convert-file`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, [CONVERT_REQUEST_HEADER]: encodeURIComponent(JSON.stringify({ source: `attachment:${fileName}`, fileName, limits: LIMITS })) },
      body: bytes,
    });
    expect(res.status).toBe(200);
    return { answer: await res.json(), peakMb };
  } finally {
    clearInterval(watch);
  }
}

const word = (i: number) => `w${(i * 7919) % 1_000_003}`;

describe("a sidecar converting documents that inflate large", () => {
  it.each([
    // One slide of 400,000 bullets: 1.7 MB on the wire, 34 MB of XML, a tree many times that.
    ["slide.pptx", () => buildPptx({ slides: [{ title: "Big", bullets: Array.from({ length: 400_000 }, (_, i) => word(i)) }] })],
    // 400,000 paragraphs for mammoth, which builds its own trees of them.
    ["long.docx", () => buildDocx({ paragraphs: Array.from({ length: 400_000 }, (_, i) => word(i)) })],
  ])("holds %s within its memory setting, fails it cleanly and gives the memory back", async (fileName, build) => {
    const bytes = build();
    expect(bytes.length).toBeLessThan(LIMITS.maxResponseBytes);
    const { answer, peakMb } = await convertWatched(fileName, bytes);
    expect(answer).toMatchObject({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining(`${MEMORY_MB} MB of memory`) } });
    expect(CONVERT_ERROR_CODES).toContain(answer.error.code);
    expect(peakMb - idleMb).toBeLessThan(MEMORY_MB + PEAK_SLACK_MB);
    await waitFor(() => rssMb() < idleMb + RETURN_SLACK_MB, "the memory to be given back", { timeoutMs: 30_000, intervalMs: 100 });
    // The thread that died was replaced: the next document converts.
    const small = await convertWatched("small.pptx", buildPptx({ slides: [{ title: "After", bullets: ["Still converting"] }] }));
    expect(small.answer).toMatchObject({ ok: true, value: { content: expect.stringContaining("Still converting") } });
  }, 180_000);

  it("gives back the memory a large document that converts held", async () => {
    // 150,000 rows of distinct shared strings: converts within the setting, and leaves the thread's heap grown.
    const rows = Array.from({ length: 150_000 }, (_, i) => [`${word(i)} ${"cell text ".repeat(4)}`, word(i + 1)]);
    const { answer, peakMb } = await convertWatched("rows.xlsx", buildXlsx({ sheets: [{ name: "Rows", rows }] }));
    expect(answer).toMatchObject({ ok: true, value: { provider: "xlsx" } });
    expect(peakMb - idleMb).toBeLessThan(MEMORY_MB + PEAK_SLACK_MB);
    // It held more than "near idle" allows, so giving it back is what the last line checks.
    expect(peakMb - idleMb).toBeGreaterThan(RETURN_SLACK_MB);
    // V8 alone shrinks a grown heap only after many seconds idle; the pool ends the thread instead.
    await waitFor(() => rssMb() < idleMb + RETURN_SLACK_MB, "the memory to be given back", { timeoutMs: 8_000, intervalMs: 100 });
  }, 120_000);
});
