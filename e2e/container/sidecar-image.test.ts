import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONVERT_REQUEST_HEADER, DEFAULT_WEB_CONFIG } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPdf } from "../../sidecar/test/support/document-fixtures.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { docker } from "../../test-support/docker.ts";

/**
 * The sidecar's image (sidecar/Dockerfile) run as an operator runs it: unprivileged, with the seccomp
 * profile that keeps Chromium's sandbox (sidecar/seccomp.json), on an internal Docker network this
 * test makes, whose only other member is the origin container the sidecar fetches from. The test
 * reaches both containers at their addresses on that network, nothing else.
 */
const IMAGE = process.env.SIDECAR_IMAGE ?? "edge-web-sidecar:test";
const TOKEN = randomBytes(24).toString("base64url");
const suffix = randomBytes(4).toString("hex");
const network = `ewt-test-${suffix}`;
const sidecarName = `ewt-sidecar-${suffix}`;
const originName = `ewt-origin-${suffix}`;
const files = mkdtempSync(join(tmpdir(), "ewt-origin-"));

let base: string;
let originHost: string;
let sidecarIp: string;
let gateway: string;

const ORIGIN_SERVER = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const types = { html: "text/html; charset=utf-8", pdf: "application/pdf" };
// /slow is answered only when /release is asked; /held says how many wait.
const held = [];
createServer((req, res) => {
  const name = new URL(req.url, "http://origin").pathname.slice(1);
  if (name === "slow") return void held.push(res);
  if (name === "held") return void res.end(String(held.length));
  if (name === "release") {
    for (const waiting of held.splice(0)) waiting.writeHead(200, { "content-type": "text/plain" }).end("Answered after the signal.");
    return void res.end();
  }
  try {
    const body = readFileSync("/srv/" + name.replace(/[^a-z.-]/g, ""));
    res.writeHead(200, { "content-type": types[name.split(".").pop()] ?? "text/plain" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}).listen(8080, "0.0.0.0");
`;
const ARTICLE = `<!doctype html><html><head><title>Lighthouses of the north</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Lighthouses of the north</h1>${"<p>The keepers logged every ship that passed the headland, and the logs survive in the harbour archive.</p>".repeat(6)}</article>
<footer>Footer links</footer></body></html>`;
const BUILT = `<!doctype html><html><head><title>Built</title></head><body><main id="app"></main>
<script>document.getElementById("app").innerHTML = "<h1>Assembled by script</h1>" + "<p>This paragraph exists only once the page's script has run in a browser.</p>".repeat(5);</script></body></html>`;

const auth = () => ({ authorization: `Bearer ${TOKEN}` });
const post = async (path: string, body: object) =>
  (await (await fetch(`${base}${path}`, { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as any;
const options = () => ({ allowHosts: [originHost] });
const address = async (container: string, field: "IPAddress" | "Gateway") => docker("inspect", "-f", `{{(index .NetworkSettings.Networks "${network}").${field}}}`, container);

beforeAll(async () => {
  await docker("version", "--format", "{{.Server.Version}}");
  writeFileSync(join(files, "origin.mjs"), ORIGIN_SERVER);
  writeFileSync(join(files, "article.html"), ARTICLE);
  writeFileSync(join(files, "built.html"), BUILT);
  writeFileSync(join(files, "report.pdf"), await buildPdf({ pages: [{ heading: "Quarterly report", paragraphs: ["Tonnage through the harbour rose by a tenth."] }] }));
  // The containers run as an unprivileged user.
  chmodSync(files, 0o755);

  await docker("network", "create", "--internal", network);
  await docker("run", "-d", "--name", originName, "--network", network, "-v", `${files}:/srv:ro`, IMAGE, "node", "/srv/origin.mjs");
  await docker(
    "run", "-d", "--name", sidecarName, "--network", network,
    "--security-opt", `seccomp=${join(import.meta.dirname, "..", "..", "sidecar", "seccomp.json")}`,
    // The image's own health check, asked more often than its 15 s so the test need not wait as long.
    "--health-interval", "2s",
    "-e", `SIDECAR_TOKEN=${TOKEN}`,
    IMAGE,
  );
  originHost = await address(originName, "IPAddress");
  sidecarIp = await address(sidecarName, "IPAddress");
  gateway = await address(sidecarName, "Gateway");
  base = `http://${sidecarIp}:8788`;
  await waitFor(async () => (await docker("inspect", "-f", "{{.State.Health.Status}}", sidecarName)) === "healthy", "the sidecar container's health check", { timeoutMs: 90_000, intervalMs: 500 });
});

afterAll(async () => {
  if (process.env.KEEP_CONTAINERS) return;
  await docker("rm", "-f", sidecarName, originName).catch(() => {});
  await docker("network", "rm", network).catch(() => {});
  rmSync(files, { recursive: true, force: true });
});

describe("the sidecar's image", () => {
  it("runs as an unprivileged user, with no token built in", async () => {
    expect(await docker("exec", sidecarName, "id", "-u")).not.toBe("0");
    const env = await docker("image", "inspect", "-f", "{{json .Config.Env}}", IMAGE);
    expect(env).not.toMatch(/TOKEN|API_KEY/);
  });

  it("answers only with the token, /healthz included", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(401);
    expect((await fetch(`${base}/healthz`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
    const health = await fetch(`${base}/healthz`, { headers: auth() });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
  });

  it("fetches a page from another container and extracts its article", async () => {
    const answer = await post("/v1/fetch", { url: `http://${originHost}:8080/article.html`, render: "never", options: options() });
    expect(answer.ok).toBe(true);
    expect(answer.value.title).toBe("Lighthouses of the north");
    expect(answer.value.content).toContain("The keepers logged every ship");
    expect(answer.value.content).not.toContain("Footer links");
  });

  it("converts a PDF, by URL and as bytes", async () => {
    const byUrl = await post("/v1/convert", { url: `http://${originHost}:8080/report.pdf`, options: options(), limits: DEFAULT_WEB_CONFIG.convert });
    expect(byUrl.ok).toBe(true);
    expect(byUrl.value.content).toContain("Tonnage through the harbour rose by a tenth.");
    const bytes = await buildPdf({ pages: [{ heading: "Uploaded", paragraphs: ["Bytes sent straight to the converter."] }] });
    const header = encodeURIComponent(JSON.stringify({ source: "attachment:test", fileName: "upload.pdf", limits: DEFAULT_WEB_CONFIG.convert }));
    const byBytes = (await (await fetch(`${base}/v1/convert-file`, { method: "POST", headers: { ...auth(), "content-type": "application/octet-stream", [CONVERT_REQUEST_HEADER]: header }, body: bytes })).json()) as any;
    expect(byBytes.ok).toBe(true);
    expect(byBytes.value.content).toContain("Bytes sent straight to the converter.");
  });

  it("renders a page its script builds, in Chromium with its sandbox on", async () => {
    // The first page starts the browser, which takes seconds on a loaded machine.
    const answer = await post("/v1/fetch", { url: `http://${originHost}:8080/built.html`, render: "always", options: { ...options(), timeoutMs: 60_000 }, budgetMs: 60_000 });
    expect(answer).toMatchObject({ ok: true });
    expect(answer.value.content).toContain("Assembled by script");
    expect(answer.value.content).toContain("only once the page's script has run");
    // Each process's user namespace and command line: the sandboxed ones live in namespaces of their own.
    const listing = await docker("exec", sidecarName, "sh", "-c", 'for p in /proc/[0-9]*; do echo "$(readlink $p/ns/user) $(tr "\\0" " " < $p/cmdline)"; done 2>/dev/null');
    const processes = listing.split("\n").map((line) => ({ ns: line.slice(0, line.indexOf(" ")), cmd: line.slice(line.indexOf(" ") + 1) }));
    const outer = processes.find((p) => p.cmd.startsWith("/usr/bin/tini"))!.ns;
    const chromium = processes.filter((p) => p.cmd.includes("chromium"));
    expect(chromium.length).toBeGreaterThan(0);
    expect(chromium.some((p) => p.cmd.includes("--no-sandbox"))).toBe(false);
    // The sandboxed zygote, which every renderer is forked from, is in a user namespace of its own.
    const zygotes = chromium.filter((p) => p.cmd.includes("--type=zygote") && !p.cmd.includes("--no-zygote-sandbox"));
    expect(zygotes.length).toBeGreaterThan(0);
    expect(zygotes.every((p) => p.ns !== outer)).toBe(true);
  });

  it("refuses the host (the network's gateway), its own addresses, link-local metadata and every private range", async () => {
    const targets = [gateway, sidecarIp, "127.0.0.1", "169.254.169.254", "10.0.0.1", "172.16.0.1", "192.168.0.1", "100.64.0.1", "[::1]", "[fd00::1]", "[fe80::1]"];
    for (const target of targets) {
      const url = `http://${target}:8788/healthz`;
      const answer = await post("/v1/fetch", { url, render: "never", options: options() });
      // fetch_content's code for a refused address; the network policy named as the cause.
      expect({ url, answer: answer.ok ? "fetched" : [answer.error.code, answer.error.details?.fault, /private or local address/.test(answer.error.message)] }).toEqual({ url, answer: ["CONTENT_FETCH_FAILED", "policy", true] });
    }
    // A document by URL goes through the same policy.
    const converted = await post("/v1/convert", { url: `http://${gateway}:8788/x.pdf`, options: options(), limits: DEFAULT_WEB_CONFIG.convert });
    expect(converted.error.code).toBe("PRIVATE_NETWORK_BLOCKED");
  });

  // Last: it stops the sidecar.
  it("on SIGTERM refuses new connections, finishes the calls in flight, then exits 0", async () => {
    const originUrl = `http://${originHost}:8080`;
    const answer = post("/v1/fetch", { url: `${originUrl}/slow`, render: "never", options: options() });
    await waitFor(async () => (await (await fetch(`${originUrl}/held`)).text()) === "1", "the sidecar's request to the origin");
    await docker("kill", "--signal", "TERM", sidecarName);
    await waitFor(() => fetch(`${base}/healthz`, { headers: auth() }).then(() => false, () => true), "new connections to be refused");
    expect(await docker("inspect", "-f", "{{.State.Running}}", sidecarName)).toBe("true");
    await fetch(`${originUrl}/release`);
    expect(await answer).toMatchObject({ ok: true, value: { content: expect.stringContaining("Answered after the signal.") } });
    await waitFor(async () => (await docker("inspect", "-f", "{{.State.Status}}", sidecarName)) === "exited", "the container to exit", { timeoutMs: 15_000, intervalMs: 200 });
    expect(await docker("inspect", "-f", "{{.State.ExitCode}}", sidecarName)).toBe("0");
  });
});
