// `npm run typecheck`: installs when needed, typechecks every package (the playground's scripts too) and checks that imports go one way.
import { ensureDeps, runOrExit } from "./ensure-deps.mjs";

ensureDeps();
for (const project of ["shared", "sidecar", "worker", "worker/tsconfig.node.json", "worker/tsconfig.public.json", "test-support", "e2e", "bench", "scripts"]) runOrExit("tsc", ["-p", project]);
// Imports go one way between files and folders of each package.
for (const dir of ["worker/src", "sidecar/src", "shared/src"]) runOrExit(process.execPath, ["scripts/check-imports.mjs", dir]);
