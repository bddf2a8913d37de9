import type { Env } from "../env.ts";
import { corsOrigins } from "./cors-origins.ts";
import { servedHostnames } from "./is-served-host.ts";

/**
 * Whether a page of `origin` may call this server (scheme, host and port compared): the origin the
 * request addressed, each SERVED_HOSTNAMES name over http or https on the request's port (a TLS
 * proxy in front serves the https page of a name the worker sees over http), and API_CORS_ORIGINS.
 */
export function isAllowedOrigin(origin: string, requestUrl: string, env: Env): boolean {
  if (!URL.canParse(origin)) return false;
  const page = new URL(origin).origin;
  const addressed = new URL(requestUrl);
  if (page === addressed.origin) return true;
  const port = addressed.port ? `:${addressed.port}` : "";
  const served = servedHostnames(env.SERVED_HOSTNAMES).flatMap((name) => [`http://${name}${port}`, `https://${name}${port}`].map((o) => URL.canParse(o) ? new URL(o).origin : ""));
  if (served.includes(page)) return true;
  const cors = corsOrigins(env.API_CORS_ORIGINS);
  return cors.ok && cors.value.includes(page);
}
