// @ts-check
// Chat rendering: the UI-message chunks and control frames of the stream, and the stored history after a resync,
// as messages in the stream's log (text, reasoning, tool cards, errors, approvals).

import { api, sessionPath } from "./api.js";
import { answerNodes, IN_CARD, responseIdLine } from "./answers.js";
import { h } from "./dom.js";
import { clip, clipped, json, MAX_SHOWN_CHARS } from "./format.js";
import { state } from "./state.js";
import { scheduleStats } from "./stats.js";
import { errorBox } from "./status.js";
import { appendToLog, currentMessage, frameNote, keepAtEnd, newMessage, settle, view } from "./stream-log.js";

/** @typedef {import("../../../shared/src/index.ts").UiMessageChunk} UiMessageChunk */
/** @typedef {import("../../../shared/src/index.ts").ControlPayload} ControlPayload */
/** @typedef {import("../../../shared/src/index.ts").ExtensionUiRequest} ExtensionUiRequest */
/** @typedef {import("../../../shared/src/index.ts").QueueData} QueueData */
/** @typedef {import("../../../shared/src/index.ts").CompactionData} CompactionData */
/** @typedef {import("../../../shared/src/index.ts").SessionMessage} SessionMessage */
/** @typedef {import("./stream-log.js").Part} Part */
/**
 * A part of a stored message (AI SDK UIMessage parts: text, reasoning, tool-<name>, data-<name>), by the fields read here.
 * @typedef {{type: string, text?: string, toolCallId?: string, toolName?: string, state?: string, input?: unknown, output?: unknown, errorText?: string, data?: unknown}} HistoryPart
 */
/**
 * A tool call's card in the log: its state label, name, input (of which only what is shown is kept) and output.
 * @typedef {{element: HTMLDetailsElement, state: HTMLElement, name: HTMLElement, input: Text, output: HTMLElement, inputShown: string, inputLength: number, toolName: string | undefined}} ToolCard
 */

/**
 * `"CODE: message"` (tool-output-error) as code and message.
 * @param {unknown} text
 * @returns {import("./api.js").ShownError}
 */
function splitErrorText(text) {
  const match = /^([A-Z][A-Z0-9_]+): ([\s\S]*)$/.exec(String(text ?? ""));
  return match ? { code: String(match[1]), message: String(match[2]) } : { code: "ERROR", message: String(text ?? "") };
}

/**
 * A text or reasoning part: its element, and the one text node its deltas are added to.
 * @param {string} id
 * @returns {Part}
 */
function textPart(id) {
  const message = currentMessage();
  let part = message.parts.get(`text:${id}`);
  if (!part) {
    const node = document.createTextNode("");
    part = { element: h("div", { class: "text-part" }, node), node };
    message.parts.set(`text:${id}`, part);
    message.body.append(part.element);
  }
  return part;
}

/**
 * @param {string} id
 * @returns {{element: HTMLDetailsElement, node: Text}}
 */
function reasoningPart(id) {
  const message = currentMessage();
  let part = message.parts.get(`reasoning:${id}`);
  if (!part) {
    const node = document.createTextNode("");
    part = { element: h("details", { class: "reasoning", open: true }, h("summary", {}, "Reasoning"), h("div", { class: "reasoning-text" }, node)), node };
    message.parts.set(`reasoning:${id}`, part);
    message.body.append(part.element);
  }
  return /** @type {{element: HTMLDetailsElement, node: Text}} */ (part);
}

const addText = (/** @type {Part} */ part, /** @type {unknown} */ text) => {
  part.node.data += String(text ?? "");
};

/**
 * @param {string} toolCallId
 * @param {string} [toolName]
 * @returns {ToolCard}
 */
