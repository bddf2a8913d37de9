// `node scripts/run.mjs CMD ARGS…`: runs a project binary under Node 22 after making sure it is installed.
import { spawn } from "node:child_process";
import { ensureDeps, projectEnv, root } from "./ensure-deps.mjs";

ensureDeps();
const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { cwd: root, stdio: "inherit", env: projectEnv() });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
