import type { Element } from "domhandler";
import type { ContentHandler, HandlerOutput } from "./content-handler.ts";
import { isElement, textContent } from "./dom.ts";
import { escapeInline, escapeText, fencedBlock } from "./markdown-syntax.ts";
import { parseXml } from "./parse-xml.ts";
import { htmlToPlainText, plainText } from "./plain-text.ts";
import { resolveUrl } from "./resolve-url.ts";
import { normalizeNewlines, oneLine } from "./whitespace.ts";

/** One feed entry, already reduced to plain text. */
interface FeedItem {
  title?: string;
  link?: string;
  date?: { label: "Published" | "Updated"; value: string };
  text?: string;
}

interface Feed {
  title?: string;
  description?: string;
  items: FeedItem[];
}

function children(parent: Element, name: string): Element[] {
  return parent.children.filter((child): child is Element => isElement(child) && child.name.toLowerCase() === name);
}

function child(parent: Element, name: string): Element | undefined {
  return children(parent, name)[0];
}

function childText(parent: Element, name: string): string | undefined {
  const element = child(parent, name);
  return (element && oneLine(textContent(element))) || undefined;
}

/** RSS descriptions are HTML, escaped or in CDATA, so they are read as HTML. */
function htmlChildText(parent: Element, name: string): string | undefined {
  const element = child(parent, name);
  return (element && htmlToPlainText(textContent(element))) || undefined;
}

/** RSS 2.0 and RSS 1.0 (RDF) items: title, link, date, description (or content:encoded). */
function rssItem(item: Element, baseUrl: string): FeedItem {
  const link = childText(item, "link");
  const date = childText(item, "pubdate") ?? childText(item, "dc:date");
  return {
    title: childText(item, "title"),
    link: link !== undefined ? resolveUrl(link, baseUrl) : undefined,
    date: date ? { label: "Published", value: date } : undefined,
    text: htmlChildText(item, "description") ?? htmlChildText(item, "content:encoded"),
  };
}

/** Atom text constructs say how to read them: type="html" is escaped HTML, "xhtml" is inline markup, else plain text. */
function atomText(element: Element | undefined): string | undefined {
  if (!element) return undefined;
  const type = element.attribs.type?.toLowerCase();
  const value =
    type === "html" || type === "text/html"
      ? htmlToPlainText(textContent(element))
      : type === "xhtml"
        ? plainText(element)
        : oneLine(textContent(element));
  return value || undefined;
}

/** Atom names are matched with the feed element's prefix (usually none), so media:title never passes for title. */
function atomEntry(entry: Element, prefix: string, baseUrl: string): FeedItem {
  const links = children(entry, `${prefix}link`);
  const link = links.find((l) => (l.attribs.rel ?? "alternate") === "alternate") ?? links[0];
  const published = childText(entry, `${prefix}published`);
  const updated = childText(entry, `${prefix}updated`);
  return {
    title: atomText(child(entry, `${prefix}title`)),
    link: link?.attribs.href !== undefined ? resolveUrl(link.attribs.href, baseUrl) : undefined,
    date: published ? { label: "Published", value: published } : updated ? { label: "Updated", value: updated } : undefined,
    text: atomText(child(entry, `${prefix}summary`)) ?? atomText(child(entry, `${prefix}content`)),
  };
}

function readFeed(root: Element, baseUrl: string): Feed | undefined {
  const name = root.name.toLowerCase();
  const colon = name.indexOf(":");
  const prefix = colon === -1 ? "" : name.slice(0, colon + 1);
  if (name === `${prefix}feed`) {
    return {
      title: atomText(child(root, `${prefix}title`)),
      description: atomText(child(root, `${prefix}subtitle`)),
      items: children(root, `${prefix}entry`).map((entry) => atomEntry(entry, prefix, baseUrl)),
    };
  }
  const channel = name === "rss" || name === "rdf:rdf" ? child(root, "channel") : undefined;
  if (!channel) return undefined;
  // RSS 2.0 items sit in the channel; RSS 1.0 (RDF) items are the channel's siblings.
  const items = name === "rss" ? children(channel, "item") : children(root, "item");
  return {
    title: childText(channel, "title"),
    description: htmlChildText(channel, "description"),
    items: items.map((item) => rssItem(item, baseUrl)),
  };
}

/** Titles and dates are put on one line: an HTML title can come out of plainText as several. */
function feedMarkdown(feed: Feed): string {
  const blocks: string[] = [];
  if (feed.title) blocks.push(`# ${escapeInline(oneLine(feed.title))}`);
  if (feed.description) blocks.push(escapeText(feed.description));
  for (const item of feed.items) {
    if (item.title) blocks.push(`## ${escapeInline(oneLine(item.title))}`);
    const facts = [
      ...(item.link ? [`- Link: <${item.link}>`] : []),
      ...(item.date ? [`- ${item.date.label}: ${escapeInline(oneLine(item.date.value))}`] : []),
    ];
    if (facts.length > 0) blocks.push(facts.join("\n"));
    if (item.text) blocks.push(escapeText(item.text));
  }
  return blocks.join("\n\n");
}

/** RSS, Atom and RDF feeds as a readable list of entries; any other XML as a fenced xml block. */
export const xmlHandler: ContentHandler = {
  kind: "xml",
  extract({ text, url }): HandlerOutput {
    const source = normalizeNewlines(text).trim();
    const root = parseXml(source).children.find(isElement);
    const feed = root ? readFeed(root, url) : undefined;
    if (!feed) return { content: fencedBlock(source, "xml") };
    const content = feedMarkdown(feed);
    return feed.title ? { title: feed.title, content } : { content };
  },
};
