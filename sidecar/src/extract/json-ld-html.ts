import { isObject, type JsonObject, jsonLdNodes, text } from "./json-ld.ts";

/**
 * The text a page's JSON-LD (schema.org, the same in every language) gives for what the page is, as HTML: an
 * article's body, else a description, followed by a recipe's ingredients and a how-to's or recipe's steps.
 * Pages rendered by script often carry their text only there.
 */

/** A step or list nested deeper than this is not followed: the data is the page's, and may nest without end. */
const MAX_STEP_DEPTH = 4;

/** A tag opens: "<" and a letter. A tag is markup when a ">" follows the first one (it follows any later one only if so). */
const TAG_OPEN = /<[a-z]/i;

function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Text that is already HTML stays so; plain text becomes one paragraph per line. */
function asHtml(value: string): string {
  // Not one pattern to the ">" from each tag open: with no ">", it reads the rest of the text from every "<".
  const open = value.search(TAG_OPEN);
  if (open !== -1 && value.indexOf(">", open + 2) !== -1) return value;
  return value
    .split(/\n+/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join("");
}

/** Steps as schema.org writes them: text, HowToStep (text, or directions and tips inside), HowToSection (a named list of steps). */
function stepsHtml(value: unknown, depth: number): string {
  if (depth > MAX_STEP_DEPTH) return "";
  if (typeof value === "string") return asHtml(value);
  if (Array.isArray(value)) return value.map((item) => stepsHtml(item, Array.isArray(item) ? depth + 1 : depth)).join("");
  if (!isObject(value)) return "";
  const name = text(value.name);
  const body = text(value.text);
  const inner = stepsHtml(value.itemListElement, depth + 1);
  // A step's name is often its text cut short; then it says nothing more.
  const heading = name && !(body ?? "").startsWith(name.replace(/…$|\.{3}$/, "")) ? `<h3>${escapeHtml(name)}</h3>` : "";
  return `${heading}${body ? asHtml(body) : ""}${inner}`;
}

function nodeHtml(node: JsonObject): string {
  const main = text(node.articleBody) ?? text(node.text) ?? text(node.description);
  const ingredients = node.recipeIngredient ?? node.ingredients;
  const list = Array.isArray(ingredients)
    ? ingredients.flatMap((item) => (typeof item === "string" && item.trim() ? [`<li>${escapeHtml(item.trim())}</li>`] : []))
    : [];
  return [
    main ? asHtml(main) : "",
    list.length > 0 ? `<ul>${list.join("")}</ul>` : "",
    stepsHtml(node.recipeInstructions ?? node.step, 0),
  ].join("");
}

/** The longest such text among the document's nodes, or undefined when none has any. */
export function jsonLdHtml(value: unknown): string | undefined {
  let best = "";
  for (const node of jsonLdNodes(value)) {
    const html = nodeHtml(node);
    if (html.length > best.length) best = html;
  }
  return best || undefined;
}
