import { env } from "cloudflare:workers";
import { createApp } from "../src/app.ts";
import type { Env } from "../src/env.ts";

const app = createApp();

/** Calls the worker's app in workerd with the test bindings, optionally overriding some. */
export async function call(method: string, path: string, body?: unknown, overrides: Partial<Env> = {}, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { "content-type": "application/json", ...headers } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const response = await app.request(path, init, { ...(env as unknown as Env), ...overrides });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Opens a session's SSE stream; answers the raw response. */
export async function openStream(sessionId: string, headers: Record<string, string> = {}, overrides: Partial<Env> = {}) {
  return app.request(`/api/sessions/${sessionId}/stream`, { headers }, { ...(env as unknown as Env), ...overrides });
}

export async function newSession(overrides: Partial<Env> = {}): Promise<string> {
  const created = await call("POST", "/api/sessions", { source: "test" }, overrides);
  return created.body.sessionId as string;
}

export const tool = (sessionId: string, name: string, params: unknown, overrides: Partial<Env> = {}) =>
  call("POST", `/api/sessions/${sessionId}/tools/${name}`, params, overrides);

export const withConfig = (config: object): Partial<Env> => ({ WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], timeoutMs: 2_000, ...config }) });