function toolCard(toolCallId, toolName) {
  let card = view.tools.get(toolCallId);
  if (!card) {
    const stateLabel = h("span", { class: "tool-state" }, "input streaming");
    const name = h("code", {}, String(toolName ?? "tool"));
    const input = document.createTextNode("");
    const output = h("div", { class: "tool-output" });
    const element = h(
      "details",
      { class: "tool-call", open: true, "data-state": "input" },
      h("summary", {}, "Tool call ", name, " — ", stateLabel),
      h("p", { class: "meta" }, "call ", h("code", {}, String(toolCallId))),
      h("h4", {}, "Input"),
      h("pre", { class: "tool-input" }, input),
      output,
    );
    // Of streamed input only what is shown is kept: its first MAX_SHOWN_CHARS characters, and the length of the whole.
    card = { element, state: stateLabel, name, input, output, inputShown: "", inputLength: 0, toolName };
    view.tools.set(toolCallId, card);
    const message = currentMessage();
    message.toolCallIds.push(toolCallId);
    message.body.append(element);
  }
  if (toolName && !card.toolName) {
    card.toolName = toolName;
    card.name.textContent = String(toolName);
  }
  return card;
}

/**
 * @param {ToolCard} card
 * @param {string} text
 */
function setToolInput(card, text) {
  card.input.data = text;
  card.inputShown = "";
  card.inputLength = 0;
}

/**
 * @param {ToolCard} card
 * @param {string} delta
 */
function streamToolInput(card, delta) {
  const room = MAX_SHOWN_CHARS - card.inputShown.length;
  card.inputLength += delta.length;
  if (card.inputLength <= MAX_SHOWN_CHARS) {
    card.inputShown += delta;
    card.input.data += delta;
    return;
  }
  if (room > 0) card.inputShown += delta.slice(0, room);
  card.input.data = clipped(card.inputShown, card.inputLength);
}

/**
 * @param {ToolCard} card
 * @param {string} phase
 * @param {string} label
 */
function setToolState(card, phase, label) {
  card.element.dataset.state = phase;
  card.state.textContent = label;
}

/**
 * A tool's output in its card: rendered as in the Result panel, the Markdown folded; other shapes as JSON.
 * @param {ToolCard} card
 * @param {unknown} output
 */
function toolOutput(card, output) {
  /** @type {HTMLElement[]} */
  const nodes = [h("h4", {}, "Output")];
  const responseId = /** @type {{responseId?: unknown} | null | undefined} */ (output)?.responseId;
  if (typeof responseId === "string") nodes.push(responseIdLine(responseId));
  const shown = answerNodes(output, IN_CARD);
  if (shown.length) nodes.push(...shown);
  else nodes.push(h("pre", { text: typeof output === "string" ? clip(output) : json(output) }));
  card.output.replaceChildren(...nodes);
}

/**
 * One UI-message chunk (shared/src/sse-frame.ts lists them).
 * @param {UiMessageChunk} chunk
 */
export function renderChunk(chunk) {
  if (!chunk || typeof chunk.type !== "string") return;
  if (view.skipUntilNewStart) {
    if (chunk.type !== "start" || (chunk.messageId && view.shownIds.has(chunk.messageId))) return;
    view.skipUntilNewStart = false;
  }
  switch (chunk.type) {
    case "start":
      settle(view.current);
      view.current = newMessage("assistant", chunk.messageId, { streaming: true });
      break;
    case "start-step":
    case "finish-step":
    case "text-end":
      break;
    case "text-start":
      textPart(chunk.id);
      break;
    case "text-delta":
      keepAtEnd(() => addText(textPart(chunk.id), chunk.delta));
      break;
    case "reasoning-start":
      reasoningPart(chunk.id);
      break;
    case "reasoning-delta":
      keepAtEnd(() => addText(reasoningPart(chunk.id), chunk.delta));
      break;
    case "reasoning-end":
      reasoningPart(chunk.id).element.open = false;
      break;
    case "tool-input-start":
      toolCard(chunk.toolCallId, chunk.toolName);
      break;
    case "tool-input-delta": {
      keepAtEnd(() => streamToolInput(toolCard(chunk.toolCallId), String(chunk.inputTextDelta ?? "")));
      break;
    }
    case "tool-input-available": {
      const card = toolCard(chunk.toolCallId, chunk.toolName);
      setToolInput(card, json(chunk.input));
      setToolState(card, "running", "running");
      break;
    }
    case "tool-output-available": {
      const card = toolCard(chunk.toolCallId);
      toolOutput(card, chunk.output);
      setToolState(card, chunk.preliminary ? "running" : "done", chunk.preliminary ? "partial output" : "done");
      break;
    }
    case "tool-output-error": {
      const card = toolCard(chunk.toolCallId);
      setToolState(card, "error", "failed");
      card.output.replaceChildren(h("h4", {}, "Error"), errorBox(splitErrorText(chunk.errorText), undefined, { alert: false }));
      break;
    }
    case "error":
      keepAtEnd(() => currentMessage().body.append(errorBox(splitErrorText(chunk.errorText), undefined, { alert: false })));
      settle(view.current);
      break;
    case "abort":
      keepAtEnd(() => currentMessage().body.append(frameNote("Aborted.", "warn")));
      settle(view.current);
      break;
    case "finish":
      keepAtEnd(() => currentMessage().body.append(frameNote(`Finished${chunk.finishReason ? ` (${chunk.finishReason})` : ""}.`)));
      settle(view.current);
      view.current = null;
      scheduleStats();
      break;
    case "data-pi-queue":
      keepAtEnd(() => appendNotes(queueNotes(chunk.data)));
      break;
    case "data-pi-compaction":
      keepAtEnd(() => appendNotes([compactionNote(chunk.data)]));
      break;
    default: {
      // A chunk of a kind this page does not know yet.
      const unknown = /** @type {{type: string, data?: unknown}} */ (chunk);
      keepAtEnd(() => appendNotes([frameNote(`Unknown chunk ${unknown.type}: ${json(unknown.data ?? unknown)}`, "warn")]));
    }
  }
}

