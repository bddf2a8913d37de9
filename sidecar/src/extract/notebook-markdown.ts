import { fencedBlock } from "./markdown-syntax.ts";
import { oneLine } from "./whitespace.ts";

/** A Jupyter notebook (nbformat 4, and 3's worksheets) as far as it is read here. */
interface Notebook {
  nbformat: unknown;
  cells?: unknown[];
  worksheets?: Array<{ cells?: unknown[] }>;
  metadata?: { title?: unknown; kernelspec?: { language?: unknown }; language_info?: { name?: unknown } };
}

interface Cell {
  cell_type?: unknown;
  source?: unknown;
  /** nbformat 3 keeps a code cell's source here. */
  input?: unknown;
  language?: unknown;
  outputs?: unknown[];
}

interface Output {
  output_type?: unknown;
  text?: unknown;
  data?: Record<string, unknown>;
  ename?: unknown;
  evalue?: unknown;
}

/** A number as JSON.parse gives it, or as the JSON handler keeps it (its source text, JSON.rawJSON). */
const isJsonNumber = (value: unknown): boolean => typeof value === "number" || (typeof value === "object" && value !== null && typeof (value as { rawJSON?: unknown }).rawJSON === "string");

/** Whether a parsed JSON value is a notebook: an nbformat number and its cells. */
export function isNotebook(value: unknown): value is Notebook {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const notebook = value as Partial<Notebook>;
  return isJsonNumber(notebook.nbformat) && (Array.isArray(notebook.cells) || Array.isArray(notebook.worksheets));
}

/** nbformat's multiline strings are a string or a list of lines. */
const joined = (value: unknown): string => (Array.isArray(value) ? value.filter((line) => typeof line === "string").join("") : typeof value === "string" ? value : "");

/**
 * The text without the newlines that end it. By hand: a pattern for a newline run at the end is tried from every
 * newline and reads each run to its end, so a cell of blank lines took time quadratic in them.
 */
function withoutFinalNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x0a) end--;
  return text.slice(0, end);
}

/** What a code cell printed and returned, as text: Markdown results as they are, text in plain fences; pictures are left out. */
function outputMarkdown(output: Output): string | undefined {
  if (output.output_type === "stream") return joined(output.text).trim() ? fencedBlock(withoutFinalNewlines(joined(output.text))) : undefined;
  if (output.output_type === "error") return fencedBlock(`${joined(output.ename)}: ${joined(output.evalue)}`);
  const data = output.data ?? {};
  const markdown = joined(data["text/markdown"]).trim();
  if (markdown) return markdown;
  const plain = withoutFinalNewlines(joined(data["text/plain"] ?? output.text));
  return plain.trim() ? fencedBlock(plain) : undefined;
}

/**
 * A notebook as Markdown in cell order: Markdown cells as written, code cells fenced in the kernel's
 * language followed by their outputs, raw cells fenced. The title is the notebook's own, else its first
 * heading.
 */
export function notebookMarkdown(notebook: Notebook): { title?: string; markdown: string } {
  const language = joined(notebook.metadata?.kernelspec?.language) || joined(notebook.metadata?.language_info?.name) || "python";
  const cells = (notebook.cells ?? notebook.worksheets?.flatMap((sheet) => sheet.cells ?? []) ?? []) as Cell[];
  const blocks: string[] = [];
  let heading: string | undefined;
  for (const cell of cells) {
    if (typeof cell !== "object" || cell === null) continue;
    const source = withoutFinalNewlines(joined(cell.source ?? cell.input));
    if (cell.cell_type === "markdown" || cell.cell_type === "heading") {
      if (source.trim()) blocks.push(source.trim());
      heading ??= /^#\s+(.+)$/m.exec(source)?.[1];
    } else if (cell.cell_type === "code") {
      if (source.trim()) blocks.push(fencedBlock(source, joined(cell.language) || language));
      for (const output of (cell.outputs ?? []) as Output[]) {
        const text = typeof output === "object" && output !== null ? outputMarkdown(output) : undefined;
        if (text) blocks.push(text);
      }
    } else if (source.trim()) blocks.push(fencedBlock(source));
  }
  const markdown = blocks.join("\n\n");
  const title = oneLine(joined(notebook.metadata?.title)) || oneLine(heading ?? "");
  return title ? { title, markdown } : { markdown };
}
