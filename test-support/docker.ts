import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs the docker CLI and answers its standard output, trimmed; a failing command throws with its standard error. */
export async function docker(...args: string[]): Promise<string> {
  try {
    return (await run("docker", args, { maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`docker ${args.join(" ")} failed: ${stderr?.trim() || (error as Error).message}`);
  }
}
