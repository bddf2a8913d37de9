import { createApiHandler } from "./create-api-handler.ts";
import type { Env } from "./env.ts";

export { SessionObject } from "./session/session-object.ts";
export { ConfigObject } from "./config/config-object.ts";
export { createApiHandler } from "./create-api-handler.ts";
export { tokenAuthResolver } from "./auth/token-auth-resolver.ts";
export type { ApiOptions } from "./app-env.ts";

const handle = createApiHandler();

export default {
  fetch: (request, env, ctx) => handle(request, env, ctx),
} satisfies ExportedHandler<Env>;
