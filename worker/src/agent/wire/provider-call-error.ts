import { APICallError } from "ai";

/** The most of a refusal's body read and kept on the error (what context-overflow.ts reads): a provider's error is short, an error page need not be. */
export const MAX_ERROR_BODY_BYTES = 16_384;

/** The first `maxBytes` of a body as text; the rest is not read (the connection is let go). */
async function bodyStart(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value.subarray(0, maxBytes - size), { stream: true });
      size += value.byteLength;
    }
  } catch {
    // A body that breaks off leaves what came.
  } finally {
    reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}

/**
 * A provider's HTTP refusal as the AI SDK reports one: status, headers and the start of the body
 * kept (retries and the user's message go by status, a context-length refusal is told by its body),
 * the message from the body's `error.message` when it has one. Retryable as the SDK's are: 408, 409,
 * 429 and 5xx.
 */
export async function providerCallError(response: Response, url: string, requestBodyValues: unknown): Promise<APICallError> {
  const responseHeaders = Object.fromEntries(response.headers);
  const responseBody = await bodyStart(response, MAX_ERROR_BODY_BYTES);
  let message = response.statusText || `HTTP ${response.status}`;
  try {
    const parsed = JSON.parse(responseBody) as { error?: { message?: unknown } };
    if (typeof parsed?.error?.message === "string") message = parsed.error.message;
  } catch {}
  return new APICallError({ message, url, requestBodyValues, statusCode: response.status, responseHeaders, responseBody });
}
