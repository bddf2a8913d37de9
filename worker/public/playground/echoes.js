// @ts-check
// The messages sent from this tab: the stream carries no user messages, so they are kept (in the tab)
// with the event id they followed, and shown again in their place when the stream is replayed.

import { h } from "./dom.js";
import { KEYS, tabStore } from "./state.js";
import { MAX_LOG_ENTRIES, newMessage } from "./stream-log.js";

/** A message sent after event `after`; `element` while the log shows it. */
/** @typedef {{after: number, text: string, rendered?: boolean, element?: HTMLElement | undefined}} Echo */

function stored() {
  try {
    const parsed = JSON.parse(tabStore.get(KEYS.echoes) || "[]");
    return Array.isArray(parsed) ? parsed.filter((/** @type {Partial<Echo> | null} */ e) => e && typeof e.text === "string" && typeof e.after === "number") : [];
  } catch {
    return [];
  }
}

export const echoes = {
  list: /** @type {Echo[]} */ (stored()),
  save() {
    tabStore.set(KEYS.echoes, this.list.length ? JSON.stringify(this.list.map(({ after, text }) => ({ after, text }))) : "");
  },
  /** @param {Echo} echo */
  render(echo) {
    // A shown message that leaves the log is no longer kept here.
    const record = newMessage("user", undefined, {
      onLeave: () => {
        if (echo.element === record.article) echo.element = undefined;
      },
    });
    record.body.append(h("div", { class: "text-part" }, echo.text));
    echo.rendered = true;
    echo.element = record.article;
  },
  /**
   * A message sent after event `after`.
   * @param {string} text
   * @param {number} after
   */
  add(text, after) {
    const echo = { after, text };
    this.list.push(echo);
    // No more are kept than the log shows.
    if (this.list.length > MAX_LOG_ENTRIES) this.list.splice(0, this.list.length - MAX_LOG_ENTRIES);
    this.save();
    this.render(echo);
    return echo;
  },
  /** @param {Echo} echo */
  remove(echo) {
    echo.element?.remove();
    this.list = this.list.filter((e) => e !== echo);
    this.save();
  },
  /**
   * Shows the messages sent before event `id`.
   * @param {number} id
   */
  before(id) {
    for (const echo of this.list) if (!echo.rendered && echo.after < id) this.render(echo);
  },
  /** The log was cleared: every message is shown again in its place. */
  unrender() {
    for (const echo of this.list) echo.rendered = false;
  },
  clear() {
    this.list = [];
    this.save();
  },
};
