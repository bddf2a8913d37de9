import { linkTarget, type PageLink } from "../extract/page-links.ts";

/**
 * The llms.txt proposal lists a site's pages as Markdown list items `- [name](url): notes`. Only those
 * link destinations are read, so a Markdown parser (a dependency for one construct) is not used:
 * a list item's leading link is matched in linear time, and nothing else of the file is interpreted.
 */
const LIST_LINK = /^\s*[-*+]\s+\[([^\]\n]{0,500})\]\(\s*<?([^)\s>]{1,4096})>?(?:\s+"[^"\n]*")?\s*\)/;

/** The pages an llms.txt file lists, in order, at most `max`. */
export function llmsTxtLinks(text: string, fileUrl: URL, max: number): PageLink[] {
  const links = new Map<string, PageLink>();
  for (const line of text.split("\n")) {
    const m = LIST_LINK.exec(line);
    const url = m && linkTarget(m[2]!, fileUrl);
    if (!url || links.has(url)) continue;
    const title = m[1]!.trim();
    links.set(url, { url, ...(title && { title }) });
    if (links.size >= max) break;
  }
  return [...links.values()];
}
