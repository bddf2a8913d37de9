import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** The peer stack a Node service would otherwise use: linkedom's DOM, Mozilla's Readability, Turndown for Markdown. */

/** Readability's article as plain text (its textContent), from the page parsed by linkedom. */
export function readabilityText(html: string): { text: string; html: string } {
  const { document } = parseHTML(html);
  const article = new Readability(document).parse();
  return { text: article?.textContent ?? "", html: article?.content ?? "" };
}

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });

/** Readability's article HTML as Markdown, the way a Node service would produce what fetch_content does. */
export function readabilityMarkdown(html: string): string {
  return turndown.turndown(readabilityText(html).html);
}
