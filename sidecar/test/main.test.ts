import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
