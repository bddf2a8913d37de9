// `npm start`: the sidecar on SIDECAR_PORT (8788) and the worker under `wrangler dev` on PORT (8787),
// both on 127.0.0.1, both stopped by one Ctrl-C.
import { spawn } from "node:child_process";
import { ensureDeps, projectEnv, root } from "./ensure-deps.mjs";

const node22 = ensureDeps();
if (Number(process.versions.node.split(".")[0]) < 22) {
  // Re-run under the project's Node 22 so the rest can use the shared TypeScript sources.
  const child = spawn(node22, [new URL(import.meta.url).pathname, ...process.argv.slice(2)], { stdio: "inherit", env: projectEnv() });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const { launch } = await import("./launch-stack.ts");
  await launch(root);
}
