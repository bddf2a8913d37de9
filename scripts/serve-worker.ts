import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare, type V4MiniflareOptions, type V4WorkerOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { projectEnv } from "./ensure-deps.mjs";
import { startInspectorProxy, type InspectorProxy } from "./inspector-proxy.ts";

const root = join(import.meta.dirname, "..");

export interface ServedWorker {
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Where KV, R2 and the Durable Objects keep their data (wrangler's layout: `<persistRoot>/v3`). */
  persistRoot: string;
  /** Bindings on top of wrangler.toml's `[vars]`: secrets, SIDECAR_URL, WEB_CONFIG. */
  bindings: Record<string, string>;
  /** Opens the V8 inspector on `host:inspectorPort`, behind a guard (scripts/inspector-proxy.ts). */
  inspectorPort?: number;
}

const wranglerEnv = (configHome: string) =>
  projectEnv({ CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", XDG_CONFIG_HOME: configHome });

/** The worker bundled exactly as `wrangler deploy` would upload it. */
async function bundle(outDir: string): Promise<void> {
  const child = spawn(join(root, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outDir], {
    cwd: root,
    env: wranglerEnv(join(root, ".wrangler", "config")),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`bundling the worker failed:\n${stderr}`);
}

/**
 * The sidecar's socket as the worker's SIDECAR binding (worker/src/sidecar-fetch.ts): Miniflare
 * sends every global fetch through an outbound worker of its own, one more isolate per request.
 * A pool (SIDECAR_URL listing several) is reached by fetch, which picks one per call.
 */
function sidecarBinding(sidecarUrl: string | undefined): { SIDECAR?: { external: { address: string; http: object } } } {
  const url = sidecarUrl === undefined || sidecarUrl.includes(",") ? null : URL.parse(sidecarUrl);
  if (url?.protocol !== "http:") return {};
  return { SIDECAR: { external: { address: url.port ? url.host : `${url.host}:80`, http: {} } } };
}

/**
 * The worker as a deployment runs it: the bundle `wrangler deploy` would upload, served by workerd
 * (Miniflare) with wrangler.toml's bindings, static assets and Durable Objects — one workerd process,
 * without `wrangler dev`'s development proxy and reload machinery in front of every request.
 */
export async function serveWorker(options: ServeOptions): Promise<ServedWorker> {
  const out = mkdtempSync(join(tmpdir(), "edge-web-worker-"));
  const removeBundle = () => {
    process.off("exit", removeBundle);
    rmSync(out, { recursive: true, force: true });
  };
  // Miniflare answers Ctrl-C by exiting at once (its own exit hook), before close() could run.
  process.once("exit", removeBundle);
  try {
    await bundle(out);
    const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, "wrangler.toml"));
    const { assets, ...bindings } = workerOptions as Partial<V4WorkerOptions> & { assets: { directory: string } };
    // A small young generation (4 MB semi-spaces instead of V8's default, which grows to tens of MB
    // under load and stays committed): the worker levels off ~100 MB lower at no measured CPU cost
    // (docs/operations.md, "Worker memory"). An operator's MINIFLARE_WORKERD_V8_FLAGS wins.
    process.env.MINIFLARE_WORKERD_V8_FLAGS ??= "--max-semi-space-size=4";
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        // Miniflare's own entry (a worker that emulates Cloudflare's front: routing, compression,
        // error pages) listens only on loopback, unused: requests reach the worker on its own socket.
        host: "127.0.0.1",
        port: 0,
        // workerd's inspector on a free loopback port, reached only through the guard.
        ...(options.inspectorPort !== undefined && { inspectorPort: 0 }),
        logRequests: false,
        resourcePersistencePath: join(options.persistRoot, "v3"),
        workers: [
          {
            // wrangler.toml's vars, Durable Objects, KV and R2.
            ...bindings,
            name: "edge-web-tools",
            // The bundle has every module already.
            modulesRules: undefined,
            connectHandlers: undefined,
            modules: true,
            modulesRoot: out,
            scriptPath: join(out, "index.js"),
            bindings: { ...(bindings.bindings as Record<string, string>), ...options.bindings },
            serviceBindings: { ASSETS: "edge-web-tools-assets", ...sidecarBinding(options.bindings.SIDECAR_URL) },
            // The worker on the served port directly: the entry worker's hop cost more CPU per request
            // (~0.45 ms) than a bare worker's whole answer.
            unsafeDirectSockets: [{ host: options.host, port: options.port }],
          },
          // The worker is the entry, so API requests take no extra hop through an assets router;
          // the static files are a worker of their own, which the worker asks for paths no route takes.
          { name: "edge-web-tools-assets", compatibilityDate: bindings.compatibilityDate, modules: true, script: "export default {}", assets: { directory: assets.directory, routerConfig: { has_user_worker: false } } },
        ],
      } as V4MiniflareOptions),
    );
    await mf.ready;
    const url = (await mf.unsafeGetDirectURL("edge-web-tools")).origin;
    let inspector: InspectorProxy | undefined;
    if (options.inspectorPort !== undefined) {
      const runtime = new URL(await mf.getInspectorURL());
      inspector = await startInspectorProxy(options.host, options.inspectorPort, { host: runtime.hostname, port: Number(runtime.port) }).catch(async (error) => {
        await mf.dispose();
        throw error;
      });
    }
    return {
      url,
      async close() {
        try {
          await inspector?.close();
          await mf.dispose();
        } finally {
          removeBundle();
        }
      },
    };
  } catch (error) {
    removeBundle();
    throw error;
  }
}
