/** The test projects; vitest.config.ts imports this list (vitest 4+ reads only test.projects). */
export default [
  "shared/vitest.config.ts",
  "sidecar/vitest.config.ts",
  "worker/vitest.config.ts",
  "e2e/vitest.config.ts",
];
