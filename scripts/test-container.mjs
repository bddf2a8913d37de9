// `npm run test:container`: builds the sidecar's image (sidecar/Dockerfile) and runs it in Docker through
// e2e/container/ — the token, fetch, extraction, conversion, rendering with Chromium's sandbox, and the
// network policy from inside the container — and reads compose.yaml with compose. Not part of `npm test`:
// it needs Docker (and compose) and takes minutes.
import { ensureDeps, runOrExit } from "./ensure-deps.mjs";
import { requireDocker } from "./require-docker.mjs";

const image = process.env.SIDECAR_IMAGE ?? "edge-web-sidecar:test";
requireDocker("npm run test:container");
ensureDeps();
const started = Date.now();
runOrExit("docker", ["build", "-f", "sidecar/Dockerfile", "-t", image, "."]);
console.log(`image ${image} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
runOrExit("vitest", ["run", "--config", "e2e/container/vitest.config.ts", ...process.argv.slice(2)]);
