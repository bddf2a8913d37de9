import { EmptyResponseBodyError } from "ai";
import type { StreamSource } from "./event-stream-parts.ts";
import { providerCallError } from "./provider-call-error.ts";

/** An answer that streams as server-sent events: its body, the request's JSON as sent, and where it came from. */
export interface EventAnswer {
  body: ReadableStream<Uint8Array>;
  requestBody: string;
  source: StreamSource;
}

/**
 * POSTs a model request (`body` as JSON) whose answer streams as server-sent events. A refusal is
 * thrown as the AI SDK's providers throw one (providerCallError), an answer without a body as theirs.
 */
export async function postForEvents(fetch: typeof globalThis.fetch, url: string, request: { headers: Record<string, string>; body: unknown; signal?: AbortSignal }): Promise<EventAnswer> {
  const requestBody = JSON.stringify(request.body);
  const response = await fetch(url, { method: "POST", headers: request.headers, body: requestBody, ...(request.signal && { signal: request.signal }) });
  if (!response.ok) throw await providerCallError(response, url, request.body);
  if (!response.body) throw new EmptyResponseBodyError({});
  return { body: response.body, requestBody, source: { url, requestBodyValues: request.body, statusCode: response.status, responseHeaders: Object.fromEntries(response.headers) } };
}
