import { fail, ok, type Result } from "@edge-web/shared";
import type { Env } from "../env.ts";
import type { StoredConfig } from "./config-store.ts";

/** The one ConfigObject. */
export const configStub = (env: Pick<Env, "CONFIG">) => env.CONFIG.get(env.CONFIG.idFromName("config"));

/** One RPC: everything the config API has stored. */
export async function readStoredConfig(env: Pick<Env, "CONFIG">): Promise<Result<StoredConfig>> {
  try {
    return ok((await configStub(env).read()) as StoredConfig);
  } catch (error) {
    console.error("config store read failed", error instanceof Error ? error.message : String(error));
    return fail("INTERNAL_ERROR", "The stored configuration could not be read; try again.");
  }
}
