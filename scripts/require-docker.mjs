// What needs Docker (npm run test:container, npm start -- --container, npm run bench:scale) says so and exits 2 without it.
import { spawnSync } from "node:child_process";

/** Exits 2 with a message naming `command` when Docker is not installed or its daemon does not answer; `otherwise` may say what works without it. */
export function requireDocker(command, otherwise = "") {
  const daemon = spawnSync("docker", ["version", "--format", "{{.Server.Version}}"], { encoding: "utf8" });
  if (daemon.status === 0) return;
  console.error(
    daemon.error
      ? `${command} needs Docker, which is not installed (on Debian: apt-get install docker.io)${otherwise}.`
      : `${command} needs a running Docker daemon (start dockerd): ${daemon.stderr.trim()}`,
  );
  process.exit(2);
}
