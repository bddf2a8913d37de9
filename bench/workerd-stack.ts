import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { createSidecarDeps, settingsFromEnv } from "../sidecar/src/sidecar-deps.ts";
import { createSidecarServer, listen } from "../sidecar/src/server.ts";

const root = join(import.meta.dirname, "..");

/**
 * The same worker bundle and sidecar as `npm start`, with the worker served by workerd directly
 * (Miniflare) instead of through `wrangler dev`'s development proxy, which adds a few milliseconds
 * to every request. It shows what the service itself costs per request, as it would deployed.
 */
export async function startWorkerdStack(webConfig: object): Promise<{ url: string; close(): Promise<void> }> {
  const out = mkdtempSync(join(tmpdir(), "edge-web-bundle-"));
  const built = spawnSync(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", out], {
    cwd: root,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: join(out, "config") },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`bundling the worker failed:\n${built.stderr}`);

  const token = randomBytes(24).toString("base64url");
  const deps = createSidecarDeps(settingsFromEnv({}));
  const sidecar = createSidecarServer({ token, deps });
  const { port } = await listen(sidecar, 0, "127.0.0.1");
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
      bindings: { SIDECAR_URL: `http://127.0.0.1:${port}`, SIDECAR_TOKEN: token, WEB_CONFIG: JSON.stringify(webConfig) },
    }),
  );
  const url = (await mf.ready).origin;
  return {
    url,
    async close() {
      await mf.dispose();
      sidecar.closeAllConnections();
      sidecar.close();
      await deps.dispatchers.close();
      rmSync(out, { recursive: true, force: true });
    },
  };
}
