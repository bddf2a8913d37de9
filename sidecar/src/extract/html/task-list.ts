import type { Element } from "domhandler";
import { elementFrom, isElement, isText } from "../dom.ts";

/** Where a task's checkbox sits in its item: first, or first in the item's paragraph or label (a loose list's). */
const CHECKBOX_HOLDERS = new Set(["p", "label", "span"]);

/** The first element or non-blank text of parent, skipping blank text. */
function firstChild(parent: Element): Element | undefined {
  for (const child of parent.children) {
    if (isElement(child)) return child;
    if (isText(child) && child.data.trim() !== "") return undefined;
  }
  return undefined;
}

const isCheckbox = (element: Element): boolean => element.name === "input" && element.attribs.type?.trim().toLowerCase() === "checkbox";

/**
 * A task list's item opens with a checkbox (Markdown renderers' `- [x] done`: GitHub's, GitLab's, markdown-it's): the
 * checkbox, or undefined for any other item.
 */
export function taskCheckbox(item: Element): Element | undefined {
  if (item.name !== "li") return undefined;
  const first = firstChild(item);
  if (!first || isCheckbox(first)) return first;
  const inner = CHECKBOX_HOLDERS.has(first.name) ? firstChild(first) : undefined;
  return inner && isCheckbox(inner) ? inner : undefined;
}

/** Whether a list is a task list: its first item opens with a checkbox. */
export const isTaskList = (list: Element): boolean => {
  const item = elementFrom(list.children[0]);
  return item !== undefined && taskCheckbox(item) !== undefined;
};
