import { createSidecarDeps, settingsFromEnv } from "./sidecar-deps.ts";
import { createSidecarServer, listen } from "./server.ts";
import { SIDECAR_MALLOC_ENV } from "./sidecar-malloc-env.ts";
import { testTrustFromEnv } from "./render/test-trust-from-env.ts";
import { applyV8Flags } from "./v8-flags.ts";

applyV8Flags();

const token = process.env.SIDECAR_TOKEN ?? "";
if (token.length < 16) {
  console.error("sidecar: set SIDECAR_TOKEN (16+ characters); the worker sends it as a bearer token.");
  process.exit(2);
}
// glibc reads its settings at process start only; without them RSS can stay at a conversion's peak.
const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
const missing = Object.entries(SIDECAR_MALLOC_ENV).flatMap(([name, value]) => (process.env[name] === undefined ? [`${name}=${value}`] : []));
if (glibc && missing.length > 0) console.warn(`sidecar: start it with ${missing.join(" ")} so memory a conversion held returns to the system (docs/operations.md).`);
const trust = testTrustFromEnv(process.env);
if (!trust.ok) {
  console.error(`sidecar: ${trust.error.message}`);
  process.exit(2);
}
const host = process.env.SIDECAR_HOST ?? "127.0.0.1";
const port = Number(process.env.SIDECAR_PORT ?? "8788");

const deps = createSidecarDeps(settingsFromEnv(process.env));
const server = createSidecarServer({ token, deps });
const address = await listen(server, port, host);
console.log(`sidecar listening on http://${address.address}:${address.port}`);
deps.converter.warm();

/**
 * How long a stop waits for the calls in flight (a container platform's SIGTERM: a rollout, `docker stop`,
 * compose) before it closes what is left; under Docker's default 10 s grace, and longer than most calls.
 */
const DRAIN_MS = 8_000;
let stopping = false;
const stop = () => {
  // A second signal stops at once.
  if (stopping) process.exit(0);
  stopping = true;
  const finish = () => void Promise.all([deps.renderer.close(), deps.dispatchers.close(), deps.converter.close()]).finally(() => process.exit(0));
  // No new connections; each kept-alive one is closed as soon as it has no call in flight.
  server.close(finish);
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  idle.unref();
  setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
