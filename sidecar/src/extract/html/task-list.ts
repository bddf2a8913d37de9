import type { Element } from "domhandler";
import { elementFrom, isElement, isText } from "../dom.ts";

/** Where a task's checkbox sits in its item: first, or first in the item's paragraph or label (a loose list's). */
const CHECKBOX_HOLDERS = new Set(["p", "label", "span"]);

/**
 * The first element or non-blank text of parent, skipping blank text and empty elements other than a checkbox (GitLab's
 * `<task-button>` before each task's box), which show nothing.
 */
function firstChild(parent: Element): Element | undefined {
  for (const child of parent.children) {
    if (isElement(child) && child.children.length === 0 && child.name !== "input") continue;
    if (isElement(child)) return child;
    if (isText(child) && child.data.trim() !== "") return undefined;
  }
  return undefined;
}

const isCheckbox = (element: Element): boolean => element.name === "input" && element.attribs.type?.trim().toLowerCase() === "checkbox";

const TASK_NAME = /task/i;

/**
 * A task's checkbox shows the task's state: Markdown renderers write it disabled (GitHub's, GitLab's, markdown-it's,
 * pandoc's, goldmark's) or name it for the task list, and a checked one shows it anyway. An enabled, unchecked box with
 * no such name is a control for the reader (a recipe's ingredients to tick off while cooking).
 */
const showsState = (checkbox: Element, item: Element): boolean =>
  checkbox.attribs.disabled !== undefined || checkbox.attribs.checked !== undefined || TASK_NAME.test(checkbox.attribs.class ?? "") || TASK_NAME.test(item.attribs.class ?? "");

/**
 * A task list's item opens with a checkbox showing its state (Markdown renderers' `- [x] done`): the checkbox, or
 * undefined for any other item.
 */
export function taskCheckbox(item: Element): Element | undefined {
  if (item.name !== "li") return undefined;
  const first = firstChild(item);
  const inner = first && !isCheckbox(first) && CHECKBOX_HOLDERS.has(first.name) ? firstChild(first) : first;
  return inner && isCheckbox(inner) && showsState(inner, item) ? inner : undefined;
}

/** Whether a list is a task list: its first item opens with a checkbox. */
export const isTaskList = (list: Element): boolean => {
  const item = elementFrom(list.children[0]);
  return item !== undefined && taskCheckbox(item) !== undefined;
};
