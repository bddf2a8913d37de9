import { randomBytes } from "node:crypto";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { freePort } from "../test-support/free-port.ts";

// The sidecar starts in globalSetup (Node); the worker under test learns its address from bindings.
const sidecarPort = await freePort();
const sidecarToken = randomBytes(24).toString("base64url");
process.env.TEST_SIDECAR_PORT = String(sidecarPort);
process.env.TEST_SIDECAR_TOKEN = sidecarToken;

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "../wrangler.toml" },
      miniflare: {
        bindings: {
          SIDECAR_URL: `http://127.0.0.1:${sidecarPort}`,
          SIDECAR_TOKEN: sidecarToken,
          WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], timeoutMs: 2_000 }),
          // Small stream buffers, so replay gaps and slow consumers show within a few calls.
          SSE_REPLAY_FRAMES: "40",
          SSE_MAX_PENDING_FRAMES: "24",
          // Short, so the idle test can wait it out, yet longer than any pause between one test's
          // requests on a loaded machine (at 1.5 s, a session ended between two turns of a test).
          SESSION_IDLE_MS: "5000",
        },
        // The sidecar's socket as a service binding, as `npm start` gives it (scripts/serve-worker.ts), under
        // a name of its own: the tests reach the sidecar both ways.
        serviceBindings: { SIDECAR_SOCKET: { external: { address: `127.0.0.1:${sidecarPort}`, http: {} } } },
      },
    }),
  ],
  test: { name: "worker", include: ["test/**/*.test.ts"], globalSetup: ["test/global-setup.ts"], testTimeout: 20_000 },
});
