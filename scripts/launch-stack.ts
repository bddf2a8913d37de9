import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentConfigSchema, resolveConfig, sidecarUrls, summarizeIssues, WebConfigSchema } from "@edge-web/shared";
import * as v from "valibot";
import { SIDECAR_MALLOC_ENV } from "../sidecar/src/sidecar-malloc-env.ts";
import { projectEnv } from "./ensure-deps.mjs";
import { requireDocker } from "./require-docker.mjs";
import { serveWorker, type ServedWorker } from "./serve-worker.ts";

/** The sidecar's settings passed to its container from the environment (a process sidecar inherits the whole environment). */
const SIDECAR_PASSED = ["JINA_API_KEY", "JINA_BASE_URL", "SIDECAR_DNS_SERVERS", "SIDECAR_MAX_CONCURRENT", "SIDECAR_MAX_PER_HOST", "SIDECAR_MAX_QUEUE", "SIDECAR_RENDER_CONCURRENCY", "SIDECAR_CONVERT_THREADS"];

/** Worker secrets passed through from the environment (AGENT_CONFIG may hold model keys). */
const PASSED_SECRETS = ["BRAVE_SEARCH_API_KEY", "TAVILY_API_KEY", "SERPER_API_KEY", "OPENSERP_API_KEY", "JINA_API_KEY", "API_TOKENS", "ADMIN_TOKEN", "ATTACHMENT_SECRET", "AGENT_CONFIG", "PI_WEB_HIDE_PROVIDERS", "SERVED_HOSTNAMES", "API_CORS_ORIGINS"];

/** The image `npm start -- --container` builds and runs the sidecar from (sidecar/Dockerfile). */
const SIDECAR_IMAGE = "edge-web-sidecar";

/**
 * The worker, and the sidecar as a process of its own (the default), in a container (`--container`),
 * or not at all when SIDECAR_URL names one that runs elsewhere (compose.yaml's sidecar service), or a pool of several.
 */
