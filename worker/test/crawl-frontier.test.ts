import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CrawlParams } from "@edge-web/shared";
import type { Env } from "../src/env.ts";
import { CrawlFrontier, emptyCounts, MAX_CRAWL_DELAY_MS, type CrawlJob } from "../src/crawl/crawl-frontier.ts";

const bindings = env as unknown as Env;
const START = "https://site.test/";

function jobOf(params: Partial<CrawlParams> = {}, bounds: Partial<CrawlJob["bounds"]> = {}): CrawlJob {
  return {
    crawlId: crypto.randomUUID(),
    sessionId: crypto.randomUUID(),
    owner: "open",
    url: START,
    params: { url: START, ...params },
    bounds: { limit: 50, maxDepth: 2, hostConcurrency: 2, hostDelayMs: 100, maxBytes: 1_000_000, maxQueryVariants: 3, endsAt: Date.now() + 60_000, leaseMs: 1_000, ...bounds },
    status: "running",
    createdAt: Date.now(),
    seedFromSitemaps: false,
    counts: emptyCounts(),
  };
}

/** A frontier in a fresh crawl object's storage, begun with `job`. */
async function withFrontier(job: CrawlJob, test: (frontier: CrawlFrontier, reopen: () => CrawlFrontier) => void) {
  const stub = bindings.CRAWLS.get(bindings.CRAWLS.idFromName(crypto.randomUUID()));
  await runInDurableObject(stub, (_instance, state: DurableObjectState) => {
    const frontier = new CrawlFrontier(state.storage.sql);
    frontier.begin(job);
    test(frontier, () => new CrawlFrontier(state.storage.sql));
  });
}

const stored = (links: string[] = []) => ({ ok: true as const, responseId: crypto.randomUUID(), bytes: 10, links });

