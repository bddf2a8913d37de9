import type { Element } from "domhandler";
import { parseSrcset } from "srcset";
import { isElement, isText } from "../dom.ts";
import { resolveUrl } from "../resolve-url.ts";

/**
 * Where an image shows its picture from. Lazy-loading pages put a stand-in in `src` (often a data: URL, which
 * resolveUrl refuses) and the picture in `data-src` or a srcset, or repeat the image in a <noscript> after it for
 * browsers without script, as this reader is.
 */

/** The <img> alone in a <noscript> right after the image (whitespace between): the picture the stand-in waits for. */
export function noscriptImage(image: Element): Element | undefined {
  let next = image.next;
  while (next && isText(next) && next.data.trim() === "") next = next.next;
  if (!next || !isElement(next) || next.name !== "noscript") return undefined;
  let found: Element | undefined;
  for (const child of next.children) {
    if (isText(child) && child.data.trim() === "") continue;
    if (found || !isElement(child) || child.name !== "img") return undefined;
    found = child;
  }
  return found;
}

/**
 * The image's URL: what a lazy loader will show (its data-src, else the widest candidate of its data-srcset), else its
 * src, else the widest candidate of its srcset.
 */
export function imageUrl(image: Element, baseUrl: string): string | undefined {
  const { src, "data-src": dataSrc, "data-srcset": dataSrcset, srcset } = image.attribs;
  const resolved = (value: string | undefined): string | undefined => (value === undefined ? undefined : resolveUrl(value, baseUrl));
  return resolved(dataSrc) ?? resolved(widest(dataSrcset)) ?? resolved(src) ?? resolved(widest(srcset));
}

/** A srcset's widest candidate (by width, else by pixel density); the first when none says. */
function widest(srcset: string | undefined): string | undefined {
  if (srcset === undefined) return undefined;
  let best: { url: string; size: number } | undefined;
  for (const { url, width, density } of parseSrcset(srcset)) {
    const size = width ?? density ?? 0;
    if (!best || size > best.size) best = { url, size };
  }
  return best?.url;
}
