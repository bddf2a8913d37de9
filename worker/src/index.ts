import { createApiHandler } from "./create-api-handler.ts";
import { consumeCrawlQueue } from "./crawl/consume-crawl-queue.ts";
import type { CrawlMessage } from "./crawl/crawl-message.ts";
import type { Env } from "./env.ts";

export { SessionObject } from "./session/session-object.ts";
export { ConfigObject } from "./config/config-object.ts";
export { CrawlObject } from "./crawl/crawl-object.ts";
export { CrawlQuotaObject } from "./crawl/crawl-quota-object.ts";
export { SidecarContainer } from "./sidecar-container.ts";
export { createApiHandler } from "./create-api-handler.ts";
export { tokenAuthResolver } from "./auth/token-auth-resolver.ts";
export type { ApiOptions } from "./app-env.ts";

const handle = createApiHandler();

export default {
  fetch: (request, env, ctx) => handle(request, env, ctx),
  queue: (batch, env) => consumeCrawlQueue(batch, env),
} satisfies ExportedHandler<Env, CrawlMessage>;
