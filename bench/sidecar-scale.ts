// `npm run bench:scale`: one worker (`npm start` serving only the worker) in front of 1, 2 and 4 sidecar
// containers from the sidecar's image, each held to one CPU, under the same load of CPU-heavy pages on many
// hosts; one JSON line per count. Needs Docker (not part of `npm run bench` or `npm test`); SIDECAR_IMAGE
// names an image to use instead of building sidecar/Dockerfile. Every container and network it makes is
// removed at the end, also when it fails.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireDocker } from "../scripts/require-docker.mjs";
import { docker } from "../test-support/docker.ts";
import { cpuMs, descendants } from "../test-support/process-stats.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";
import { apiTarget } from "./bench-stack.ts";
import { benchArticle } from "./bench-article.ts";
import { percentiles } from "./percentiles.ts";

const root = join(import.meta.dirname, "..");
const COUNTS = [1, 2, 4];
const CALLS = 400;
const IN_FLIGHT = 32;
/** Sessions the calls share (each runs at most 3 tools at once: web.concurrency.maxConcurrent). */
const SESSIONS = 16;
/** Host names the origin container answers to: the host hash spreads them over the sidecars. */
const HOSTS = 64;
const PAGE_BYTES = 700_000;
/** What each answer carries back: the sidecar still extracts the whole page; the window keeps the bench's own reading small. */
const MAX_CHARS = 4_000;

const suffix = randomBytes(4).toString("hex");
const names = { origins: `ewt-scale-${suffix}-origins`, front: `ewt-scale-${suffix}-front`, origin: `ewt-scale-${suffix}-origin` };
const sidecarName = (i: number) => `ewt-scale-${suffix}-sidecar-${i}`;
const hostName = (i: number) => `site-${i % HOSTS}.scale`;

// Serves the one article for every path, uncacheable, to any of its host names.
const ORIGIN_SERVER = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const page = readFileSync("/srv/article.html");
createServer((req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(page)).listen(8080, "0.0.0.0");
`;

requireDocker("npm run bench:scale");

// The containers read the token from the environment (`-e SIDECAR_TOKEN`), never the command line.
process.env.SIDECAR_TOKEN ||= randomBytes(24).toString("base64url");
const token = process.env.SIDECAR_TOKEN;
const image = process.env.SIDECAR_IMAGE ?? "edge-web-sidecar";
const files = mkdtempSync(join(tmpdir(), "ewt-scale-origin-"));
const started: string[] = [];
/** The worker running now: its process group is its own, so a signal to the bench does not reach it. */
let worker: Stack | undefined;
let interrupted = false;
// A signal stops the worker, so the calls in flight end at once; the run then stops and cleans up as after a failure.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    void worker?.stop();
  });
}
const stopIfInterrupted = () => {
  if (interrupted) throw new Error("interrupted");
};

async function cleanUp(): Promise<void> {
  if (started.length > 0) await docker("rm", "-f", ...started).catch((error) => console.error((error as Error).message));
  for (const network of [names.origins, names.front]) await docker("network", "rm", network).catch(() => {});
  rmSync(files, { recursive: true, force: true });
}

/**
 * N sidecars, each on two networks: the bench's internal one, where the origin is and whose
 * containers cannot reach anything else, and a bridge without masquerading (nothing outside is
 * reachable through it either) that publishes its port on 127.0.0.1 for the worker.
 */
async function startSidecars(count: number): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    stopIfInterrupted();
    const name = sidecarName(i);
    started.push(name);
    await docker(
      "create", "--name", name, "--network", names.front, "-p", "127.0.0.1::8788", "--cpus=1",
      "--security-opt", `seccomp=${join(root, "sidecar", "seccomp.json")}`, "-e", "SIDECAR_TOKEN", image,
    );
    await docker("network", "connect", names.origins, name);
    await docker("start", name);
    urls.push(`http://${await docker("port", name, "8788/tcp")}`);
  }
  for (const url of urls) {
    const healthy = async () => {
      stopIfInterrupted();
      return (await fetch(`${url}/healthz`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined))?.status === 200;
    };
    await waitFor(healthy, `the sidecar at ${url} to answer`, { timeoutMs: 90_000, intervalMs: 250 });
  }
  return urls;
}

async function stopSidecars(count: number): Promise<void> {
  const gone = Array.from({ length: count }, (_, i) => sidecarName(i));
  await docker("rm", "-f", ...gone);
  started.splice(0, started.length, ...started.filter((name) => !gone.includes(name)));
}

/**
 * CPU milliseconds spent so far by the worker (the workerd this bench's stack runs) and by the
 * sidecar containers' processes (each container's process tree, from /proc).
 */
async function cpuSpent(sidecars: number) {
  const workerd = descendants(process.pid).find((p) => /\/workerd serve /.test(p.command));
  if (!workerd) throw new Error("the worker's workerd process is not running");
  let sidecarMs = 0;
  for (let i = 0; i < sidecars; i++) {
    const init = Number(await docker("inspect", "-f", "{{.State.Pid}}", sidecarName(i)));
    for (const pid of [init, ...descendants(init).map((p) => p.pid)]) sidecarMs += cpuMs(pid);
  }
  return { workerMs: cpuMs(workerd.pid), sidecarMs };
}

