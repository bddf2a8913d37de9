import { createApp } from "./app.ts";
import type { Env } from "./env.ts";

export { SessionObject } from "./session/session-object.ts";

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
