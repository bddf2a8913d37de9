import type { Element } from "domhandler";
import { parseSrcset } from "srcset";
import { elementBeside, elementChildren, isElement } from "../dom.ts";
import { resolveUrl } from "../resolve-url.ts";

/**
 * Where an image shows its picture from. Lazy-loading pages put a stand-in in `src` (often a data: URL, which
 * resolveUrl refuses) and the picture in `data-src` (WP Rocket's `data-lazy-src`, jQuery Lazy Load's `data-original`)
 * or a srcset, or repeat the image in a <noscript> after it for
 * browsers without script, as this reader is.
 */

/** The <img> alone in a <noscript> right after the image (whitespace between): the picture the stand-in waits for. */
export function noscriptImage(image: Element): Element | undefined {
  const next = elementBeside(image);
  if (next?.name !== "noscript") return undefined;
  const [found] = elementChildren(next, 1) ?? [];
  return found?.name === "img" ? found : undefined;
}

/**
 * The image's URL: what a lazy loader will show (its data-src, else the widest candidate of its data-srcset, under the
 * names the common loaders give them), else its src, else the widest candidate of its srcset; an image with none of
 * these in a <picture> (Medium's) shows its first <source> that has one.
 */
export function imageUrl(image: Element, baseUrl: string): string | undefined {
  const resolved = (value: string | undefined): string | undefined => (value === undefined ? undefined : resolveUrl(value, baseUrl));
  const { src, "data-src": dataSrc, "data-lazy-src": lazySrc, "data-original": original } = image.attribs;
  const own =
    resolved(dataSrc ?? lazySrc ?? original) ??
    resolved(widestOf(image, "data-srcset") ?? widestOf(image, "data-lazy-srcset")) ??
    resolved(src) ??
    resolved(widestOf(image, "srcset"));
  if (own !== undefined || !image.parent || !isElement(image.parent) || image.parent.name !== "picture") return own;
  for (const source of image.parent.children) {
    if (!isElement(source) || source.name !== "source") continue;
    const url = resolved(widestOf(source, "data-srcset")) ?? resolved(widestOf(source, "srcset"));
    if (url !== undefined) return url;
  }
  return undefined;
}

const widestOf = (element: Element, attribute: "srcset" | "data-srcset" | "data-lazy-srcset"): string | undefined => widest(element.attribs[attribute]);

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
