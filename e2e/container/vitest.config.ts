import { defineConfig } from "vitest/config";

/** The sidecar's image, built and run in Docker: `npm run test:container` (scripts/test-container.mjs), never part of `npm test`. */
export default defineConfig({
  test: { name: "container", root: import.meta.dirname, include: ["*.test.ts"], environment: "node", testTimeout: 120_000, hookTimeout: 300_000 },
});
