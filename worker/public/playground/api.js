// Requests to the API: relative URLs (the page works under any base path), the tab's token, the protocol version.

import { state } from "./state.js";

/** The protocol this page speaks (shared/src/protocol-version.ts); another major version is answered 426. */
const PROTOCOL_HEADER = "x-pi-protocol-version";
const PROTOCOL_VERSION = "0.1.0";

export const sessionPath = (id, tail) => `api/sessions/${encodeURIComponent(id)}${tail ? `/${tail}` : ""}`;

/** The headers of every request: the protocol version, and the tab's token when there is one. */
export function baseHeaders() {
  const headers = new Headers({ [PROTOCOL_HEADER]: PROTOCOL_VERSION });
  if (state.token) headers.set("authorization", `Bearer ${state.token}`);
  return headers;
}

/** One JSON request to the API: `{ok, status, data}` or `{ok:false, status, error}`; never throws but for an abort. */
export async function api(method, path, body) {
  const headers = baseHeaders();
  if (body !== undefined) headers.set("content-type", "application/json");
  return request(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
}

/** A file to the session's attachments (multipart/form-data, field `file`): `{attachment, displayUrl}` on success. */
export async function uploadAttachment(id, file) {
  const form = new FormData();
  form.append("file", file, file.name);
  // No content-type of our own: the browser writes the multipart boundary.
  return request("POST", sessionPath(id, "attachments"), baseHeaders(), form);
}

/** A response's body as text, and as JSON when it is JSON. */
export async function readBody(res) {
  const text = await res.text().catch(() => "");
  try {
    return { text, data: text ? JSON.parse(text) : undefined };
  } catch {
    return { text, data: undefined };
  }
}

/** The API's error body `{error:{code,message,fields}}`, or what a response without one amounts to. */
export function errorOf(status, data, text = "") {
  const error = data && typeof data === "object" ? (data.error ?? data) : undefined;
  if (error && typeof error.code === "string") {
    return { code: error.code, message: typeof error.message === "string" ? error.message : "", fields: Array.isArray(error.fields) ? error.fields.map(String) : undefined };
  }
  return { code: `HTTP_${status}`, message: text.trim().slice(0, 500) || "The server answered with an error and no details." };
}

/** A request with its answer read as JSON; `api()` and `uploadAttachment()` go through here. */
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
