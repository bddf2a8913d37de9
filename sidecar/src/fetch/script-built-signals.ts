import type { HandlerOutput } from "../extract/content-handler.ts";

/** Under this many characters of extracted text an HTML page counts as "short". */
const SHORT_TEXT_CHARS = 200;
/** More script tags than this, with little body text, marks a page rendered by JavaScript. */
const JS_HEAVY_SCRIPT_TAGS = 3;

export type ScriptBuiltSignal = "short-html" | "js-heavy-html";

/** What in a static HTML extraction suggests its text is written by scripts (web.jinaTriggers names them). */
export function scriptBuiltSignals(extracted: HandlerOutput): Set<ScriptBuiltSignal> {
  const found = new Set<ScriptBuiltSignal>();
  if (extracted.content.trim().length < SHORT_TEXT_CHARS) found.add("short-html");
  const signals = extracted.signals;
  if (signals !== undefined && signals.bodyTextChars < SHORT_TEXT_CHARS && signals.scriptTags > JS_HEAVY_SCRIPT_TAGS) found.add("js-heavy-html");
  return found;
}
