import { isPlainObject } from "@edge-web/shared";
import { pairSafe } from "../../tools/cap-content.ts";

/** A page's text inside a tool result, where it sits, and how get_search_content reads the rest of it. */
interface PageSlot {
  path: Array<string | number>;
  text: string;
  /** get_search_content's picker for this page, and where its text starts in the stored page. */
  picker: Record<string, unknown>;
  base: number;
}

/** The fields of get_search_content's input that pick one page. */
const PICKERS = ["urlIndex", "url", "queryIndex", "query", "resultIndex"] as const;

/** Every string `content` in `value` (pages, passages, documents), with the picker that reads it again. */
function pageSlots(value: unknown, input: unknown): PageSlot[] {
  const slots: PageSlot[] = [];
  const fromInput = isPlainObject(input) ? Object.fromEntries(PICKERS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]])) : {};
  const walk = (node: unknown, path: Array<string | number>) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, i]));
    if (!isPlainObject(node)) return;
    if (typeof node.content === "string") {
      slots.push({ path: [...path, "content"], text: node.content, picker: pickerOf(path, fromInput), base: typeof node.offset === "number" && path.length === 0 ? node.offset : 0 });
    }
    for (const [key, inner] of Object.entries(node)) if (key !== "content") walk(inner, [...path, key]);
  };
  walk(value, []);
  return slots;
}

/** results[i] → urlIndex i; queries[q].results[r] → queryIndex q, resultIndex r; a top-level page → urlIndex 0 or the call's own picker. */
function pickerOf(path: Array<string | number>, fromInput: Record<string, unknown>): Record<string, unknown> {
  const rest = path[0] === "result" ? path.slice(1) : path;
  if (rest[0] === "results" && typeof rest[1] === "number") return { urlIndex: rest[1] };
  if (rest[0] === "queries" && typeof rest[1] === "number" && rest[2] === "results" && typeof rest[3] === "number") return { queryIndex: rest[1], resultIndex: rest[3] };
  if (rest.length === 0) return Object.keys(fromInput).length > 0 ? fromInput : { urlIndex: 0 };
  return {};
}

/** Where to cut `text` to at most `chars`: the last paragraph break in the second half, else the last line break there, else at `chars`. */
export function paragraphCut(text: string, chars: number): number {
  if (text.length <= chars) return text.length;
  const window = text.slice(0, chars);
  for (const mark of ["\n\n", "\n"]) {
    const at = window.lastIndexOf(mark);
    if (at >= chars / 2) return at;
  }
  return pairSafe(text, chars);
}

/** Shares `budget` among texts: each gets what it needs up to an equal share of what is left (water-filling). */
function shares(lengths: number[], budget: number): number[] {
  const out = lengths.map(() => 0);
  let left = budget;
  let open = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  while (open.length > 0) {
    const share = Math.floor(left / open.length);
    const i = open[0]!;
    const take = Math.min(lengths[i]!, share);
    out[i] = take;
    left -= take;
    open = open.slice(1);
  }
  return out;
}

function setPath(target: unknown, path: Array<string | number>, value: string): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

const NOTE_CHARS = 400;

/**
 * The JSON of what the model sees of a tool's answer: the answer's own when it fits `maxChars`, else
 * a copy's whose page texts share what is left of `maxChars` after the rest of the answer, each cut at a
 * paragraph break and ending with a line saying the full text is stored and how to read on
 * (get_search_content with the answer's responseId, the page's picker, offset and maxChars, or find).
 * The stored result and the stream keep the whole answer.
 */
function budgetedJson(output: unknown, input: unknown, maxChars: number): string | undefined {
  const whole = JSON.stringify(output) as string | undefined;
  if (whole === undefined || whole.length <= maxChars) return whole;
  const slots = pageSlots(output, input);
  if (slots.length === 0) return whole;
  const responseId = isPlainObject(output) && typeof output.responseId === "string" ? output.responseId : isPlainObject(input) && typeof input.responseId === "string" ? input.responseId : undefined;
  const textChars = slots.reduce((n, slot) => n + JSON.stringify(slot.text).length, 0);
  const overhead = whole.length - textChars;
  const budget = Math.max(0, maxChars - overhead - slots.length * NOTE_CHARS);
  // JSON escapes make a text longer than its characters; shares are of the raw text, scaled.
  const scale = textChars / Math.max(1, slots.reduce((n, slot) => n + slot.text.length, 0));
  const allowed = shares(slots.map((slot) => slot.text.length), Math.floor(budget / scale));
  const copy = structuredClone(output);
  for (const [i, slot] of slots.entries()) {
    if (allowed[i]! >= slot.text.length) continue;
    const cut = paragraphCut(slot.text, allowed[i]!);
    setPath(copy, slot.path, `${slot.text.slice(0, cut)}\n\n${readOnNote(responseId, slot, cut)}`);
  }
  return JSON.stringify(copy);
}

function readOnNote(responseId: string | undefined, slot: PageSlot, cut: number): string {
  const total = slot.base + slot.text.length;
  const next = slot.base + cut;
  const shown = `[Cut at character ${next} of ${total} to fit the model's context (settings.agent.maxToolResultChars).`;
  if (!responseId) return `${shown}]`;
  const picker = Object.entries(slot.picker).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ");
  const args = [`responseId: "${responseId}"`, ...(picker ? [picker] : [])].join(", ");
  return `${shown} The full text is stored: read on with get_search_content { ${args}, offset: ${next}, maxChars: 8000 }, or pass find: "<phrase or /regex/>" to get only the passages that match.]`;
}

/**
 * A tool's answer as the AI SDK hands it to the model (a tool's `toModelOutput`), within `maxChars`:
 * as its JSON text, which is what a request carries for a JSON result. Made here once, it is not
 * made again on every model call (the SDK's providers serialise JSON results with a replacer, their
 * slow path), and a session's kept history holds the text alone.
 */
export function modelOutputOf(output: unknown, input: unknown, maxChars: number): { type: "text"; value: string } | { type: "json"; value: null } {
  const json = budgetedJson(output, input, maxChars);
  return json === undefined ? { type: "json", value: null } : { type: "text", value: json };
}