/**
 * Notes go into the message being streamed, or the log between messages (the queue changes there too).
 * @param {HTMLElement[]} notes
 */
function appendNotes(notes) {
  if (view.current) view.current.body.append(...notes);
  else for (const note of notes) appendToLog(note);
}

const quoted = (/** @type {string[]} */ texts) => texts.map((text) => JSON.stringify(String(text))).join(", ");

/**
 * What waits for the model (data-pi-queue): steers a model call took, then what still waits.
 * @param {QueueData} data
 */
function queueNotes(data) {
  const notes = (Array.isArray(data?.delivered) ? data.delivered : []).map((text) => frameNote(`Steered: ${String(text)}`));
  const steering = Array.isArray(data?.steering) ? data.steering : [];
  const followUp = Array.isArray(data?.followUp) ? data.followUp : [];
  const waiting = [steering.length ? `steering ${quoted(steering)}` : "", followUp.length ? `follow-up ${quoted(followUp)}` : ""].filter(Boolean);
  notes.push(frameNote(waiting.length ? `Waiting: ${waiting.join("; ")}.` : "Nothing waits."));
  return notes;
}

/**
 * A compaction of the model's context (data-pi-compaction): started, done (tokens before and after) or not.
 * @param {CompactionData} data
 */
function compactionNote(data) {
  const reason = String(data?.reason ?? "");
  if (data?.phase === "start") return frameNote(`Compacting the context (${reason}, about ${data.tokensBefore} tokens)…`);
  if (data?.error) return frameNote(`The compaction did not happen: ${data.error}.`, "warn");
  return frameNote(`Context compacted (${reason}): about ${data?.tokensBefore} → ${data?.tokensAfter} tokens.`);
}

/**
 * A control frame: stream errors, resync, approvals, ui-rpc answers.
 * @param {ControlPayload} payload
 */
export async function renderControl(payload) {
  if (!payload || typeof payload.control !== "string") return;
  if (payload.control === "error" && payload.code === "resync") {
    const resync = /** @type {Extract<ControlPayload, {code: "resync"}>} */ (payload);
    appendToLog(frameNote(`Frames after ${resync.lastEventId} are no longer buffered (oldest ${resync.oldestAvailableId}); showing the stored history.`, "warn"));
    await showHistory();
    return;
  }
  if (payload.control === "error") {
    // Shown here; a session that ended with it (deleted, idle) is forgotten by the stream (stream.js).
    appendToLog(h("div", { class: "frame-note warn" }, errorBox({ code: String(payload.code ?? "error"), message: String(payload.message ?? "") }, undefined, { alert: false })));
    return;
  }
  if (payload.control === "extension-ui" && payload.request) {
    const card = payload.request.toolCallId ? view.tools.get(payload.request.toolCallId) : undefined;
    if (card) setToolState(card, "input", "waiting for approval");
    appendToLog(approvalBox(payload.request, card));
    return;
  }
  if (payload.control === "ui-rpc") {
    const response = payload.response;
    const error = response?.ok === false ? response.error : undefined;
    appendToLog(frameNote(`ui-rpc answer ${response?.correlationId ?? ""}: ${response?.ok ? "ok" : `${error?.code ?? "failed"}: ${error?.message ?? ""}`}`));
    return;
  }
  appendToLog(frameNote(`Control frame ${/** @type {{control: string}} */ (payload).control}.`));
}

