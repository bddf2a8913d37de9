import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { freePort } from "../test-support/free-port.ts";

const root = join(import.meta.dirname, "..");

/**
 * The same worker bundle and sidecar as `npm start`, with the worker served by workerd directly
 * (Miniflare) instead of through `wrangler dev`'s development proxy, which adds a few milliseconds
 * to every request. It shows what the service itself costs per request, as it would deployed. The
 * sidecar runs in a process of its own, as it does deployed.
 */
export async function startWorkerdStack(webConfig: object, agentConfig: object = {}): Promise<{ url: string; close(): Promise<void> }> {
  const out = mkdtempSync(join(tmpdir(), "edge-web-bundle-"));
  const built = spawnSync(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", out], {
    cwd: root,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(out, "config") },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`bundling the worker failed:\n${built.stderr}`);

  const token = randomBytes(24).toString("base64url");
  const port = await freePort();
  const sidecar = spawn(process.execPath, [join(root, "sidecar", "src", "main.ts")], {
    env: { ...process.env, SIDECAR_TOKEN: token, SIDECAR_PORT: String(port), SIDECAR_HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  for (let ready = false; !ready; ) {
    if (sidecar.exitCode !== null) throw new Error("the sidecar exited at start");
    ready = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.ok, () => false);
    if (!ready) await sleep(100);
  }
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      modules: true,
      modulesRoot: out,
      scriptPath: join(out, "index.js"),
      compatibilityDate: "2026-11-01",
      compatibilityFlags: ["nodejs_compat"],
      durableObjects: { SESSIONS: { className: "SessionObject", useSQLite: true }, CONFIG: { className: "ConfigObject", useSQLite: true } },
      kvNamespaces: ["CACHE"],
      r2Buckets: ["ATTACHMENTS"],
      bindings: { SIDECAR_URL: `http://127.0.0.1:${port}`, SIDECAR_TOKEN: token, WEB_CONFIG: JSON.stringify(webConfig), AGENT_CONFIG: JSON.stringify(agentConfig) },
    }),
  );
  const url = (await mf.ready).origin;
  return {
    url,
    async close() {
      await mf.dispose();
      const exited = new Promise((resolve) => sidecar.once("exit", resolve));
      sidecar.kill("SIGTERM");
      await exited;
      rmSync(out, { recursive: true, force: true });
    },
  };
}
