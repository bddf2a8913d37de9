import { env as workerEnv } from "cloudflare:workers";
import type { ApiOptions } from "./app-env.ts";
import { createApp } from "./app.ts";
import type { Env } from "./env.ts";

/**
 * The API as a plain fetch handler, for mounting inside another worker. `env` defaults to the
 * running worker's bindings, so `(request) => Promise<Response>` is enough; the host worker must
 * also export SessionObject (and the other Durable Object classes) and bind them as wrangler.toml does.
 */
export function createApiHandler(options: Partial<ApiOptions> = {}) {
  const app = createApp(options);
  return (request: Request, env: Env = workerEnv as unknown as Env, ctx?: ExecutionContext): Promise<Response> =>
    Promise.resolve(app.fetch(request, env, ctx));
}
