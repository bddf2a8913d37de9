import type { HandlerOutput } from "../extract/content-handler.ts";
import { SELECTED } from "../extract/html-handler.ts";

/** Under this many characters of extracted text an HTML page counts as "short". */
const SHORT_TEXT_CHARS = 200;
/** More script tags than this, with little body text, marks a page rendered by JavaScript. */
const JS_HEAVY_SCRIPT_TAGS = 3;
/**
 * An app shell shows at most this much body text (its header, menu and footer) around the mount
 * point its script fills; a page showing more is read as served whatever its markup says (a blog
 * whose comments widget asks for JavaScript in a <noscript>).
 */
const APP_SHELL_TEXT_CHARS = 1_000;

/**
 * "short-html" and "js-heavy-html" are web.jinaTriggers' names; "empty-app-root" and
 * "noscript-asks-for-js" only ever ask for rendering (the reader service is a third party).
 */
export type ScriptBuiltSignal = "short-html" | "js-heavy-html" | "empty-app-root" | "noscript-asks-for-js";

/**
 * What in a static HTML extraction suggests its text is written by scripts. What the caller's
 * includeSelectors picked is short by choice, which says nothing of how the page was built.
 */
export function scriptBuiltSignals(extracted: HandlerOutput): Set<ScriptBuiltSignal> {
  const found = new Set<ScriptBuiltSignal>();
  if (extracted.content.trim().length < SHORT_TEXT_CHARS && extracted.metadata?.extraction !== SELECTED) found.add("short-html");
  const signals = extracted.signals;
  if (signals === undefined) return found;
  if (signals.bodyTextChars < SHORT_TEXT_CHARS && signals.scriptTags > JS_HEAVY_SCRIPT_TAGS) found.add("js-heavy-html");
  if (signals.bodyTextChars < APP_SHELL_TEXT_CHARS) {
    if (signals.emptyAppRoot) found.add("empty-app-root");
    if (signals.noscriptAsksForScript) found.add("noscript-asks-for-js");
  }
  return found;
}
