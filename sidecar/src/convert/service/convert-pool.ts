import { Worker } from "node:worker_threads";
import { fail, failWith } from "@edge-web/shared";
import type { ConverterResult, ConvertOptions } from "../formats/document-converter.ts";
import type { DocumentHints } from "./detect-document.ts";

export interface ConvertJob {
  bytes: Uint8Array;
  hints: DocumentHints;
  options: ConvertOptions;
}

/** Conversions run on worker threads: one big document never stalls the sidecar's fetches. */
export interface ConvertPool {
  run(job: ConvertJob, signal?: AbortSignal): Promise<ConverterResult>;
  /** Threads running a job, and jobs waiting for one. */
  load(): { busy: number; queued: number };
  /** Starts one thread ahead of the first document, so it does not wait for a thread to load the converters. */
  warm(): void;
  close(): Promise<void>;
}

export interface ConvertPoolSettings {
  threads: number;
  /** Jobs that may wait for a thread; more fail at once. */
  maxQueued: number;
  /**
   * What one thread may hold, its heap and the memory outside it (the buffers that inflated streams and
   * unzipped parts fill) together: a document that needs more fails, the sidecar does not.
   */
  memoryMb: number;
}

/**
 * How long past a job's deadline a thread may run before it is stopped: converters stop themselves
 * before the deadline, and the worker waits a little longer than this for the answer.
 */
const STOP_GRACE_MS = 100;
/** How often a busy thread's memory is read: its heap has a hard limit, its buffers only this watch. */
const MEMORY_CHECK_MS = 50;
/**
 * A thread left holding more than this after a document (a fresh one holds about 35 MB) is replaced: V8 keeps
 * a grown heap, so only ending the thread gives the memory back.
 */
const RETIRE_ABOVE_MB = 64;
/** The young generation is carved out of memoryMb, not added on top of it. */
const youngMb = (memoryMb: number) => Math.max(1, Math.min(32, Math.floor(memoryMb / 8)));
const MIB = 1024 * 1024;
/** What a thread holds as the process sees it: its heap's pages and the memory outside the heap (ArrayBuffers, Buffers, zlib). */
const held = (stats: { total_physical_size: number; external_memory: number }) => stats.total_physical_size + stats.external_memory;
const THREAD_URL = new URL("./convert-thread.ts", import.meta.url);

interface Running {
  resolve(outcome: ConverterResult): void;
  cleanup(): void;
}

interface Thread {
  worker: Worker;
  job?: Running;
}

interface Waiting {
  job: ConvertJob;
  signal?: AbortSignal;
  resolve(outcome: ConverterResult): void;
  /** Answers that the document waited past its deadline. */
  expire(): void;
  cleanup(): void;
}

