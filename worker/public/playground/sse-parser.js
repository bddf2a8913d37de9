// @ts-check
// The stream is read with fetch() (EventSource cannot send an Authorization header), so its events are parsed here.

/** @typedef {{id: string | undefined, event: string, data: string}} SseEvent */

/**
 * Server-sent events parsed from text as it arrives: `id:`, `event:`, `data:` lines, comments, blank-line dispatch.
 * @param {(frame: SseEvent) => void} onFrame
 * @param {(text: string) => void} onComment
 */
export function sseParser(onFrame, onComment) {
  let buffer = "";
  /** @type {string[]} */
  let data = [];
  let event = "";
  /** @type {string | undefined} */
  let id;
  const line = (/** @type {string} */ text) => {
    if (text === "") {
      if (data.length) onFrame({ id, event: event || "message", data: data.join("\n") });
      data = [];
      event = "";
      id = undefined;
      return;
    }
    if (text.startsWith(":")) return onComment(text.slice(1).trim());
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
  };
  return {
    push(/** @type {string} */ text) {
      buffer += text;
      const ends = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = ends.exec(buffer); match; match = ends.exec(buffer)) {
        // A lone \r at the end may be the first half of \r\n.
        if (match[0] === "\r" && match.index === buffer.length - 1) break;
        line(buffer.slice(start, match.index));
        start = ends.lastIndex;
      }
      buffer = buffer.slice(start);
    },
  };
}
