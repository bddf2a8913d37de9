import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import type { BenchStack } from "./bench-stack.ts";
import { percentiles } from "./percentiles.ts";

const PAGE = `<!doctype html><html><head><title>Robots bench</title></head><body><main><h1>Robots bench</h1>${"<p>A paragraph of the page the bench reads twice from each origin.</p>".repeat(20)}</main></body></html>`;
const ROBOTS = "User-agent: EdgeWebTools\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n";

/**
 * The time robots.txt adds to a first call to an origin (its robots.txt read, then the page) and to
 * a later one (the sidecar's kept copy): each call's p50 with web.robots "respect" less the same
 * call's with "ignore", each on origins of its own (the sidecar keeps robots.txt per origin), the
 * two settings taking turns by rounds so the machine's load weighs on both alike.
 */
export async function benchRobots(bench: BenchStack, rounds = 20, originsPerRound = 5) {
  const samples = { respect: { first: [] as number[], later: [] as number[] }, ignore: { first: [] as number[], later: [] as number[] } };
  const sessionId = await bench.newSession();
  const setRobots = async (robots: "respect" | "ignore") => {
    const res = await fetch(`${bench.url}/api/config/settings`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ values: { robots } }) });
    if (!res.ok) throw new Error(`PUT /api/config/settings answered ${res.status}`);
    await res.arrayBuffer();
  };
  const read = async (url: string) => {
    const start = performance.now();
    const res = await bench.post(`/api/sessions/${sessionId}/tools/fetch_content`, { url, render: "never" });
    if (res.status !== 200) throw new Error(`fetch_content ${url} answered ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - start;
  };
  const origins: Origin[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of ["respect", "ignore"] as const) {
        await setRobots(mode);
        for (let i = 0; i < originsPerRound; i++) {
          const origin = await startOrigin("127.0.0.2", routes({ "/robots.txt": send(200, "text/plain", ROBOTS), "/a.html": send(200, "text/html", PAGE), "/b.html": send(200, "text/html", PAGE) }), { record: false });
          origins.push(origin);
          samples[mode].first.push(await read(`${origin.url}/a.html`));
          samples[mode].later.push(await read(`${origin.url}/b.html`));
        }
      }
    }
  } finally {
    await setRobots("respect");
    await Promise.all(origins.map((origin) => origin.close()));
  }
  const p = { respect: { first: percentiles(samples.respect.first), later: percentiles(samples.respect.later) }, ignore: { first: percentiles(samples.ignore.first), later: percentiles(samples.ignore.later) } };
  return {
    case: "robots.txt: first and later fetch_content of an origin, respect against ignore (npm start)",
    origins: rounds * originsPerRound * 2,
    respect: p.respect,
    ignore: p.ignore,
    robotsAddsMsP50: { first: +(p.respect.first.p50 - p.ignore.first.p50).toFixed(2), later: +(p.respect.later.p50 - p.ignore.later.p50).toFixed(2) },
  };
}
