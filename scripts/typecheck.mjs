// `npm run typecheck`: installs when needed, typechecks every package and checks that imports go one way.
import { spawnSync } from "node:child_process";
import { ensureDeps, projectEnv, root } from "./ensure-deps.mjs";

ensureDeps();
const env = projectEnv();
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
for (const project of ["shared", "sidecar", "worker", "worker/tsconfig.node.json", "test-support", "e2e", "bench", "scripts"]) run("tsc", ["-p", project]);
// Imports go one way between files and folders of each package.
for (const dir of ["worker/src", "sidecar/src", "shared/src"]) run(process.execPath, ["scripts/check-imports.mjs", dir]);
