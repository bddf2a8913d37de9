// @ts-check
// The SSE follower: one connection to the session's stream at a time, resumed with Last-Event-ID after a
// drop (exponential backoff, jittered) or a silence of a few keep-alives, or replayed from the start.

import { baseHeaders, errorOf, readBody, sessionPath } from "./api.js";
import { renderChunk, renderControl } from "./chat-render.js";
import { $ } from "./dom.js";
import { echoes } from "./echoes.js";
import { sseParser } from "./sse-parser.js";
import { state } from "./state.js";
import { errorBox, setStatus } from "./status.js";
import { appendToLog, frameNote, resetView } from "./stream-log.js";

/** @typedef {import("../../../shared/src/index.ts").SseFrame} SseFrame */
/** @typedef {import("../../../shared/src/index.ts").ControlPayload} ControlPayload */

/** The server's `: keep-alive` comment interval by default; the stream's own comments correct it. */
const HEARTBEAT_MS = 15_000;
/** A stream that stays silent for this many keep-alives, and at least the floor, is taken for dead. */
const SILENCE_HEARTBEATS = 3;
const SILENCE_FLOOR_MS = 45_000;
/** Reconnection backoff: doubling from the first delay up to the cap, each delay jittered. */
const RETRY_FIRST_MS = 1000;
const RETRY_CAP_MS = 15_000;

const stream = {
  /** The connection's AbortController; a connection that is no longer this one stops quietly. */
  controller: /** @type {AbortController | null} */ (null),
  lastEventId: 0,
  /** Failed connections in a row; only a connection that delivers something (a frame or a keep-alive) ends the row. */
  retry: 0,
  /** The keep-alive interval: the server's default until the stream shows its own. */
  heartbeatMs: HEARTBEAT_MS,
  wanted: false,
  timer: 0,
  watchdog: 0,
  queue: /** @type {Promise<unknown>} */ (Promise.resolve()),
  /** Set on load with a stored session, until its stream is live. */
  resuming: false,
  /** What the page does when the stream finds its session gone (see wireStream). */
  onSessionGone: (/** @type {string} */ _reason) => {},
};

/** The id of the last event shown: a message sent now follows it. */
export const lastEventId = () => stream.lastEventId;

/**
 * @param {string} phase
 * @param {string} label
 */
function setStreamState(phase, label) {
  const badge = $("stream-state");
  badge.dataset.state = phase;
  badge.textContent = label;
}

/** @param {number} id */
function setLastEventId(id) {
  stream.lastEventId = id;
  $("stream-last-id").textContent = String(id);
}

/** @param {import("./sse-parser.js").SseEvent} frame */
function handleFrame(frame) {
  const id = frame.id === undefined ? NaN : Number(frame.id);
  if (Number.isFinite(id)) echoes.before(id);
  /** @type {SseFrame | undefined} */
  let payload;
  try {
    payload = JSON.parse(frame.data);
  } catch {
    appendToLog(frameNote(`A frame that is not JSON (event ${frame.event}).`, "warn"));
  }
  let done;
  if (payload?.kind === "uiMessageChunk") renderChunk(payload.chunk);
  else if (payload?.kind === "control") {
    done = renderControl(payload.payload);
    endedWith(payload.payload);
  } else if (payload) appendToLog(frameNote(`Frame of kind ${String(/** @type {{kind?: unknown}} */ (payload).kind)}.`, "warn"));
  if (Number.isFinite(id)) setLastEventId(id);
  return done;
}

/**
 * A control error that ends the session (deleted, idle): the page forgets it and the stream stays closed.
 * @param {ControlPayload} control
 */
function endedWith(control) {
  const code = control?.control === "error" ? control.code : undefined;
  if (code !== "deleted" && code !== "idle") return;
  stream.onSessionGone(code === "deleted" ? "The session was deleted; create a new one." : "The session ended after being idle; create a new one.");
  setStreamState("closed", `closed: ${code}`);
}

export function stopStream() {
  stream.wanted = false;
  clearTimeout(stream.timer);
  clearTimeout(stream.watchdog);
  stream.controller?.abort();
  stream.controller = null;
  setStreamState("idle", "not connected");
}

/**
 * Follows the session's stream; `fromStart` clears the view and replays every buffered frame.
 * @param {{fromStart: boolean}} options
 */
export function startStream({ fromStart }) {
  stopStream();
  if (!state.sessionId) return;
  if (fromStart) {
    resetView();
    echoes.unrender();
    setLastEventId(0);
  }
  stream.wanted = true;
  void connect(state.sessionId);
}

/**
 * Follows the stream at once, the backoff started over (Reconnect, Replay, a new token).
 * @param {{fromStart: boolean}} options
 */
