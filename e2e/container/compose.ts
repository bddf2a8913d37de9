import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const file = join(import.meta.dirname, "..", "..", "compose.yaml");

/**
 * Runs compose on the repository's compose.yaml with `env` added to the environment: Docker's compose plugin
 * (`docker compose`) where it is installed, else Debian's `docker-compose`. Answers standard output.
 */
export async function compose(env: Record<string, string>, ...args: string[]): Promise<string> {
  const plugin = await run("docker", ["compose", "version"]).then(() => true, () => false);
  const [command, first] = plugin ? ["docker", ["compose"]] : ["docker-compose", []];
  try {
    return (await run(command, [...first, "-f", file, ...args], { env: { ...process.env, ...env } })).stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${command} ${[...first, ...args].join(" ")} failed: ${stderr?.trim() || (error as Error).message}`);
  }
}
