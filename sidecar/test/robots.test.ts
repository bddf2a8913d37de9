import { convertLimitsFrom, DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type RenderMode, type RobotsEntry } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, routes, type Handler, type Origin } from "../../test-support/origin.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { convertUrl } from "../src/convert/service/convert-url.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { createSidecarServer, listen } from "../src/server.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

/** Rules for our product token, and for everyone else. */
const RULES = [
  "# robots.txt for the test origin",
  "User-agent: EdgeWebTools",
  "Disallow: /private",
  "Allow: /private/open$",
  "Disallow: /*.pdf$",
  "Allow: /tie",
  "Disallow: /tie",
  "",
  "User-agent: *",
  "Disallow: /",
  "Crawl-delay: 7",
].join("\n");

const page = (text: string) => send(200, "text/html", `<!doctype html><html><head><title>${text}</title></head><body><main><h1>${text}</h1><p>${text} is a page of the robots test origin, with a sentence or two to read.</p></main></body></html>`);
const pages = (paths: string[]): Record<string, Handler> => Object.fromEntries(paths.map((path) => [path, page(`Page ${path}`)]));
const PATHS = ["/public", "/private/x", "/private/open", "/private/open/more", "/doc.pdf", "/doc.pdf.html", "/tie", "/nope", "/fine"];

let ruled: Origin;
let missing: Origin;
let failing: Origin;
let hanging: Origin;
let starOnly: Origin;
let redirecting: Origin;
let looping: Origin;
let large: Origin;
let wildcards: Origin;
/** Rules on another loopback address, which the tests' policy lets a request reach only when it says so. */
let elsewhere: Origin;
let pointsElsewhere: Origin;
let deps: ReturnType<typeof createSidecarDeps>;

const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 3_000, ...over });
const read = (url: string, over: Partial<FetchOptions> = {}, render: RenderMode = "never") => fetchContent({ url, preferReader: false, render, options: options(over) }, deps);
const readGiven = (url: string, robotsRecord: RobotsEntry) => fetchContent({ url, preferReader: false, render: "never", options: options(), robotsRecord }, deps);
/** A record of `origin`'s robots.txt disallowing /nope, read `ageMs` ago. */
const recordOf = (origin: Origin, ageMs: number): RobotsEntry => ({
  origin: origin.url,
  readAt: Date.now() - ageMs,
  record: { kind: "rules", url: `${origin.url}/robots.txt`, body: "User-agent: *\nDisallow: /nope\n" },
});
const robotsReads = (origin: Origin) => origin.requests.filter((request) => request.url.startsWith("/robots.txt")).length;

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  const start = (table: Record<string, Handler>) => startOrigin("127.0.0.2", routes({ ...pages(PATHS), ...table }));
  ruled = await start({
    "/robots.txt": send(200, "text/plain", RULES),
    "/to-failing": (req, res) => send(302, "text/plain", "", { location: `${failing.url}/fine` })(req, res, ""),
    // A script-built page whose script walks to a disallowed page.
    "/walks-away.html": send(200, "text/html", `<!doctype html><html><head><title>Walks away</title><script>setTimeout(() => { location = "/private/secret"; }, 20);</script></head><body><p>Leaving for the private page.</p></body></html>`),
    "/private/secret": page("Secret page"),
  });
  missing = await start({});
  failing = await start({ "/robots.txt": send(503, "text/plain", "down for maintenance") });
  hanging = await start({ "/robots.txt": () => {} });
  starOnly = await start({ "/robots.txt": send(200, "text/plain", "User-agent: *\nDisallow: /nope\n") });
  redirecting = await start({
    "/robots.txt": send(301, "text/plain", "", { location: "/rules/robots.txt" }),
    "/rules/robots.txt": send(200, "text/plain", "User-agent: edgewebtools\nDisallow: /nope\n"),
  });
  looping = await start({ "/robots.txt": (req, res) => send(302, "text/plain", "", { location: `/robots.txt?${Number(new URL(req.url ?? "", "http://o").searchParams.get("n") ?? 0)}` })(req, res, "") });
  // Past 500 KiB a robots.txt is not read: its rule there does not count.
  elsewhere = await startOrigin("127.0.0.3", routes({ "/robots.txt": send(200, "text/plain", "User-agent: *\nDisallow: /nope\n") }));
  pointsElsewhere = await start({ "/robots.txt": (req, res) => send(301, "text/plain", "", { location: `${elsewhere.url}/robots.txt` })(req, res, "") });
  large = await start({ "/robots.txt": send(200, "text/plain", `User-agent: *\nDisallow: /nope\n${"# padding\n".repeat(60_000)}Disallow: /fine\n`) });
  // 500 KB of rules with wildcards: each is matched in steps of its length times the URL's.
  wildcards = await start({ "/robots.txt": send(200, "text/plain", `User-agent: *\n${"Disallow: /*a*a*a*b\n".repeat(25_000)}`) });
});

