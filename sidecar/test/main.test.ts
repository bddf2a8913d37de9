import { spawn, spawnSync } from "node:child_process";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { routes, startOrigin } from "../../test-support/origin.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { settingsFromEnv } from "../src/sidecar-deps.ts";

const main = join(import.meta.dirname, "..", "src", "main.ts");

describe("starting the sidecar", () => {
  it.each([[""], ["short"]])("refuses to start with SIDECAR_TOKEN %j", (token) => {
    const run = spawnSync(process.execPath, [main], { env: { ...process.env, SIDECAR_TOKEN: token, SIDECAR_PORT: "0" }, encoding: "utf8", timeout: 10_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/set SIDECAR_TOKEN \(16\+ characters\)/);
  });
});

describe("the test-only certificate trust", () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, [main], { env: { ...process.env, SIDECAR_TOKEN: "main-test-token-0123456789", SIDECAR_PORT: "0", SIDECAR_TEST_MODE: "", ...env }, encoding: "utf8", timeout: 10_000 });
  const hash = Buffer.alloc(32, 7).toString("base64");

  it("is refused without SIDECAR_TEST_MODE=1: the sidecar does not start", () => {
    for (const mode of ["", "0", "true"]) {
      const run = start({ SIDECAR_TEST_TRUST_SPKI: hash, SIDECAR_TEST_MODE: mode });
      expect(run.status, mode).toBe(2);
      expect(run.stderr).toMatch(/SIDECAR_TEST_TRUST_SPKI .*needs SIDECAR_TEST_MODE=1/);
    }
  });

  it("takes base64 SHA-256 hashes only, even in test mode", () => {
    const run = start({ SIDECAR_TEST_TRUST_SPKI: `${hash},not-a-hash`, SIDECAR_TEST_MODE: "1" });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/these are not: not-a-hash/);
  });
});

describe("the sidecar's settings", () => {
  const hash = Buffer.alloc(32, 7).toString("base64");

  it("carry the test-only trust under SIDECAR_TEST_MODE=1 and never without it", () => {
    expect(settingsFromEnv({ SIDECAR_TEST_TRUST_SPKI: hash, SIDECAR_TEST_MODE: "1" }).render.trustedTestSpki).toEqual([hash]);
    expect(settingsFromEnv({ SIDECAR_TEST_TRUST_SPKI: hash }).render.trustedTestSpki).toBeUndefined();
    expect(settingsFromEnv({}).render.trustedTestSpki).toBeUndefined();
  });
});

describe("stopping the sidecar", () => {
  it("on SIGTERM takes no new connections, finishes the calls in flight, then exits", async () => {
    let held: ServerResponse | undefined;
    const origin = await startOrigin("127.0.0.2", routes({ "/slow": (_req, res) => (held = res) }));
    const token = "main-test-token-0123456789";
    const child = spawn(process.execPath, [main], { env: { ...process.env, SIDECAR_TOKEN: token, SIDECAR_PORT: "0", SIDECAR_HOST: "127.0.0.1", SIDECAR_TEST_MODE: "" }, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const base = (await waitFor(() => /listening on (http:\/\/\S+)/.exec(out)?.[1], "the sidecar to listen", { timeoutMs: 30_000 })).replace(/\/$/, "");
      const answer = fetch(`${base}/v1/fetch`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ url: `${origin.url}/slow`, render: "never", options: { allowHosts: ["127.0.0.2"] } }),
      }).then((r) => r.json() as Promise<any>);
      await waitFor(() => held, "the sidecar's request to the origin");
      child.kill("SIGTERM");
      await waitFor(() => fetch(`${base}/healthz`, { headers: { authorization: `Bearer ${token}` } }).then(() => false, () => true), "new connections to be refused");
      expect(child.exitCode).toBeNull();
      held!.writeHead(200, { "content-type": "text/plain" }).end("Finished after the signal.");
      expect(await answer).toMatchObject({ ok: true, value: { content: expect.stringContaining("Finished after the signal.") } });
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
      await origin.close();
    }
  });
});
