import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort } from "./free-port.ts";
import { descendants } from "./process-stats.ts";
import { waitFor } from "./wait-for.ts";

const root = join(import.meta.dirname, "..");

export interface Stack {
  url: string;
  /** Everything the stack printed, for diagnosing a failed start. */
  output: string[];
  /** The stack's two serving processes: workerd running the worker and its objects, and the sidecar. */
  pids(): { worker: number; sidecar: number };
  /** One JSON request to the API, answering its status and parsed body. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** Starts `npm start`'s stack (scripts/start.mjs) on free ports and waits for /healthz. */
export async function startStack(env: Record<string, string>): Promise<Stack> {
  const port = await freePort();
  const sidecarPort = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [join(root, "scripts", "start.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), SIDECAR_PORT: String(sidecarPort), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    // Already stopped, by a call before this one or by a signal.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };

  const healthy = async () => {
    if (child.exitCode !== null) throw new Error("the stack exited early");
    return (await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200;
  };
  try {
    await waitFor(healthy, "the stack to become healthy", { timeoutMs: 60_000, intervalMs: 250 });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}:\n${output.join("")}`);
  }
  const pids = () => {
    const all = descendants(child.pid!);
    const worker = all.find((p) => /\/workerd serve /.test(p.command))?.pid;
    const sidecar = all.find((p) => p.command.includes("sidecar/src/main.ts"))?.pid;
    if (!worker || !sidecar) throw new Error("the stack's workerd or sidecar process is not running");
    return { worker, sidecar };
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { "content-type": "application/json" }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { url, output, pids, api, stop };
}