/** CALLS fetch_content calls, IN_FLIGHT at once over SESSIONS sessions, each of a URL of its own on one of HOSTS hosts. */
async function drive(stack: Stack, sidecars: number) {
  const api = apiTarget(stack.url);
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => api.newSession()));
  const latencies: number[] = [];
  /** Failed calls by code, each with the first one's message. */
  const errors: Record<string, { count: number; message: string }> = {};
  let next = 0;
  const lane = async (index: number) => {
    for (let call = next++; call < CALLS && !interrupted; call = next++) {
      const url = `http://${hostName(call)}:8080/article/${suffix}/${call}`;
      const begun = performance.now();
      const response = await api.post(`/api/sessions/${sessions[index % SESSIONS]}/tools/fetch_content`, { url, maxChars: MAX_CHARS }).catch((error: Error) => error);
      const body = response instanceof Error ? undefined : ((await response.json().catch(() => undefined)) as { results?: Array<{ content?: string }>; error?: { code: string; message: string } } | undefined);
      latencies.push(performance.now() - begun);
      if (response instanceof Error || response.status !== 200 || !body?.results?.[0]?.content) {
        const code = response instanceof Error ? "NO_ANSWER" : (body?.error?.code ?? `HTTP_${response.status}`);
        errors[code] ??= { count: 0, message: response instanceof Error ? response.message : (body?.error?.message ?? "") };
        errors[code].count++;
      }
    }
  };
  const before = await cpuSpent(sidecars);
  const begun = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => lane(i)));
  const ms = performance.now() - begun;
  const after = await cpuSpent(sidecars);
  const spent = { worker: after.workerMs - before.workerMs, sidecars: after.sidecarMs - before.sidecarMs };
  return {
    callsPerSecond: +((CALLS * 1_000) / ms).toFixed(2),
    ...percentiles(latencies),
    errors,
    cpuMsPerCall: { worker: +(spent.worker / CALLS).toFixed(1), sidecars: +(spent.sidecars / CALLS).toFixed(1) },
    // Cores kept busy on average over the run: what each side could use of the machine.
    busyCores: { worker: +(spent.worker / ms).toFixed(2), sidecars: +(spent.sidecars / ms).toFixed(2) },
  };
}

try {
  if (!process.env.SIDECAR_IMAGE) {
    const built = spawnSync("docker", ["build", "-f", join(root, "sidecar", "Dockerfile"), "-t", image, root], { stdio: ["ignore", "ignore", "inherit"] });
    if (built.status !== 0) throw new Error("building the sidecar's image failed; see the output above.");
  }
  writeFileSync(join(files, "origin.mjs"), ORIGIN_SERVER);
  writeFileSync(join(files, "article.html"), benchArticle(PAGE_BYTES, "Scale bench article"));
  // The containers run as an unprivileged user.
  chmodSync(files, 0o755);
  await docker("network", "create", "--internal", names.origins);
  await docker("network", "create", "-o", "com.docker.network.bridge.enable_ip_masquerade=false", names.front);
  const aliases = Array.from({ length: HOSTS }, (_, i) => ["--network-alias", hostName(i)]).flat();
  started.push(names.origin);
  await docker("run", "-d", "--name", names.origin, "--no-healthcheck", "--network", names.origins, ...aliases, "-v", `${files}:/srv:ro`, image, "node", "/srv/origin.mjs");
  // The origin's private addresses are allowed for this bench alone: its internal network, nothing else.
  const subnet = await docker("network", "inspect", "-f", "{{(index .IPAM.Config 0).Subnet}}", names.origins);
  const web = { allowHosts: [subnet], fetchCache: { enabled: false } };
  let baseline: number | undefined;
  for (const count of COUNTS) {
    const urls = await startSidecars(count);
    const persist = mkdtempSync(join(tmpdir(), "ewt-scale-worker-"));
    const stack = await startStack({ SIDECAR_URL: urls.join(","), SIDECAR_TOKEN: token, WEB_CONFIG: JSON.stringify(web), PERSIST_DIR: persist });
    worker = stack;
    try {
      stopIfInterrupted();
      const result = await drive(stack, count);
      stopIfInterrupted();
      baseline ??= result.callsPerSecond;
      console.log(
        JSON.stringify({
          case: `fetch_content of ${PAGE_BYTES / 1000} KB articles on ${HOSTS} hosts, ${CALLS} calls, ${IN_FLIGHT} at once: one worker, ${count} sidecar container(s) of 1 CPU`,
          sidecars: count,
          ...result,
          ratioToOne: +(result.callsPerSecond / baseline).toFixed(2),
        }),
      );
    } finally {
      await stack.stop();
      worker = undefined;
      rmSync(persist, { recursive: true, force: true });
      await stopSidecars(count);
    }
  }
} catch (error) {
  console.error(interrupted ? "bench:scale interrupted; removing its containers and networks." : `bench:scale failed: ${(error as Error).message}`);
  process.exitCode = interrupted ? 130 : 1;
} finally {
  await cleanUp();
}
