import { APICallError } from "ai";
import { EgressRefusedError } from "../../egress-refused-error.ts";
import { RelayUnavailableError } from "../../relay-unavailable-error.ts";
import { MAX_RETRY_AFTER_MS, ModelTimeoutError, ModelUnreachableError, retryAfterMs } from "./model-fetch.ts";

/** The errors an error and its causes are made of, outermost first. */
function chain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && seen.length < 8; current = (current as { cause?: unknown }).cause) {
    seen.push(current);
  }
  return seen;
}

const named = (error: unknown, ...names: string[]) => error instanceof Error && names.includes(error.name);

/**
 * What a failed model call tells the user: what happened and what to do. Built only from status
 * codes, names and settings — never from the provider's answer, which may echo a key.
 */
export function describeModelError(error: unknown, provider: string, api: string): string {
  const errors = chain(error);
  const timeout = errors.find((e) => e instanceof ModelTimeoutError) as ModelTimeoutError | undefined;
  if (timeout) return `The model sent nothing for ${timeout.timeoutMs} ms (settings.agent.modelTimeoutMs); retry, or raise the limit.`;
  const refused = errors.find((e) => e instanceof EgressRefusedError) as EgressRefusedError | undefined;
  // 502: the relay could not reach the destination (name, connection, redirect), as opposed to a policy refusal.
  if (refused?.status === 502) return `The model provider "${provider}" could not be reached; check auth.modelProviders.${provider}.baseURL. ${refused.message}`;
  const relay = errors.find((e) => e instanceof RelayUnavailableError) ?? refused;
  if (relay) return `The model provider "${provider}" cannot be called: ${relay.message}`;
  const call = errors.find((e) => APICallError.isInstance(e)) as APICallError | undefined;
  const status = call?.statusCode;
  const where = `The model provider "${provider}"`;
  if (status === 401 || status === 403) return `${where} refused the request (HTTP ${status}): check auth.modelProviders.${provider}.apiKey.`;
  if (status === 404) return `${where} answered HTTP 404: check the model id (settings.defaultModel or POST /model) and auth.modelProviders.${provider}.baseURL.`;
  if (status === 429) {
    const wait = retryAfterMs(call?.responseHeaders?.["retry-after"] ?? null);
    const when = wait !== undefined && wait > MAX_RETRY_AFTER_MS ? `retry after ${Math.ceil(wait / 1000)} s` : "retry later";
    return `${where} is rate limiting this service (HTTP 429) after retries; ${when}.`;
  }
  if (status !== undefined && status >= 500) return `${where} is unavailable (HTTP ${status}) after retries; retry later.`;
  if (status !== undefined) return `${where} rejected the request (HTTP ${status}); check the model and its settings.`;
  if (errors.some((e) => named(e, "AI_JSONParseError", "AI_TypeValidationError", "AI_InvalidResponseDataError", "AI_EmptyResponseBodyError"))) {
    return `${where} sent a malformed stream; retry, or check that auth.modelProviders.${provider}.baseURL speaks the ${api} API.`;
  }
  if (call || errors.some((e) => e instanceof ModelUnreachableError)) return `${where} could not be reached; check auth.modelProviders.${provider}.baseURL.`;
  const name = errors.find((e) => e instanceof Error) as Error | undefined;
  return `The model call failed (${name?.name ?? "unknown error"}); retry.`;
}
