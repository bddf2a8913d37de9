import { type Options, selectAll } from "css-select";
import { type AnyNode, type Document, type Element, isCDATA, isTag, isText } from "domhandler";
import * as DomUtils from "domutils";
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

/**
 * Reads of the tree the caller's selectors may take on one page, all of them together (about 0.6 s), shared out
 * evenly, so that one costly selector does not stop the others. :has(), sibling combinators and :nth-… can read
 * every element's siblings or subtree for every element: on a page of 20,000 paragraphs one `:has(~ q)` took 27 s,
 * on the thread that serves every fetch.
 */
export const MAX_SELECTOR_STEPS = 10_000_000;

class SelectorBudgetSpent extends Error {}

/**
 * css-select's reader of the tree (domutils), each read counted against `budget`. Text is read node by node, each
 * counted, where domutils reads a subtree in one call.
 */
function countedAdapter(budget: { left: number }): NonNullable<Options<AnyNode, Element>["adapter"]> {
  const spend = (): void => {
    if (--budget.left < 0) throw new SelectorBudgetSpent();
  };
  const counted =
    <A extends unknown[], R>(read: (...args: A) => R) =>
    (...args: A): R => {
      spend();
      return read(...args);
    };
  const getText = (node: AnyNode): string => {
    spend();
    if (isTag(node) && node.name === "br") return "\n";
    if (isText(node)) return node.data;
    if (!isTag(node) && !isCDATA(node)) return "";
    let text = "";
    for (const child of node.children) text += getText(child);
    return text;
  };
  return {
    isTag: (node: AnyNode): node is Element => {
      spend();
      return isTag(node);
    },
    getAttributeValue: counted(DomUtils.getAttributeValue),
    getChildren: counted(DomUtils.getChildren),
    getName: counted(DomUtils.getName),
    getParent: counted(DomUtils.getParent) as (node: Element) => AnyNode | null,
    getSiblings: counted(DomUtils.getSiblings),
    prevElementSibling: counted(DomUtils.prevElementSibling),
    getText,
    hasAttrib: counted(DomUtils.hasAttrib),
    removeSubsets: counted(DomUtils.removeSubsets),
  };
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
  const steps = Math.floor(MAX_SELECTOR_STEPS / ((selectors.exclude?.length ?? 0) + (selectors.include?.length ?? 0)));
  /** The selector's matches, or undefined (with a warning) when css-select cannot apply it. */
  const matches = (field: string, selector: string): Element[] | undefined => {
    try {
      return selectAll<AnyNode, Element>(selector, document, { adapter: countedAdapter({ left: steps }) });
    } catch (error) {
      const reason =
        error instanceof SelectorBudgetSpent
          ? `it would read this page's elements more than ${steps.toLocaleString("en")} times, its share of the call's selectors; :has(), sibling combinators and :nth-… over long lists cost most`
          : errorReason(error);
      warnings.push(`${field}: ${JSON.stringify(selector)} could not be applied (${reason})`);
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
