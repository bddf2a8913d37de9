import type { Principal } from "./auth/principal.ts";
import type { Env } from "./env.ts";
import type { ApiOptions } from "./api-options.ts";

/** Hono's typing for this app: the worker's bindings and what middleware puts on the context. */
export interface AppEnv {
  Bindings: Env;
  Variables: { principal: Principal; options: ApiOptions };
}