export function createConvertPool(settings: ConvertPoolSettings): ConvertPool {
  const idle: Thread[] = [];
  const all = new Set<Thread>();
  const queue: Waiting[] = [];
  let closed = false;

  function spawn(): Thread {
    const worker = new Worker(THREAD_URL, {
      resourceLimits: { maxOldGenerationSizeMb: Math.max(1, settings.memoryMb - youngMb(settings.memoryMb)), maxYoungGenerationSizeMb: youngMb(settings.memoryMb) },
    });
    worker.unref();
    const thread: Thread = { worker };
    all.add(thread);
    worker.on("message", (outcome: ConverterResult) => finish(thread, outcome));
    worker.on("error", (error) => {
      const outOfMemory = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
      finish(thread, outOfMemory ? tooBig() : fail("CONVERT_FAILED", "The converter failed on this document; it may be corrupt."), true);
    });
    worker.on("exit", () => finish(thread, fail("CONVERT_FAILED", "The converter stopped while converting this document; it may be corrupt."), true));
    return thread;
  }

  const tooBig = () => fail("CONVERT_FAILED", `Converting the document needed more than ${settings.memoryMb} MB of memory; it is too complex to convert here.`);

  /**
   * A thread's job ends. A thread that broke on its document, or holds much memory after it, is ended and a
   * fresh one warmed in its place; one that died while idle is replaced only when work waits for it (it may be
   * the settings that kill it, and a replacement would die the same way).
   */
  function finish(thread: Thread, outcome: ConverterResult, broken = false): void {
    const job = thread.job;
    thread.job = undefined;
    if (job) {
      job.cleanup();
      job.resolve(outcome);
    }
    if (broken) {
      retire(thread, job !== undefined);
      next();
    } else if (job) {
      thread.worker
        .getHeapStatistics()
        .then((stats) => {
          // The thread may have died while it was read (retired already).
          if (!all.has(thread)) return;
          if (held(stats) > RETIRE_ABOVE_MB * MIB) retire(thread, true);
          else idle.push(thread);
        })
        .catch(() => retire(thread, false))
        .finally(next);
    }
  }

  function retire(thread: Thread, replace: boolean): void {
    if (!all.delete(thread)) return;
    // A thread may also die while idle (warmed, or between jobs): it must never be handed work.
    const at = idle.indexOf(thread);
    if (at >= 0) idle.splice(at, 1);
    void thread.worker.terminate();
    if (replace && !closed) idle.push(spawn());
  }

  function start(thread: Thread, waiting: Waiting): void {
    const { job, signal } = waiting;
    const stop = (outcome: ConverterResult) => {
      // A late timer or memory reading of a job that already ended must not touch the thread's next one.
      if (thread.job !== running) return;
      // The converter is stuck or no longer wanted: only stopping its thread frees the CPU it holds.
      finish(thread, outcome, true);
    };
    const late = Math.max(0, job.options.deadlineMs - Date.now()) + STOP_GRACE_MS;
    const timer = setTimeout(() => stop(fail("CONVERT_TIMEOUT", "Converting the document did not finish within its deadline; ask for fewer pages or raise timeoutMs.")), late);
    // The heap limit does not cover buffers (a PDF stream inflating to gigabytes fills those): heap and buffers are watched together here.
    const watch = setInterval(() => {
      thread.worker
        .getHeapStatistics()
        .then((stats) => {
          if (held(stats) > settings.memoryMb * MIB) stop(tooBig());
        })
        .catch(() => {});
    }, MEMORY_CHECK_MS);
    const onAbort = () => stop(fail("CONVERT_FAILED", "The conversion was cancelled."));
    signal?.addEventListener("abort", onAbort, { once: true });
    const running: Running = {
      resolve: waiting.resolve,
      cleanup: () => {
        clearTimeout(timer);
        clearInterval(watch);
        signal?.removeEventListener("abort", onAbort);
      },
    };
    thread.job = running;
    // The bytes move to the thread rather than being copied, unless their memory is shared or pooled (Node's Buffers).
    const whole = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength;
    try {
      thread.worker.postMessage(job, whole ? [job.bytes.buffer as ArrayBuffer] : []);
    } catch {
      thread.worker.postMessage(job);
    }
  }

  function next(): void {
    while (queue.length > 0 && !closed) {
      const thread = idle.pop() ?? (all.size < settings.threads ? spawn() : undefined);
      if (!thread) return;
      const waiting = queue.shift()!;
      // A thread freed as the deadline passed, before its timer ran: the document waited too long.
      if (Date.now() >= waiting.job.options.deadlineMs) {
        idle.push(thread);
        waiting.expire();
        continue;
      }
      waiting.cleanup();
      start(thread, waiting);
    }
  }

  return {
    run(job, signal) {
      // Capacity, not the document: the edge answers 503, which callers retry.
      if (closed) return Promise.resolve(failWith("CONVERT_FAILED", "The converter is shutting down; retry.", { fault: "unavailable" }));
      if (signal?.aborted) return Promise.resolve(fail("CONVERT_FAILED", "The conversion was cancelled."));
      const busy = all.size - idle.length;
      if (queue.length >= settings.maxQueued && busy >= settings.threads) {
        return Promise.resolve(failWith("CONVERT_FAILED", `The converter is busy (${settings.threads} documents converting, ${queue.length} waiting); retry shortly.`, { fault: "unavailable" }));
      }
      return new Promise<ConverterResult>((resolve) => {
        const queuedAt = Date.now();
        const leave = (outcome: ConverterResult) => {
          const at = queue.indexOf(waiting);
          if (at >= 0) queue.splice(at, 1);
          waiting.cleanup();
          resolve(outcome);
        };
        // The deadline covers the wait for a thread.
        const expire = () => leave(fail("CONVERT_TIMEOUT", `The document waited ${Date.now() - queuedAt} ms for a free converter and could not start before its deadline; retry later or raise timeoutMs.`));
        const timer = setTimeout(expire, Math.max(0, job.options.deadlineMs - Date.now()));
        const onAbort = () => leave(fail("CONVERT_FAILED", "The conversion was cancelled."));
        signal?.addEventListener("abort", onAbort, { once: true });
        const waiting: Waiting = {
          job,
          resolve,
          expire,
          ...(signal && { signal }),
          cleanup: () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", onAbort);
          },
        };
        queue.push(waiting);
        next();
      });
    },
    load: () => ({ busy: all.size - idle.length, queued: queue.length }),
    warm() {
      if (!closed && all.size === 0) idle.push(spawn());
    },
    async close() {
      closed = true;
      for (const waiting of queue.splice(0)) {
        waiting.cleanup();
        waiting.resolve(fail("CONVERT_FAILED", "The converter is shutting down; retry."));
      }
      await Promise.all([...all].map((t) => t.worker.terminate()));
      all.clear();
      idle.length = 0;
    },
  };
}
