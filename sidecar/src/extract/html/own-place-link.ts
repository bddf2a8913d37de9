import type { Element } from "domhandler";
import { isElement } from "../dom.ts";
import { HEADING_LEVELS } from "./block-elements.ts";

/** A heading, a term or the section around it holds the link to itself this few levels up at most. */
const OWN_PLACE_LEVELS = 3;

/**
 * Whether a link in a heading or a term leads to it or to the section around it: `#syntax` in `<h2 id="syntax">`,
 * `#callbackfn` in `<dt id="callbackfn">`, `#/guide?id=syntax` (docsify's) in `<h2 id="syntax">`. Such a link is its title's permalink, not a link away from the text. (A
 * comment's permalink to itself is its address, and stays.)
 */
export function linksToItsOwnPlace(link: Element, href: string): boolean {
  const target = href.trim();
  if (!target.startsWith("#") || target.length === 1) return false;
  // A hash router's link names the place in the fragment's own query (docsify's `#/guide?id=syntax`).
  const query = target.indexOf("?");
  const id = query < 0 ? target.slice(1) : new URLSearchParams(target.slice(query + 1)).get("id");
  if (!id) return false;
  let titled = false;
  let at = link.parent;
  for (let level = 0; level < OWN_PLACE_LEVELS && at && isElement(at); level++, at = at.parent) {
    titled ||= HEADING_LEVELS[at.name] !== undefined || at.name === "dt";
    if (titled && at.attribs.id === id) return true;
  }
  return false;
}
