import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compose } from "./compose.ts";

/** compose.yaml as compose itself reads it (`compose config`): what `docker compose up` would run. */
describe("compose.yaml", () => {
  it("runs the worker against the sidecar, with the sandbox's seccomp profile, state on a volume and settings from the environment", async () => {
    const config = parse(await compose({ SIDECAR_TOKEN: "compose-check-token-0123", API_TOKENS: "t1,t2" }, "config")) as any;
    const { sidecar, worker } = config.services;
    expect(sidecar.build.dockerfile).toBe("sidecar/Dockerfile");
    expect(sidecar.security_opt.join(" ")).toMatch(/seccomp[=:].*seccomp\.json/);
    expect(sidecar.ports).toBeUndefined();
    expect(sidecar.environment.SIDECAR_TOKEN).toBe("compose-check-token-0123");
    expect(worker.build.dockerfile).toBe("worker/Dockerfile");
    expect(worker.environment).toMatchObject({ SIDECAR_URL: "http://sidecar:8788", SIDECAR_TOKEN: "compose-check-token-0123", API_TOKENS: "t1,t2" });
    expect(worker.depends_on.sidecar.condition).toBe("service_healthy");
    expect(JSON.stringify(worker.ports)).toContain("127.0.0.1");
    expect(JSON.stringify(worker.volumes)).toContain("/state");
    expect(Object.keys(config.volumes)).toContain("state");
  });

  it("refuses to run without SIDECAR_TOKEN", async () => {
    await expect(compose({ SIDECAR_TOKEN: "" }, "config")).rejects.toThrow(/SIDECAR_TOKEN/);
  });
});
