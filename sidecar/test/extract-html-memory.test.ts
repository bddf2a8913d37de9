import { Worker } from "node:worker_threads";
import { expect, it } from "vitest";

/**
 * Memory per page is bounded: a 10 MB page is extracted in a worker whose V8 heap is capped at 512 MB.
 * Going over the cap ends the worker with ERR_WORKER_OUT_OF_MEMORY, which fails the test. No timing is asserted.
 */
const PAGE_BYTES = 10 * 1024 * 1024;
const HEAP_CAP_MB = 512;

it(`extracts a 10 MB page within a ${HEAP_CAP_MB} MB heap`, async () => {
  const worker = new Worker(new URL("./support/extract-large-page-worker.ts", import.meta.url), {
    workerData: { bytes: PAGE_BYTES },
    resourceLimits: { maxOldGenerationSizeMb: HEAP_CAP_MB, maxYoungGenerationSizeMb: 64 },
  });
  const result = await new Promise<{ pageChars: number; contentChars: number }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`worker exited with ${code} before answering`)));
  });
  await worker.terminate();
  expect(result.pageChars).toBeGreaterThanOrEqual(PAGE_BYTES);
  expect(result.contentChars).toBeGreaterThan(PAGE_BYTES / 2);
}, 120_000);
