// @ts-check
// Element helpers: the only way response data reaches the page (as text nodes or textContent, never as HTML).

/** Attributes that load, navigate or submit somewhere: only `safeLink` may set one (an `href`, checked). */
const REFUSED = new Set(["href", "src", "srcset", "srcdoc", "action", "formaction", "xlink:href"]);

export const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @typedef {Node | string | false | null | undefined} Child */

/** Replaces what a slot shows. */
export const show = (/** @type {string} */ slot, /** @type {(Node | string)[]} */ ...nodes) => $(slot).replaceChildren(...nodes);

/**
 * An element with attributes and children. Strings become text nodes; `text` sets textContent.
 * Throws for an `on*` attribute (add a listener instead) and for any URL attribute (links come
 * from `safeLink`), so that no caller can turn data into script or navigation by mistake.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} attrs
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    const name = key.toLowerCase();
    if (name.startsWith("on") || REFUSED.has(name)) throw new TypeError(`h() refuses the attribute "${key}": add listeners with addEventListener and make links with safeLink().`);
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = String(value);
    else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child);
  return node;
}

/**
 * A link only for an absolute http(s) URL (never javascript:, data: or any other scheme); anything else is plain text.
 * @param {unknown} raw
 * @returns {HTMLElement}
 */
export function safeLink(raw, label = raw) {
  let url;
  try {
    url = new URL(String(raw));
  } catch {
    // not a URL
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") return h("span", {}, String(label));
  const link = h("a", { rel: "noopener noreferrer nofollow", target: "_blank" }, String(label));
  // The parsed URL, not the raw text: what is checked is what is linked.
  link.href = url.href;
  return link;
}