describe("crawl frontier", () => {
  it("hands out each host's pages within its concurrency and delay, oldest first", async () => {
    await withFrontier(jobOf({}, { leaseMs: 60_000 }), (frontier) => {
      const now = 1_000_000;
      const [start] = frontier.next(now);
      expect(start).toMatchObject({ url: START, depth: 0, attempt: 1 });
      frontier.claim(start!.seq, 1);
      frontier.settle(start!.seq, stored(["/a", "/b", "/c", "https://other.test/x"]), now);
      // The start host's delay (100 ms) has not passed.
      expect(frontier.next(now + 50)).toEqual([]);
      expect(frontier.wakeAt()).toBe(now + 100);
      expect(frontier.next(now + 100).map((task) => task.url)).toEqual(["https://site.test/a"]);
      expect(frontier.next(now + 200).map((task) => task.url)).toEqual(["https://site.test/b"]);
      // Two running: the host's concurrency holds /c back whatever the time.
      expect(frontier.next(now + 10_000)).toEqual([]);
      expect(frontier.job?.counts).toMatchObject({ discovered: 4, skippedByFilter: 1 });
    });
  });

  it("keeps a host's robots.txt Crawl-delay once a page of it tells it, never below web.crawl.hostDelayMs and at most a minute", async () => {
    await withFrontier(jobOf({}, { leaseMs: 600_000 }), (frontier) => {
      const now = 1_000_000;
      const [start] = frontier.next(now);
      frontier.claim(start!.seq, 1);
      frontier.settle(start!.seq, { ...stored(["/a", "/b", "/c"]), crawlDelayMs: 2_500 }, now);
      expect(frontier.next(now + 2_499)).toEqual([]);
      expect(frontier.next(now + 2_500).map((task) => task.url)).toEqual(["https://site.test/a"]);
      expect(frontier.next(now + 4_999)).toEqual([]);
      expect(frontier.next(now + 5_000).map((task) => task.url)).toEqual(["https://site.test/b"]);
    });
  });

  it("holds a Crawl-delay to its bounds: an hour waits a minute, a millisecond waits web.crawl.hostDelayMs", async () => {
    for (const [crawlDelayMs, waits] of [[3_600_000, MAX_CRAWL_DELAY_MS], [1, 100]] as const) {
      await withFrontier(jobOf({}, { leaseMs: 600_000 }), (frontier) => {
        const now = 1_000_000;
        const [start] = frontier.next(now);
        frontier.claim(start!.seq, 1);
        frontier.settle(start!.seq, { ...stored(["/a", "/b"]), crawlDelayMs }, now);
        const a = now + waits;
        expect(frontier.next(a - 1)).toEqual([]);
        expect(frontier.next(a).map((task) => task.url)).toEqual(["https://site.test/a"]);
        // The page after it waits the bounded delay again.
        expect(frontier.next(a + waits - 1)).toEqual([]);
        expect(frontier.next(a + waits).map((task) => task.url)).toEqual(["https://site.test/b"]);
      });
    }
  });

  it("asks for the verdict on new hosts of links it would follow, and counts a refused host's links without queueing them", async () => {
    await withFrontier(jobOf({ allowExternal: true }), (frontier) => {
      const [task] = frontier.next(Date.now());
      frontier.claim(task!.seq, 1);
      const links = [`${START}a`, "http://10.0.0.1/x", "http://10.0.0.1/y", "https://ok.test/z"];
      expect(frontier.hostsToVet(links)).toEqual(["http://10.0.0.1", "https://ok.test"]);
      frontier.recordVerdicts(new Map([["http://10.0.0.1", false], ["https://ok.test", true]]));
      expect(frontier.hostsToVet(links)).toEqual([]);
      frontier.settle(task!.seq, stored(links), Date.now());
      expect(frontier.job?.counts).toMatchObject({ discovered: 3, skippedByPolicy: 2 });
      expect(frontier.state(0).pages.map((page) => page.url)).toEqual([START, `${START}a`, "https://ok.test/z"]);
    });
  });

  it("claims a page once per hand-out and records it once, however often its message comes", async () => {
    await withFrontier(jobOf(), (frontier) => {
      const [task] = frontier.next(Date.now());
      expect(frontier.claim(task!.seq, 1)).toMatchObject({ url: START });
      expect(frontier.claim(task!.seq, 1)).toBeUndefined();
      const outcome = stored(["/a"]);
      expect(frontier.settle(task!.seq, outcome, Date.now())).toMatchObject({ status: "fetched", responseId: outcome.responseId });
      expect(frontier.settle(task!.seq, stored(["/b"]), Date.now())).toBeUndefined();
      expect(frontier.claim(task!.seq, 2)).toBeUndefined();
      expect(frontier.job?.counts).toMatchObject({ fetched: 1, discovered: 2 });
    });
  });

  it("hands an unanswered page out again after its lease, and fails it after three hand-outs", async () => {
    await withFrontier(jobOf(), (frontier) => {
      const t0 = 1_000_000;
      const [task] = frontier.next(t0);
      expect(frontier.next(t0 + 999)).toEqual([]);
      expect(frontier.next(t0 + 1_000)).toEqual([{ ...task, attempt: 2 }]);
      // The first hand-out's message, late, no longer claims it; the second's does.
      expect(frontier.claim(task!.seq, 1)).toBeUndefined();
      expect(frontier.next(t0 + 2_000)).toEqual([{ ...task, attempt: 3 }]);
      expect(frontier.next(t0 + 3_000)).toEqual([]);
      expect(frontier.state(0).pages[0]).toMatchObject({ status: "failed", code: "CONTENT_FETCH_TIMEOUT" });
      expect(frontier.drained()).toBe(true);
    });
  });

  it("counts traps, filters, the limit and robots' and the policy's refusals apart", async () => {
    await withFrontier(jobOf({ excludePaths: ["/private/**"] }, { limit: 6, maxDepth: 1 }), (frontier) => {
      const [task] = frontier.next(Date.now());
      frontier.claim(task!.seq, 1);
      const links = ["/s?q=1", "/s?q=2", "/s?q=3", "/s?q=4", "/private/x", "/a/b/a/b/a/b/a/b", `/${"x".repeat(2_100)}`, "/p1", "/p2", "/p3"];
      frontier.settle(task!.seq, stored(links), Date.now());
      expect(frontier.job?.counts).toMatchObject({ discovered: 6, skippedByTrap: 3, skippedByFilter: 1, skippedByLimit: 1 });
      // One host: its second page starts once the delay after the first has passed.
      const tasks = [...frontier.next(Date.now() + 1_000), ...frontier.next(Date.now() + 1_100)];
      expect(tasks.map((task) => task.url)).toEqual(["https://site.test/s?q=1", "https://site.test/s?q=2"]);
      frontier.settle(tasks[0]!.seq, { ok: false, code: "CONTENT_FETCH_FAILED", message: "robots.txt disallows it", skip: "robots" }, Date.now());
      frontier.settle(tasks[1]!.seq, { ok: false, code: "CONTENT_FETCH_FAILED", message: "private address", skip: "policy" }, Date.now());
      expect(frontier.job?.counts).toMatchObject({ skippedByRobots: 1, skippedByPolicy: 1 });
      // A depth-2 link of a depth-1 page is past maxDepth 1.
      frontier.next(Date.now() + 2_000);
      frontier.next(Date.now() + 2_100);
      expect(frontier.state(0).pages.map((page) => page.status)).toEqual(["fetched", "skipped", "skipped", "fetching", "fetching", "queued"]);
    });
  });

  it("ends with the pages not started listed as such, keeps what it knows across a reopening, and pages its list", async () => {
    await withFrontier(jobOf({}, { limit: 250 }), (frontier, reopen) => {
      const [task] = frontier.next(Date.now());
      frontier.claim(task!.seq, 1);
      frontier.settle(task!.seq, stored(Array.from({ length: 200 }, (_, i) => `/p${i}`)), Date.now());
      frontier.finish("cancelled", Date.now(), "Cancelled by the caller.");
      const again = reopen();
      const first = again.state(0);
      expect(first).toMatchObject({ status: "cancelled", reason: "Cancelled by the caller.", nextCursor: "100" });
      expect(first.pages).toHaveLength(100);
      expect(first.pages[1]).toMatchObject({ status: "skipped", code: "NOT_STARTED" });
      const second = again.state(Number(first.nextCursor));
      expect(second.pages).toHaveLength(100);
      const last = again.state(Number(second.nextCursor));
      expect(last.pages.map((page) => page.url)).toEqual(["https://site.test/p199"]);
      expect(last.nextCursor).toBeUndefined();
      expect(again.state(0).counts).toMatchObject({ discovered: 201, fetched: 1, skippedByLimit: 200 });
      expect(again.next(Date.now() + 60_000)).toEqual([]);
    });
  });
});
