// Runs on whatever Node started npm (the machine may have 20): installs dependencies when
// node_modules is missing or was installed from another lock file, then answers the path of Node 22.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stampFile = join(root, "node_modules", ".install-stamp");
const node22 = join(root, "node_modules", ".bin", "node");

function manifestHash() {
  const hash = createHash("sha256");
  // The lock file pins every workspace's dependencies; `npm ci` refuses one out of step with them.
  const lock = join(root, "package-lock.json");
  return hash.update(existsSync(lock) ? readFileSync(lock) : "").digest("hex");
}

export function ensureDeps() {
  const wanted = manifestHash();
  const current = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : "";
  if (current !== wanted || !existsSync(node22)) {
    console.error("Installing dependencies (npm ci)…");
    const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) {
      console.error("npm ci failed; see the output above.");
      process.exit(result.status ?? 1);
    }
    writeFileSync(stampFile, `${wanted}\n`);
  }
  return node22;
}

/** An environment whose PATH puts the project's binaries (Node 22 first) ahead of the system's. */
export function projectEnv(extra = {}) {
  const bin = join(root, "node_modules", ".bin");
  return { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}`, ...extra };
}

/** Runs a project binary (or Node) in the project's environment, waiting; a failure ends this process with its status. */
export function runOrExit(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: projectEnv() });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
