import { selectAll } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import { errorReason } from "../../error-reason.ts";
import type { ContentSelectors } from "../content-handler.ts";
import { isElement, removeNodes, walk } from "../dom.ts";

/** What the caller's selectors made of a page. */
export interface AppliedSelectors {
  /** The elements to read instead of the main content; absent without includeSelectors, or when none matched. */
  included?: Element[];
  /** Each selector that matched nothing or could not be applied, said for parseWarning. */
  warnings: string[];
}

const quoted = (selectors: readonly string[]) => selectors.map((selector) => JSON.stringify(selector)).join(", ");

/**
 * Applies a page request's selectors to its parsed document (css-select over htmlparser2's DOM):
 * first every element excludeSelectors match is taken out of the document, so nothing after it
 * (main-content detection included) sees them; then the elements includeSelectors match are
 * collected in document order, an element inside another match only with it.
 */
export function applySelectors(document: Document, selectors: ContentSelectors): AppliedSelectors {
  const warnings: string[] = [];
  /** The selector's matches, or undefined (with a warning) when css-select cannot apply it. */
  const matches = (field: string, selector: string): Element[] | undefined => {
    try {
      return selectAll<AnyNode, Element>(selector, document);
    } catch (error) {
      warnings.push(`${field}: ${JSON.stringify(selector)} could not be applied (${errorReason(error)})`);
      return undefined;
    }
  };

  const unmatchedExcludes: string[] = [];
  for (const selector of selectors.exclude ?? []) {
    const found = matches("excludeSelectors", selector);
    if (found?.length === 0) unmatchedExcludes.push(selector);
    removeNodes(found ?? []);
  }
  if (unmatchedExcludes.length > 0) warnings.push(`excludeSelectors: ${quoted(unmatchedExcludes)} matched nothing on this page`);
  if (!selectors.include?.length) return { warnings };

  const chosen = new Set<Element>();
  const unmatched: string[] = [];
  for (const selector of selectors.include) {
    const found = matches("includeSelectors", selector);
    if (found?.length === 0) unmatched.push(selector);
    for (const element of found ?? []) chosen.add(element);
  }
  if (chosen.size === 0) {
    warnings.push(`includeSelectors${unmatched.length > 0 ? `: ${quoted(unmatched)}` : ""} matched nothing on this page; its main content is shown instead`);
    return { warnings };
  }
  if (unmatched.length > 0) warnings.push(`includeSelectors: ${quoted(unmatched)} matched nothing on this page`);
  const included: Element[] = [];
  walk(document, (node) => {
    if (!isElement(node)) return false;
    if (!chosen.has(node)) return true;
    included.push(node);
    return false;
  });
  return { included, warnings };
}