/**
 * A confirm request (an approval of a tool call, shown in `card` too): Allow or Deny, answered with POST /ui-response.
 * @param {ExtensionUiRequest} request
 * @param {ToolCard | undefined} card
 */
function approvalBox(request, card) {
  const box = h("div", { class: "approval", role: "group", "aria-label": String(request.title ?? "Approval") });
  const answer = async (/** @type {boolean} */ confirmed) => {
    for (const button of box.querySelectorAll("button")) button.disabled = true;
    /** @type {import("./api.js").Sent<"UiResponseRequestSchema">} */
    const response = { id: request.id, confirmed };
    const res = await api("POST", sessionPath(state.sessionId, "ui-response"), response);
    box.append(res.ok ? frameNote(confirmed ? "Allowed." : "Denied.") : errorBox(res.error, res.status));
    if (res.ok && card && card.element.dataset.state === "input") setToolState(card, confirmed ? "running" : "error", confirmed ? "approved" : "denied");
  };
  const allow = h("button", { type: "button" }, "Allow");
  const deny = h("button", { type: "button", class: "secondary" }, "Deny");
  allow.addEventListener("click", () => void answer(true));
  deny.addEventListener("click", () => void answer(false));
  box.append(
    h("p", {}, h("strong", {}, String(request.title ?? "Approval needed"))),
    h("p", { class: "text-part" }, String(request.message ?? "")),
    h("div", { class: "row" }, allow, deny),
  );
  return box;
}

/** After a resync: the stored messages (AI SDK UIMessages), then only the frames of newer messages. */
async function showHistory() {
  if (!state.sessionId) return;
  const res = /** @type {import("./api.js").Answer<{messages: SessionMessage[]}>} */ (await api("GET", sessionPath(state.sessionId, "messages?format=ui")));
  if (!res.ok) {
    appendToLog(errorBox(res.error, res.status, { alert: false }));
    return;
  }
  settle(view.current);
  for (const message of res.data?.messages ?? []) {
    const record = newMessage(message.role === "user" ? "user" : "assistant", message.id);
    view.current = record;
    if (message.id) view.shownIds.add(message.id);
    for (const part of /** @type {HistoryPart[]} */ (message.parts ?? [])) {
      if (part.type === "text") addText(textPart(`h${record.parts.size}`), part.text);
      else if (part.type === "reasoning") {
        const reasoning = reasoningPart(`h${record.parts.size}`);
        addText(reasoning, part.text);
        reasoning.element.open = false;
      } else if (typeof part.type === "string" && (part.type.startsWith("tool-") || part.type === "dynamic-tool")) {
        const card = toolCard(part.toolCallId ?? `h${record.parts.size}`, part.toolName ?? part.type.slice(5));
        setToolInput(card, json(part.input));
        if (part.state === "output-available") {
          toolOutput(card, part.output);
          setToolState(card, "done", "done");
        } else if (part.state === "output-error") {
          card.output.replaceChildren(h("h4", {}, "Error"), errorBox(splitErrorText(part.errorText), undefined, { alert: false }));
          setToolState(card, "error", "failed");
        } else setToolState(card, "running", String(part.state ?? ""));
      } else if (part.type === "data-pi-queue") {
        const delivered = /** @type {Partial<QueueData> | undefined} */ (part.data)?.delivered;
        if (Array.isArray(delivered)) record.body.append(...delivered.map((text) => frameNote(`Steered: ${String(text)}`)));
      } else if (part.type === "data-pi-compaction") record.body.append(compactionNote(/** @type {CompactionData} */ (part.data)));
    }
  }
  view.current = null;
  view.skipUntilNewStart = true;
}