export async function launch(root: string): Promise<void> {
  // HOST=0.0.0.0 serves every interface (compose.yaml's worker container); the default is loopback only.
  const host = process.env.HOST || "127.0.0.1";
  const port = process.env.PORT ?? "8787";
  const sidecarPort = process.env.SIDECAR_PORT ?? "8788";
  const webConfig = process.env.WEB_CONFIG?.trim() || "{}";
  exitWhenInvalid("WEB_CONFIG", webConfig, (value) => {
    const resolved = resolveConfig(WebConfigSchema, value);
    return resolved.ok ? undefined : resolved.error.message;
  });
  // Never echoing values: AGENT_CONFIG may hold keys.
  if (process.env.AGENT_CONFIG) {
    exitWhenInvalid("AGENT_CONFIG", process.env.AGENT_CONFIG, (value) => {
      const parsed = v.safeParse(AgentConfigSchema, value);
      return parsed.success ? undefined : `check ${summarizeIssues(parsed.issues).fields.join(", ")}`;
    });
  }
  const external = process.env.SIDECAR_URL;
  const inContainer = process.argv.includes("--container");
  const listed = external ? sidecarUrls(external) : undefined;
  if (listed && !listed.ok) {
    console.error(listed.error.message);
    process.exit(2);
  }
  if (external && !process.env.SIDECAR_TOKEN) {
    console.error("SIDECAR_URL names a sidecar of its own: set SIDECAR_TOKEN to the token it was started with.");
    process.exit(2);
  }
  if (inContainer && !external) requireDocker("npm start -- --container", "; plain `npm start` runs the sidecar as a process");
  const token = process.env.SIDECAR_TOKEN || randomBytes(24).toString("base64url");
  const sidecarUrl = external || `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${sidecarPort}`;

  const persistRoot = process.env.PERSIST_DIR ?? join(root, ".wrangler", "state");
  // Secrets reach the worker as bindings of the in-process runtime, never a file or the command line.
  const secrets: Record<string, string> = { SIDECAR_TOKEN: token, ATTACHMENT_SECRET: localAttachmentSecret(persistRoot) };
  for (const name of PASSED_SECRETS) if (process.env[name]) secrets[name] = process.env[name];

  const children: ChildProcess[] = [];
  let worker: ServedWorker | undefined;
  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    setTimeout(() => process.exit(code), 5_000).unref();
    const exits = children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null));
    Promise.all([...exits, worker?.close().catch(() => {})]).then(() => process.exit(code));
  };
  const watch = (name: string, child: ChildProcess) => {
    children.push(child);
    child.on("exit", (code, signal) => {
      if (!stopping) {
        console.error(`${name} stopped (${signal ?? `exit ${code}`}); stopping the rest.`);
        stopAll(code || 1);
      }
    });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(0));

  if (external) {
    // Run elsewhere: nothing to start.
  } else if (inContainer) {
    const built = spawnSync("docker", ["build", "-f", join(root, "sidecar", "Dockerfile"), "-t", SIDECAR_IMAGE, root], { stdio: "inherit" });
    if (built.status !== 0) {
      console.error("building the sidecar's image failed; see the output above.");
      process.exit(1);
    }
    // docker run passes SIGTERM on to the container; the token goes through the environment, never the command line.
    // The seccomp profile keeps Chromium's sandbox (docs/operations.md, "The sidecar's image").
    const args = ["run", "--rm", "--name", `edge-web-sidecar-${sidecarPort}`, "-p", `${host === "0.0.0.0" ? "127.0.0.1" : host}:${sidecarPort}:8788`, "--security-opt", `seccomp=${join(root, "sidecar", "seccomp.json")}`, "-e", "SIDECAR_TOKEN"];
    for (const name of SIDECAR_PASSED) if (process.env[name]) args.push("-e", name);
    watch("sidecar container", spawn("docker", [...args, SIDECAR_IMAGE], { cwd: root, stdio: "inherit", env: { ...process.env, SIDECAR_TOKEN: token } }));
  } else {
    watch(
      "sidecar",
      spawn(process.execPath, [join(root, "sidecar", "src", "main.ts")], {
        cwd: root,
        stdio: "inherit",
        env: projectEnv({ ...SIDECAR_MALLOC_ENV, SIDECAR_TOKEN: token, SIDECAR_PORT: sidecarPort, SIDECAR_HOST: host }),
      }),
    );
  }

  try {
    const inspectorPort = Number(process.env.INSPECTOR_PORT) || undefined;
    worker = await serveWorker({ host, port: Number(port), persistRoot, ...(inspectorPort !== undefined && { inspectorPort }), bindings: { ...secrets, SIDECAR_URL: sidecarUrl, WEB_CONFIG: webConfig } });
  } catch (error) {
    console.error(`the worker did not start: ${(error as Error).message}`);
    return stopAll(1);
  }
  if (stopping) return void worker.close();
  console.log(`API on http://${host}:${port} (sidecar on ${sidecarUrl}${inContainer && !external ? ", in a container" : ""}); Ctrl-C stops ${external ? "it" : "both"}.`);
}

/** Exits with a message when a JSON setting from the environment does not parse or `problem` finds one in it. */
function exitWhenInvalid(name: string, source: string, problem: (value: unknown) => string | undefined): void {
  let value: unknown;
  let found: string | undefined;
  try {
    value = JSON.parse(source);
  } catch {
    found = "not valid JSON";
  }
  found ??= problem(value);
  if (found) {
    console.error(`${name} is invalid: ${found}`);
    process.exit(2);
  }
}

/**
 * Attachment URLs are signed; a secret kept beside the local state keeps them valid across restarts.
 * An ATTACHMENT_SECRET in the environment replaces it (PASSED_SECRETS).
 */
function localAttachmentSecret(stateDir: string): string {
  const file = join(stateDir, "attachment-secret");
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}
