// @ts-check
// Requests to the API: relative URLs (the page works under any base path), the tab's token, the protocol version.

import { state } from "./state.js";

/** @typedef {typeof import("../../../shared/src/index.ts")} Shared */
/** @typedef {import("../../../shared/src/index.ts").CodedError} CodedError */
/**
 * What a schema of shared/ stands for: `Shape<"SessionStatsSchema">` is a route's answer as the page reads it.
 * @template {keyof Shared} K
 * @typedef {Shared[K] extends import("valibot").GenericSchema ? import("valibot").InferOutput<Shared[K]> : never} Shape
 */
/**
 * What a request body schema of shared/ accepts, by its named fields: `Sent<"PromptRequestSchema">` is
 * what the page may send (the other keys a loose object lets through are not the page's to send).
 * @template {keyof Shared} K
 * @typedef {Shared[K] extends import("valibot").GenericSchema ? Named<import("valibot").InferInput<Shared[K]>> : never} Sent
 */
/**
 * An object type without its index signature.
 * @template T
 * @typedef {{[P in keyof T as string extends P ? never : P]: T[P]}} Named
 */
/**
 * An error as the page shows it: the API's error body, or one the page says itself (its code then
 * NETWORK_ERROR, NO_FILE, HTTP_<status> …).
 * @typedef {Omit<CodedError, "code" | "details"> & {code: string}} ShownError
 */
/**
 * What a request answered: its JSON body as `T` (the route's answer), or the error.
 * @template T
 * @typedef {{ok: true, status: number, data: T, headers: Headers} | {ok: false, status: number, error: ShownError}} Answer
 */

/** The protocol this page speaks (shared/src/protocol-version.ts); another major version is answered 426. */
const PROTOCOL_HEADER = "x-pi-protocol-version";
const PROTOCOL_VERSION = "0.1.0";

export const sessionPath = (/** @type {string} */ id, /** @type {string} */ tail = "") => `api/sessions/${encodeURIComponent(id)}${tail ? `/${tail}` : ""}`;

/** The headers of every request: the protocol version, and the tab's token when there is one. */
export function baseHeaders() {
  const headers = new Headers({ [PROTOCOL_HEADER]: PROTOCOL_VERSION });
  if (state.token) headers.set("authorization", `Bearer ${state.token}`);
  return headers;
}

/**
 * One JSON request to the API: `{ok, status, data}` or `{ok:false, status, error}`; never throws but for an abort.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
export async function api(method, path, body) {
  const headers = baseHeaders();
  if (body !== undefined) headers.set("content-type", "application/json");
  return request(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
}

/**
 * A file to the session's attachments (multipart/form-data, field `file`): `{attachment, displayUrl}` on success.
 * @param {string} id
 * @param {File} file
 */
export async function uploadAttachment(id, file) {
  const form = new FormData();
  form.append("file", file, file.name);
  // No content-type of our own: the browser writes the multipart boundary.
  return request("POST", sessionPath(id, "attachments"), baseHeaders(), form);
}

/**
 * A response's body as text, and as JSON when it is JSON.
 * @param {Response} res
 * @returns {Promise<{text: string, data: unknown}>}
 */
export async function readBody(res) {
  const text = await res.text().catch(() => "");
  try {
    return { text, data: text ? JSON.parse(text) : undefined };
  } catch {
    return { text, data: undefined };
  }
}

/**
 * The API's error body `{error:{code,message,fields}}`, or what a response without one amounts to.
 * @param {number} status
 * @param {unknown} data
 * @returns {ShownError}
 */
export function errorOf(status, data, text = "") {
  const body = /** @type {{error?: unknown} | null | undefined} */ (data);
  const error = /** @type {{[K in keyof CodedError]?: unknown} | undefined} */ (body && typeof body === "object" ? (body.error ?? body) : undefined);
  if (error && typeof error.code === "string") {
    return { code: error.code, message: typeof error.message === "string" ? error.message : "", fields: Array.isArray(error.fields) ? error.fields.map(String) : undefined };
  }
  return { code: `HTTP_${status}`, message: text.trim().slice(0, 500) || "The server answered with an error and no details." };
}

/**
 * A request with its answer read as JSON; `api()` and `uploadAttachment()` go through here.
 * @param {string} method
 * @param {string} path
 * @param {Headers} headers
 * @param {BodyInit | undefined} body
 * @returns {Promise<Answer<unknown>>}
 */
async function request(method, path, headers, body) {
  let res;
  try {
    res = await fetch(path, { method, headers, body, cache: "no-store", credentials: "same-origin" });
  } catch {
    return { ok: false, status: 0, error: { code: "NETWORK_ERROR", message: "The request did not reach the server." } };
  }
  const { text, data } = await readBody(res);
  if (res.ok) return { ok: true, status: res.status, data, headers: res.headers };
  return { ok: false, status: res.status, error: errorOf(res.status, data, text) };
}
