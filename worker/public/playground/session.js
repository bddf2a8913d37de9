// @ts-check
// The Access panel: the tab's token and its session (created, deleted, forgotten when it ends).

import { api, sessionPath } from "./api.js";
import { $, show } from "./dom.js";
import { echoes } from "./echoes.js";
import { loadModels, modelForNewSession } from "./models.js";
import { KEYS, state, tabStore } from "./state.js";
import { clearStats, refreshStats } from "./stats.js";
import { errorBox, setStatus } from "./status.js";
import { reconnectNow, startStream, stopStream } from "./stream.js";
import { resetView, settle, view } from "./stream-log.js";

/**
 * The tab's session: kept in the tab, shown, and the controls that need one enabled.
 * @param {string} id
 */
export function setSession(id) {
  state.sessionId = id;
  tabStore.set(KEYS.session, id);
  $("session-id").textContent = id || "none";
  for (const button of ["session-delete", "stream-reconnect", "stream-replay", "stats-refresh", "chat-abort"]) /** @type {HTMLButtonElement} */ ($(button)).disabled = !id;
}

async function createSession() {
  setStatus("Creating a session…");
  /** @type {import("./api.js").Sent<"CreateSessionRequestSchema">} */
  const request = { source: "playground" };
  const res = /** @type {import("./api.js").Answer<import("./api.js").Shape<"CreateSessionResponseSchema">>} */ (await api("POST", "api/sessions", request));
  if (!res.ok) {
    show("access-message", errorBox(res.error, res.status));
    setStatus(`Could not create a session: ${res.error.code}${res.status ? ` (HTTP ${res.status})` : ""}.`, "error");
    return false;
  }
  show("access-message");
  stopStream();
  echoes.clear();
  setSession(res.data.sessionId);
  setStatus("Session created.", "ok");
  startStream({ fromStart: true });
  void refreshStats();
  modelForNewSession();
  return true;
}

/** A session to call: the tab's, or a new one; false when none could be created. */
export const ensureSession = async () => (state.sessionId ? true : createSession());

/**
 * The session is gone (deleted, ended, unknown): the page lets go of it, saying why.
 * @param {string} [reason]
 */
export function forgetSession(reason) {
  stopStream();
  settle(view.current);
  echoes.clear();
  setSession("");
  clearStats();
  if (reason) setStatus(reason, "error");
}

/** @param {string} value */
function setToken(value) {
  state.token = value;
  tabStore.set(KEYS.token, value);
}

export function wireAccess() {
  $("session-new").addEventListener("click", () => void createSession());

  $("session-delete").addEventListener("click", async () => {
    if (!state.sessionId) return;
    const res = await api("DELETE", sessionPath(state.sessionId));
    if (!res.ok && res.error.code !== "SESSION_NOT_FOUND") {
      show("access-message", errorBox(res.error, res.status));
      setStatus(`Could not delete the session: ${res.error.code}.`, "error");
      return;
    }
    show("access-message");
    forgetSession();
    resetView();
    setStatus("Session deleted.", "ok");
  });

  const tokenInput = /** @type {HTMLInputElement} */ ($("token"));
  tokenInput.value = state.token;
  tokenInput.addEventListener("input", () => setToken(tokenInput.value.trim()));
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    setToken(tokenInput.value.trim());
    setStatus(state.token ? "Token set for this tab." : "No token: requests go without Authorization.", "ok");
    show("access-message");
    void loadModels();
    if (state.sessionId) {
      reconnectNow({ fromStart: false });
      void refreshStats();
    }
  });
  $("token-clear").addEventListener("click", () => {
    tokenInput.value = "";
    setToken("");
    setStatus("Token cleared from this tab.", "ok");
    tokenInput.focus();
  });
}
