// `npm run test:container`: builds the sidecar's image (sidecar/Dockerfile) and runs it in Docker through
// e2e/container/ — the token, fetch, extraction, conversion, rendering with Chromium's sandbox, and the
// network policy from inside the container — and reads compose.yaml with compose. Not part of `npm test`:
// it needs Docker (and compose) and takes minutes.
import { spawnSync } from "node:child_process";
import { ensureDeps, runOrExit } from "./ensure-deps.mjs";

const image = process.env.SIDECAR_IMAGE ?? "edge-web-sidecar:test";
const daemon = spawnSync("docker", ["version", "--format", "{{.Server.Version}}"], { encoding: "utf8" });
if (daemon.status !== 0) {
  console.error(
    daemon.error
      ? "npm run test:container needs Docker: install it (on Debian: apt-get install docker.io) and start dockerd."
      : `npm run test:container needs a running Docker daemon: ${daemon.stderr.trim()}`,
  );
  process.exit(2);
}
ensureDeps();
const started = Date.now();
runOrExit("docker", ["build", "-f", "sidecar/Dockerfile", "-t", image, "."]);
console.log(`image ${image} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
runOrExit("vitest", ["run", "--config", "e2e/container/vitest.config.ts", ...process.argv.slice(2)]);