afterAll(async () => {
  await deps.renderer.close();
  await Promise.all([ruled, missing, failing, hanging, starOnly, redirecting, looping, large, wildcards, elsewhere, pointsElsewhere].map((origin) => origin.close()));
  await deps.dispatchers.close();
});

describe("robots.txt (RFC 9309)", () => {
  it("reads the rules for our product token: longest match wins, Allow wins a tie, * and $ match", async () => {
    for (const path of ["/public", "/private/open", "/doc.pdf.html", "/tie"]) expect((await read(`${ruled.url}${path}`)).ok, path).toBe(true);
    for (const path of ["/private/x", "/private/open/more", "/doc.pdf"]) {
      expect(await read(`${ruled.url}${path}`), path).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_FAILED", details: { fault: "robots" } } });
    }
  });

  it("names the rule that matched, and fetches nothing it disallows", async () => {
    const refused = await read(`${ruled.url}/private/x`);
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringContaining('line 3, "Disallow: /private"') } });
    expect(!refused.ok && refused.error.message).toContain("EdgeWebTools");
    expect(ruled.requests.some((request) => request.url === "/private/x")).toBe(false);
  });

  it("falls back to the * group when none names us", async () => {
    expect((await read(`${starOnly.url}/fine`)).ok).toBe(true);
    expect(await read(`${starOnly.url}/nope`)).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
  });

  it("allows everything when robots.txt answers 4xx", async () => {
    expect((await read(`${missing.url}/private/x`)).ok).toBe(true);
  });

  it("disallows everything when robots.txt answers 5xx or cannot be reached, saying so", async () => {
    expect(await read(`${failing.url}/public`)).toMatchObject({ ok: false, error: { details: { fault: "robots" }, message: expect.stringContaining("503") } });
    const hung = await read(`${hanging.url}/public`, { timeoutMs: 1_500 });
    expect(hung).toMatchObject({ ok: false, error: { details: { fault: "robots" }, message: expect.stringMatching(/could not be read/) } });
  });

  it("fails a page of an origin that cannot be reached at all as upstream, not as robots.txt's refusal", async () => {
    expect(await read("http://127.0.0.2:9/public")).toMatchObject({ ok: false, error: { details: { fault: "upstream" }, message: expect.stringMatching(/refused/) } });
  });

  it("follows up to 5 redirects to the rules, and takes more as no robots.txt (everything allowed)", async () => {
    expect(await read(`${redirecting.url}/nope`)).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
    expect((await read(`${looping.url}/nope`)).ok).toBe(true);
    expect(robotsReads(looping)).toBe(6);
  });

  it("takes a robots.txt redirect its policy refuses as none for that request alone, never for the next", async () => {
    // This request may not reach 127.0.0.3: it has no robots.txt to obey.
    expect((await read(`${pointsElsewhere.url}/nope`)).ok).toBe(true);
    expect(elsewhere.requests).toHaveLength(0);
    // One that may reads the rules there, which disallow the page.
    expect(await read(`${pointsElsewhere.url}/nope`, { allowHosts: ["127.0.0.2", "127.0.0.3"] })).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
    expect(elsewhere.requests.map((request) => request.url)).toEqual(["/robots.txt"]);
  });

  it("gives a read that joined another's aborted read one of its own", async () => {
    const silent = await startOrigin("127.0.0.2", routes({ ...pages(PATHS), "/robots.txt": () => {} }));
    try {
      const controller = new AbortController();
      const first = fetchContent({ url: `${silent.url}/fine`, preferReader: false, render: "never", options: options() }, deps, controller.signal);
      await waitFor(() => robotsReads(silent) === 1, "the first read of the silent robots.txt");
      const second = read(`${silent.url}/fine`);
      controller.abort();
      await first;
      // The second is not told of the first's abort: it reads for itself, and the silence disallows all.
      expect(await second).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
      expect(robotsReads(silent)).toBe(2);
    } finally {
      await silent.close();
    }
  });

  it("reads at most 500 KiB of it", async () => {
    expect(await read(`${large.url}/nope`)).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
    expect((await read(`${large.url}/fine`)).ok).toBe(true);
  });

  it("refuses a URL too long to check against that many wildcard rules in time, saying so, and checks shorter ones", async () => {
    expect((await read(`${wildcards.url}/fine`)).ok).toBe(true);
    const long = `${wildcards.url}/${"a".repeat(8_000)}`;
    expect(await read(long)).toMatchObject({
      ok: false,
      error: { details: { fault: "robots" }, message: expect.stringContaining(`has 250000 characters of rules with wildcards, too many to check against a URL of ${long.length} characters`) },
    });
    expect(wildcards.requests.some((request) => request.url.startsWith("/aaa"))).toBe(false);
  });

  it("reads an origin's robots.txt once, and the rules again for each URL", async () => {
    const before = robotsReads(starOnly);
    await read(`${starOnly.url}/fine`);
    await read(`${starOnly.url}/nope`);
    expect(robotsReads(starOnly) - before).toBe(0);
  });

  it("checks every hop: a redirect to an origin whose robots.txt fails is refused", async () => {
    expect(await read(`${ruled.url}/to-failing`)).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
    expect(failing.requests.some((request) => request.url === "/fine")).toBe(false);
  });

  it('reads what it disallows with web.robots "ignore", and never asks for robots.txt then', async () => {
    const before = robotsReads(hanging);
    expect((await read(`${ruled.url}/private/x`, { robots: "ignore" })).ok).toBe(true);
    expect((await read(`${hanging.url}/public`, { robots: "ignore" })).ok).toBe(true);
    expect(robotsReads(hanging) - before).toBe(0);
  });

  it("holds convert_content by URL to it: CONVERT_FAILED, fault robots, nothing downloaded", async () => {
    const answer = await convertUrl({ url: `${ruled.url}/doc.pdf`, options: options(), limits: convertLimitsFrom(DEFAULT_WEB_CONFIG, {}) }, deps);
    expect(answer).toMatchObject({ ok: false, error: { code: "CONVERT_FAILED", details: { fault: "robots" }, message: expect.stringContaining("Disallow: /*.pdf$") } });
    expect(ruled.requests.some((request) => request.url === "/doc.pdf")).toBe(false);
  });

  it("keeps a rendered page from walking to a page robots.txt disallows", async () => {
    const answer = await read(`${ruled.url}/walks-away.html`, {}, "always");
    expect(answer.ok && answer.value.content).not.toContain("Secret page");
    expect(ruled.requests.some((request) => request.url === "/private/secret")).toBe(false);
  });
});

