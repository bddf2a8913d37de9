import { Readability } from "@mozilla/readability";
import { Defuddle } from "defuddle/node";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/**
 * The peer stacks a Node service would otherwise use, each on linkedom's DOM: Mozilla's Readability (its text,
 * or its HTML through Turndown for Markdown), and Defuddle with its own Markdown output.
 */

/**
 * Readability's article as plain text (its textContent), from the page parsed by linkedom. On pages where
 * linkedom leaves <body> empty Readability can throw; that page's output is empty, as a service would show it.
 */
export function readabilityText(html: string): { text: string; html: string } {
  const { document } = parseHTML(html);
  try {
    const article = new Readability(document).parse();
    return { text: article?.textContent ?? "", html: article?.content ?? "" };
  } catch {
    return { text: "", html: "" };
  }
}

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced" });

/** Readability's article HTML as Markdown, the way a Node service would produce what fetch_content does. */
export function readabilityMarkdown(html: string): string {
  return turndown.turndown(readabilityText(html).html);
}

/**
 * Defuddle's main content as Markdown, empty when it throws. useAsync is off: with it Defuddle may ask third-party
 * APIs for pages it cannot read locally, and a bench contacts nothing. Muting the console costs nothing measurable
 * beside the parse.
 */
export async function defuddleMarkdown(html: string, url: string): Promise<string> {
  const { document } = parseHTML(html);
  // Defuddle reports every page's broken JSON-LD on the console; the bench's output is its figures.
  const report = console.error;
  console.error = () => {};
  try {
    const result = await Defuddle(document as unknown as Document, url, { markdown: true, useAsync: false });
    return result.content;
  } catch {
    return "";
  } finally {
    console.error = report;
  }
}
