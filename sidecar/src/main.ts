import { createSidecarDeps, settingsFromEnv } from "./sidecar-deps.ts";
import { createSidecarServer, listen } from "./server.ts";

const token = process.env.SIDECAR_TOKEN ?? "";
if (token.length < 16) {
  console.error("sidecar: set SIDECAR_TOKEN (16+ characters); the worker sends it as a bearer token.");
  process.exit(2);
}
const host = process.env.SIDECAR_HOST ?? "127.0.0.1";
const port = Number(process.env.SIDECAR_PORT ?? "8788");

const deps = createSidecarDeps(settingsFromEnv(process.env));
const server = createSidecarServer({ token, deps });
const address = await listen(server, port, host);
console.log(`sidecar listening on http://${address.address}:${address.port}`);
deps.converter.warm();

const stop = () => {
  server.close();
  server.closeAllConnections();
  void Promise.all([deps.dispatchers.close(), deps.converter.close()]).finally(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