describe("robots.txt records from and for the worker (KV)", () => {
  const fresh: Origin[] = [];
  /** An origin no test has read robots.txt of, allowing everything. */
  const open = async (table: Record<string, Handler> = {}) => {
    const origin = await startOrigin("127.0.0.2", routes({ ...pages(PATHS), "/robots.txt": send(200, "text/plain", "User-agent: *\nAllow: /\n"), ...table }));
    fresh.push(origin);
    return origin;
  };
  afterAll(() => Promise.all(fresh.map((origin) => origin.close())));

  it("uses a fresh record it is given instead of reading robots.txt, and reports no read", async () => {
    const site = await open();
    const answer = await readGiven(`${site.url}/nope`, recordOf(site, 60_000));
    expect(answer).toMatchObject({ ok: false, error: { details: { fault: "robots" }, message: expect.stringContaining('"Disallow: /nope"') } });
    expect(answer.robotsRead).toBeUndefined();
    expect(robotsReads(site)).toBe(0);
  });

  it("reads robots.txt when the record given is stale, and reports the read with its page", async () => {
    const site = await open();
    const before = Date.now();
    const answer = await readGiven(`${site.url}/nope`, recordOf(site, 25 * 3_600_000));
    expect(answer.ok).toBe(true);
    expect(robotsReads(site)).toBe(1);
    expect(answer.robotsRead).toEqual([{ origin: site.url, readAt: expect.any(Number), record: { kind: "rules", url: `${site.url}/robots.txt`, body: "User-agent: *\nAllow: /\n" } }]);
    expect(answer.robotsRead![0]!.readAt).toBeGreaterThanOrEqual(before);
  });

  it("reports a failed read with the failure, and the reads of a redirect's origin", async () => {
    const down = await open({ "/robots.txt": send(500, "text/plain", "down") });
    const site = await open({ "/away": (req, res) => send(302, "text/plain", "", { location: `${down.url}/fine` })(req, res, "") });
    const answer = await read(`${site.url}/away`);
    expect(answer).toMatchObject({ ok: false, error: { details: { fault: "robots" } } });
    expect(answer.robotsRead?.map((entry) => [entry.origin, entry.record.kind])).toEqual([
      [site.url, "rules"],
      [down.url, "disallow-all"],
    ]);
  });

  it("reports the reads of convert_content by URL", async () => {
    const site = await open();
    const answer = await convertUrl({ url: `${site.url}/missing.pdf`, options: options(), limits: convertLimitsFrom(DEFAULT_WEB_CONFIG, {}) }, deps);
    expect(answer.robotsRead?.map((entry) => entry.origin)).toEqual([site.url]);
  });

  it("ignores a record from the worker that does not pass (another origin's rules): reads robots.txt and reports it", async () => {
    const site = await open();
    const server = createSidecarServer({ token: "robots-test-token", deps });
    const { port } = await listen(server, 0, "127.0.0.1");
    try {
      const forged = { ...recordOf(site, 0), record: { kind: "rules", url: "http://127.0.0.2:9/robots.txt", body: "User-agent: *\nDisallow: /\n" } };
      const response = await fetch(`http://127.0.0.1:${port}/v1/fetch`, {
        method: "POST",
        headers: { authorization: "Bearer robots-test-token" },
        body: JSON.stringify({ url: `${site.url}/nope`, render: "never", options: options(), robotsRecord: forged }),
      });
      const answer = await response.json();
      expect(answer).toMatchObject({ ok: true, robotsRead: [{ origin: site.url, record: { url: `${site.url}/robots.txt` } }] });
      expect(robotsReads(site)).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
