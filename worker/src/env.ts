import type { SessionObject } from "./session/session-object.ts";

/** The worker's bindings (wrangler.toml) and secrets. */
export interface Env {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  CACHE: KVNamespace;
  ATTACHMENTS: R2Bucket;
  /** Base URL of the sidecar (or the sidecar pool's address). */
  SIDECAR_URL: string;
  /** Bearer token the sidecar requires. */
  SIDECAR_TOKEN?: string;
  /** JSON object merged over the web.* defaults. */
  WEB_CONFIG?: string;
}
