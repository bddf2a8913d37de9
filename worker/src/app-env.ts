import type { Hono } from "hono";
import type { AuthResolver } from "./auth/token-auth-resolver.ts";
import type { Principal } from "./auth/principal.ts";
import type { Env } from "./env.ts";
import type { SessionRecord } from "./session/session-record.ts";

/** The seams of the API factory; every one has a working default. */
export interface ApiOptions {
  /** Who is calling; null refuses with 401. Default: bearer tokens from API_TOKENS / ADMIN_TOKEN. */
  authResolver: AuthResolver;
  /** Whether a principal may use a session. Default: only the principal that created it. */
  authorizeSession: (principal: Principal, session: SessionRecord) => boolean | Promise<boolean>;
  /** Extra routes, mounted at the base path; built-in routes win on conflicts. */
  routes: Array<Hono<AppEnv>>;
  sse: { heartbeatMs: number };
  /** Prefix of every route ("" for none); the built-in layout is /api/… under it. */
  basePath: string;
}

/** Hono's typing for this app: the worker's bindings and what middleware puts on the context. */
export interface AppEnv {
  Bindings: Env;
  /** `received`: when the request arrived (epoch ms), for web.debug "trace". */
  Variables: { principal: Principal; options: ApiOptions; received: number };
}
