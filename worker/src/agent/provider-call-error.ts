import { APICallError } from "ai";

/** The most of a refusal's body kept on the error (what context-overflow.ts reads): a provider's error is short. */
const MAX_ERROR_BODY_CHARS = 16_384;

/**
 * A provider's HTTP refusal as the AI SDK reports one: status, headers and body kept (retries and the
 * user's message go by status, a context-length refusal is told by its body), the message from the
 * body's `error.message` when it has one. Retryable as the SDK's are: 408, 409, 429 and 5xx.
 */
export async function providerCallError(response: Response, url: string, requestBodyValues: unknown): Promise<APICallError> {
  const responseHeaders = Object.fromEntries(response.headers);
  let responseBody = "";
  try {
    responseBody = (await response.text()).slice(0, MAX_ERROR_BODY_CHARS);
  } catch {}
  let message = response.statusText || `HTTP ${response.status}`;
  try {
    const parsed = JSON.parse(responseBody) as { error?: { message?: unknown } };
    if (typeof parsed?.error?.message === "string") message = parsed.error.message;
  } catch {}
  return new APICallError({ message, url, requestBodyValues, statusCode: response.status, responseHeaders, responseBody });
}
