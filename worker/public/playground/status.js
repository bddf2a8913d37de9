// @ts-check
// The status line, and the box an error is shown in (with what to do for the common codes).

import { $, h } from "./dom.js";

/** @typedef {import("./api.js").ShownError} ShownError */

/** @param {string} text */
export function setStatus(text, kind = "info") {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = kind;
}

/**
 * @param {ShownError} error
 * @param {number | undefined} status
 */
function hintFor(error, status) {
  if (status === 401 || error.code === "UNAUTHORIZED") return "This server needs an API token: enter one in the API token field under Access, then try again.";
  if (error.code === "FORBIDDEN") return "This token may not use that: a session belongs to the token that created it; create a new session.";
  if (error.code === "SESSION_NOT_FOUND") return "The session no longer exists; create a new one.";
  if (error.code === "SESSION_ENDED") return "The session ended (it was idle); create a new one.";
  if (error.code === "SESSION_BUSY") return "A turn is running: wait for it to finish, or press Abort.";
  if (error.code === "MODEL_NOT_CONFIGURED") return "No model is configured; see docs/agent.md (AGENT_CONFIG or PUT /api/config/auth).";
  if (error.code === "NETWORK_ERROR") return status ? "The document could not be downloaded (DNS, connection or a 5xx answer from its server)." : "Check that the server is running and reachable.";
  if (error.code === "PRIVATE_NETWORK_BLOCKED") return "The URL points at a private or denied address; the network policy (web.allowHosts, web.allowPrivateNetwork) decides what may be fetched.";
  if (error.code === "UNSUPPORTED_PROTOCOL") return "Only http: and https: URLs can be read; for a file on this computer, choose “A file from this computer”.";
  if (error.code === "FILE_TOO_LARGE") return "The document is over web.convert.maxResponseBytes; try a smaller file.";
  if (error.code === "PAYLOAD_TOO_LARGE") return "The file is over the upload limit (ATTACHMENT_MAX_BYTES, 25 MiB by default).";
  if (error.code === "CONVERT_TIMEOUT") return "Nothing could be converted in time: try fewer pages.";
  if (error.code === "CONVERT_FAILED") return "Usually the document is unsupported, encrypted, corrupt or scanned (no text layer): PDF, DOCX, XLSX, ODS, PPTX and pages can be read.";
  if (error.code === "PROTOCOL_VERSION_MISMATCH") return "This page is older or newer than the server: reload it.";
  return "";
}

/**
 * @param {ShownError} error
 * @param {number} [status]
 */
export function errorBox(error, status, { alert = true } = {}) {
  const box = h("div", { class: "error-box", role: alert ? "alert" : undefined });
  box.append(h("p", {}, h("span", { class: "error-code" }, error.code), status ? ` — HTTP ${status}` : ""));
  if (error.message) box.append(h("p", { class: "error-message" }, error.message));
  if (error.fields?.length) box.append(h("p", { class: "meta" }, `Fields: ${error.fields.join(", ")}`));
  const hint = hintFor(error, status);
  if (hint) box.append(h("p", { class: "meta" }, hint));
  return box;
}
