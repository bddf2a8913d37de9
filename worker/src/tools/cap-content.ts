import { isPlainObject } from "@edge-web/shared";

/** `index`, or one before it when it falls between the halves of a surrogate pair. */
export function pairSafe(text: string, index: number): number {
  return index > 0 && index < text.length && /[\uD800-\uDBFF]/.test(text[index - 1]!) && /[\uDC00-\uDFFF]/.test(text[index]!) ? index - 1 : index;
}

/** The longest prefix of `text` within `chars` that does not split a surrogate pair. */
export function cutText(text: string, chars: number): string {
  if (text.length <= chars) return text;
  return text.slice(0, pairSafe(text, chars));
}

/**
 * Bounds the page contents a stored copy may hold (web.maxStoredContentChars): every page — an
 * object with a string `content` and a boolean `truncated`, wherever it sits in `value` — takes
 * from one budget in order; what does not fit is cut and marked truncated. Answers `value` itself
 * when nothing had to be cut, else a copy (the input is never changed).
 */
export function capContent<T>(value: T, maxChars: number): T {
  let budget = maxChars;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      const items = node.map(walk);
      return items.some((item, i) => item !== node[i]) ? items : node;
    }
    if (!isPlainObject(node)) return node;
    if (typeof node.content === "string" && typeof node.truncated === "boolean") {
      const keep = Math.min(node.content.length, budget);
      budget -= keep;
      return keep === node.content.length ? node : { ...node, content: cutText(node.content, keep), truncated: true };
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, inner] of Object.entries(node)) {
      const capped = walk(inner);
      if (capped !== inner) (copy ??= { ...node })[key] = capped;
    }
    return copy ?? node;
  };
  return walk(value) as T;
}
