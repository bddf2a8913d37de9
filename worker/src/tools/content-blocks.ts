import { pairSafe } from "./cap-content.ts";

/** A block of a page's content: a heading, or text (a paragraph, a list, a table, a quote, fenced code). */
export interface ContentBlock {
  /** Where the block's text starts and ends (exclusive) in the content, without the blank lines around it. */
  start: number;
  end: number;
  heading?: { level: number; text: string };
}

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The content's blocks in order, as a Markdown reader sees them: blank lines part them, except
 * inside fenced code; an ATX heading is a block of its own, and a single line underlined with
 * `=` or `-` is a heading too. Plain text is read the same way (its paragraphs are blocks).
 */
export function contentBlocks(content: string): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  let open: { start: number; end: number; lines: number } | undefined;
  /** While inside fenced code: the line that closes it. */
  let fenceEnd: RegExp | undefined;
  const close = () => {
    if (open) blocks.push({ start: open.start, end: open.end });
    open = undefined;
  };
  for (let lineStart = 0; lineStart <= content.length; ) {
    const newline = content.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? content.length : newline;
    const line = content.slice(lineStart, lineEnd);
    const next = lineEnd + 1;
    if (fenceEnd && open) {
      open.end = lineEnd;
      if (fenceEnd.test(line)) fenceEnd = undefined;
    } else if (line.trim() === "") {
      close();
    } else {
      const atx = ATX_HEADING.exec(line);
      const setext = SETEXT_UNDERLINE.exec(line);
      if (atx) {
        close();
        blocks.push({ start: lineStart, end: lineEnd, heading: { level: atx[1]!.length, text: (atx[2] ?? "").trim() } });
      } else if (setext && open?.lines === 1) {
        const text = content.slice(open.start, open.end).trim();
        blocks.push({ start: open.start, end: lineEnd, heading: { level: setext[1]![0] === "=" ? 1 : 2, text } });
        open = undefined;
      } else {
        const leading = line.length - line.trimStart().length;
        if (open) {
          open.end = lineEnd;
          open.lines++;
        } else open = { start: lineStart + leading, end: lineEnd, lines: 1 };
        const fence = FENCE.exec(line)?.[1];
        if (fence) fenceEnd = new RegExp(`^ {0,3}\\${fence[0]}{${fence.length},}[ \\t]*$`);
      }
    }
    lineStart = next;
  }
  close();
  for (const block of blocks) while (block.end > block.start && /\s/.test(content[block.end - 1]!)) block.end--;
  return blocks.filter((block) => block.end > block.start);
}

/** Where a piece may end, best first: a line break, a sentence's end, a space. */
const BREAKS: Array<(content: string, at: number) => boolean> = [
  (content, at) => content[at] === "\n",
  (content, at) => /[.!?。！？]/.test(content[at - 1] ?? "") && /\s/.test(content[at] ?? ""),
  (content, at) => /\s/.test(content[at] ?? ""),
];

/**
 * A block cut into pieces of at most `max` characters: each piece ends at the last line break in
 * its second half, else the last sentence end there, else the last space, else at `max` (never
 * between the halves of a surrogate pair). Pieces hold no whitespace at their ends.
 */
export function blockPieces(content: string, block: ContentBlock, max: number): Array<{ start: number; end: number }> {
  const pieces: Array<{ start: number; end: number }> = [];
  let start = block.start;
  while (block.end - start > max) {
    const limit = start + max;
    const floor = start + Math.floor(max / 2);
    let cut = -1;
    for (const isBreak of BREAKS) {
      for (let at = limit; at > floor && cut === -1; at--) if (isBreak(content, at)) cut = at;
      if (cut !== -1) break;
    }
    if (cut === -1) cut = pairSafe(content, limit);
    let end = cut;
    while (end > start && /\s/.test(content[end - 1]!)) end--;
    pieces.push({ start, end });
    start = cut;
    while (start < block.end && /\s/.test(content[start]!)) start++;
  }
  if (block.end > start) pieces.push({ start, end: block.end });
  return pieces;
}
