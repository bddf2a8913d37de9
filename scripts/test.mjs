// `npm test`: installs when needed, typechecks every package (scripts/typecheck.mjs), then runs every test project.
import { spawnSync } from "node:child_process";
import { projectEnv, root } from "./ensure-deps.mjs";

const env = projectEnv();
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(process.execPath, ["scripts/typecheck.mjs"]);
run("vitest", ["run", ...process.argv.slice(2)]);
