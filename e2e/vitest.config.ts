import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { name: "e2e", include: ["*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 180_000 },
});
