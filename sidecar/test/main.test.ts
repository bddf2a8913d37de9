import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const main = join(import.meta.dirname, "..", "src", "main.ts");

describe("starting the sidecar", () => {
  it.each([[""], ["short"]])("refuses to start with SIDECAR_TOKEN %j", (token) => {
    const run = spawnSync(process.execPath, [main], { env: { ...process.env, SIDECAR_TOKEN: token, SIDECAR_PORT: "0" }, encoding: "utf8", timeout: 10_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/set SIDECAR_TOKEN \(16\+ characters\)/);
  });
});
