// @ts-check
// The stream's log: its entries (messages, notes, approvals), capped, and what the view keeps of each message.

import { $, h } from "./dom.js";

/** A text or reasoning part of a message: its element, and the text node its deltas go to. */
/** @typedef {{element: HTMLElement, node: Text}} Part */
/**
 * What the view keeps of a message in the log.
 * @typedef {{article: HTMLElement, body: HTMLElement, parts: Map<string, Part>, toolCallIds: string[], messageId: string | undefined, onLeave: (() => void) | undefined}} MessageRecord
 */

/** The log keeps this many entries, dropping the oldest. */
export const MAX_LOG_ENTRIES = 200;

export const view = {
  /** The message record chunks without an id belong to. */
  current: /** @type {MessageRecord | null} */ (null),
  /** toolCallId → tool card, for the cards still in the log. */
  tools: /** @type {Map<string, import("./chat-render.js").ToolCard>} */ (new Map()),
  /** After a resync: chunks of messages the history already showed are skipped. */
  skipUntilNewStart: false,
  shownIds: /** @type {Set<string>} */ (new Set()),
  /** A message's article → its record, so that what the view keeps of it goes when the article does. */
  records: /** @type {WeakMap<Element, MessageRecord>} */ (new WeakMap()),
};

const log = () => $("stream-log");

export function resetView() {
  view.tools.clear();
  view.current = null;
  view.skipUntilNewStart = false;
  view.shownIds.clear();
  log().replaceChildren(h("p", { class: "placeholder" }, "The session's stream appears here: tool calls, agent turns, control frames."));
}

/**
 * Changes the log, keeping it scrolled to the end when it was there.
 * @param {() => void} update
 */
export function keepAtEnd(update) {
  const element = log();
  const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
  update();
  if (atEnd) element.scrollTop = element.scrollHeight;
}

/**
 * Appends an entry to the log; past MAX_LOG_ENTRIES the oldest entries go (never the message still streaming).
 * @param {Node} node
 */
export function appendToLog(node) {
  const element = log();
  keepAtEnd(() => {
    element.querySelector(":scope > .placeholder")?.remove();
    element.append(node);
    for (let entry = element.firstElementChild; entry && element.childElementCount > MAX_LOG_ENTRIES; ) {
      const next = entry.nextElementSibling;
      if (entry !== view.current?.article) {
        entry.remove();
        forgetEntry(entry);
      }
      entry = next;
    }
  });
}

/**
 * Drops what the view kept of a message that left the log: its id, its tool cards, and what its owner kept (`onLeave`).
 * @param {Element} entry
 */
function forgetEntry(entry) {
  const record = view.records.get(entry);
  if (!record) return;
  view.records.delete(entry);
  if (record.messageId) view.shownIds.delete(record.messageId);
  for (const toolCallId of record.toolCallIds) view.tools.delete(toolCallId);
  record.onLeave?.();
}

/**
 * A message in the log; a streaming one is aria-busy until it settles, so screen readers read it once, whole.
 * @param {"user" | "assistant"} role
 * @param {string | undefined} messageId
 * @param {{streaming?: boolean, onLeave?: (() => void) | undefined}} [options]
 * @returns {MessageRecord}
 */
export function newMessage(role, messageId, { streaming = false, onLeave = undefined } = {}) {
  const body = h("div", { class: "msg-body" });
  const head = h("p", { class: "msg-head" }, role === "user" ? "you" : "assistant", messageId ? ` · ${messageId}` : "");
  const article = h("article", { class: `msg ${role}`, "aria-label": role === "user" ? "Your message" : "Assistant message", "aria-busy": streaming ? "true" : undefined }, head, body);
  const record = { article, body, parts: new Map(), toolCallIds: [], messageId, onLeave };
  view.records.set(article, record);
  appendToLog(article);
  return record;
}

/**
 * A streamed message is complete (finished, failed, aborted or cut short): no longer busy.
 * @param {MessageRecord | null | undefined} record
 */
export function settle(record) {
  record?.article.removeAttribute("aria-busy");
}

/** The message chunks go to: the current one, or a new streaming one. */
export const currentMessage = () => (view.current ??= newMessage("assistant", undefined, { streaming: true }));

/** @param {string} text */
export function frameNote(text, kind = "") {
  return h("p", { class: `frame-note ${kind}` }, text);
}