export function reconnectNow({ fromStart }) {
  stream.retry = 0;
  startStream({ fromStart });
}

/** On load with the tab's stored session: replays its stream and says so once it is live. */
export function resumeStream() {
  stream.resuming = true;
  startStream({ fromStart: true });
}

/** How long a stream may stay silent: a few missed keep-alives, never less than the floor. */
const silenceLimit = () => Math.max(SILENCE_FLOOR_MS, SILENCE_HEARTBEATS * stream.heartbeatMs);

/** @param {string} reason */
function scheduleReconnect(reason) {
  clearTimeout(stream.watchdog);
  stream.controller?.abort();
  stream.controller = null;
  if (!stream.wanted || !state.sessionId) return;
  // Exponential backoff up to the cap, each delay drawn from its upper half so that pages cut off together do not come back together.
  const ceiling = Math.min(RETRY_FIRST_MS * 2 ** stream.retry, RETRY_CAP_MS);
  const delay = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  stream.retry = Math.min(stream.retry + 1, 30);
  setStreamState("reconnecting", `reconnecting in ${Math.ceil(delay / 1000)} s`);
  setStatus(`${reason}; reconnecting with Last-Event-ID ${stream.lastEventId}.`);
  const id = state.sessionId;
  stream.timer = setTimeout(() => void connect(id), delay);
}

/** @param {string} id */
async function connect(id) {
  const controller = new AbortController();
  stream.controller = controller;
  const mine = () => stream.controller === controller && state.sessionId === id;
  setStreamState(stream.retry ? "reconnecting" : "connecting", "connecting…");
  const headers = baseHeaders();
  headers.set("accept", "text/event-stream");
  headers.set("last-event-id", String(stream.lastEventId));
  let res;
  try {
    res = await fetch(sessionPath(id, "stream"), { headers, cache: "no-store", credentials: "same-origin", signal: controller.signal });
  } catch {
    if (mine()) scheduleReconnect("The stream could not connect");
    return;
  }
  if (!mine()) return;
  if (!res.ok || !res.body) {
    const { text, data } = await readBody(res);
    if (!mine()) return;
    const error = errorOf(res.status, data, text);
    if (res.status >= 500 || res.status === 429) {
      scheduleReconnect(`The stream answered ${error.code}`);
      return;
    }
    stream.wanted = false;
    stream.controller = null;
    setStreamState("closed", `closed: ${error.code}`);
    appendToLog(errorBox(error, res.status));
    if (error.code === "SESSION_NOT_FOUND" || error.code === "SESSION_ENDED") stream.onSessionGone(`The stored session can no longer be followed (${error.code}); create a new one.`);
    else setStatus(`The stream was refused: ${error.code} (HTTP ${res.status}).`, "error");
    return;
  }
  const resumed = stream.retry > 0;
  setStreamState("live", "live");
  if (stream.resuming) setStatus("Session resumed: its stream is replayed below.", "ok");
  else if (resumed) setStatus(`The stream is live again, resumed after event ${stream.lastEventId}.`, "ok");
  stream.resuming = false;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  // The backoff starts over once the stream delivers something: one that is accepted and then closes keeps backing off.
  let lastComment = 0;
  const parser = sseParser(
    (frame) => {
      stream.retry = 0;
      stream.queue = stream.queue.then(() => (mine() ? handleFrame(frame) : undefined)).catch(() => {});
    },
    () => {
      stream.retry = 0;
      // The only comments are keep-alives: the time between two is the server's interval (capped, so that waking from sleep does not stretch it).
      const now = performance.now();
      if (lastComment) stream.heartbeatMs = Math.min(now - lastComment, 10 * 60_000);
      lastComment = now;
    },
  );
  try {
    for (;;) {
      clearTimeout(stream.watchdog);
      stream.watchdog = setTimeout(() => {
        if (mine()) scheduleReconnect("The stream went silent");
      }, silenceLimit());
      const { value, done } = await reader.read();
      if (done || !mine()) break;
      parser.push(value);
    }
  } catch {
    // Aborted or cut off: decided below.
  }
  await stream.queue;
  if (!mine()) return;
  scheduleReconnect("The stream ended");
}

/**
 * The Stream panel's buttons; `onSessionGone(reason)` is what the page does when the stream finds its
 * session deleted, ended or unknown (session.js forgets it: passed in, so that imports go one way).
 * @param {{onSessionGone: (reason: string) => void}} options
 */
export function wireStream({ onSessionGone }) {
  stream.onSessionGone = onSessionGone;
  $("stream-reconnect").addEventListener("click", () => reconnectNow({ fromStart: false }));
  $("stream-replay").addEventListener("click", () => reconnectNow({ fromStart: true }));
  window.addEventListener("pagehide", () => stopStream());
}
