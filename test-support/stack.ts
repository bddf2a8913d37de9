import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "./free-port.ts";

const root = join(import.meta.dirname, "..");

export interface Stack {
  url: string;
  /** Everything the stack printed, for diagnosing a failed start. */
  output: string[];
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
    if (child.exitCode !== null) return;
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

  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the stack exited early:\n${output.join("")}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return { url, output, stop };
    } catch {}
    await sleep(250);
  }
  await stop();
  throw new Error(`the stack did not become healthy:\n${output.join("")}`);
}
