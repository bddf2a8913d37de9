// @ts-check
// Text shaping for display: lines of a field, long texts clipped, values as JSON, sizes.

export const MAX_SHOWN_CHARS = 100_000;

export const lines = (/** @type {string} */ text) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The shown start of a text of `total` characters, and how many more there are. */
export const clipped = (/** @type {string} */ shown, /** @type {number} */ total) => (total > shown.length ? `${shown}\n\n… (${total - shown.length} more characters not shown)` : shown);
export const clip = (/** @type {string} */ text) => clipped(text.slice(0, MAX_SHOWN_CHARS), text.length);

export const json = (/** @type {unknown} */ value) => {
  try {
    return clip(JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    return String(value);
  }
};

/** @param {unknown} n */
export function formatBytes(n) {
  if (typeof n !== "number") return String(n ?? "—");
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}
