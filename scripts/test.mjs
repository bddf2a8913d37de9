// `npm test`: installs when needed, typechecks every package (scripts/typecheck.mjs), then runs every test project.
import { runOrExit } from "./ensure-deps.mjs";

runOrExit(process.execPath, ["scripts/typecheck.mjs"]);
runOrExit("vitest", ["run", ...process.argv.slice(2)]);
