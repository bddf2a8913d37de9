import { describe, expect, it } from "vitest";
import { xmlHandler } from "../src/extract/xml-handler.ts";

const FEED_URL = "https://example.test/blog/feed.xml";
const extract = (text: string) => xmlHandler.extract({ text, url: FEED_URL, mime: "application/xml" });

describe("xmlHandler: RSS 2.0", () => {
  it("channel title and description, then each item with link, date and HTML description as text", () => {
    const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>Example &amp; Co</title>
    <atom:link href="https://example.test/feed" rel="self"/>
    <link>https://example.test/</link>
    <description>News *and* notes</description>
    <item>
      <title>First post</title>
      <link>/blog/first</link>
      <pubDate>Tue, 01 Oct 2024 10:00:00 GMT</pubDate>
      <description><![CDATA[<p>Hello <b>world</b>.</p><p>Second &amp; last.</p><script>x()</script>]]></description>
    </item>
    <item>
      <title>Escaped</title>
      <description>&lt;p&gt;Double &amp;amp; escaped&lt;/p&gt;</description>
    </item>
    <item>
      <link>https://example.test/untitled</link>
      <content:encoded><![CDATA[<div>Full content</div>]]></content:encoded>
    </item>
  </channel>
</rss>`;
    expect(extract(rss)).toEqual({
      title: "Example & Co",
      content: [
        "# Example & Co",
        "News \\*and\\* notes",
        "## First post",
        "- Link: <https://example.test/blog/first>\n- Published: Tue, 01 Oct 2024 10:00:00 GMT",
        "Hello world.\nSecond & last.",
        "## Escaped",
        "Double & escaped",
        "- Link: <https://example.test/untitled>",
        "Full content",
      ].join("\n\n"),
    });
  });
});

describe("xmlHandler: Atom", () => {
  it("feed title and subtitle; entries with alternate link, published/updated, summary or content by type", () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="text">Atom &lt;Feed&gt;</title>
  <subtitle>Sub</subtitle>
  <entry>
    <title type="html">&lt;em&gt;Rich&lt;/em&gt; title</title>
    <link rel="self" href="/self"/>
    <link rel="alternate" href="/posts/1"/>
    <published>2024-01-02T00:00:00Z</published>
    <updated>2024-01-03T00:00:00Z</updated>
    <summary type="html">&lt;p&gt;Summary &lt;b&gt;html&lt;/b&gt;&lt;/p&gt;</summary>
  </entry>
  <entry>
    <title>Second</title>
    <link href="https://other.test/2"/>
    <updated>2024-02-01T00:00:00Z</updated>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Para one</p><p>Para <i>two</i></p></div></content>
  </entry>
  <entry>
    <title>Plain</title>
    <content>a &lt;b&gt; is text here</content>
  </entry>
</feed>`;
    expect(extract(atom)).toEqual({
      title: "Atom <Feed>",
      content: [
        "# Atom \\<Feed>",
        "Sub",
        "## Rich title",
        "- Link: <https://example.test/posts/1>\n- Published: 2024-01-02T00:00:00Z",
        "Summary html",
        "## Second",
        "- Link: <https://other.test/2>\n- Updated: 2024-02-01T00:00:00Z",
        "Para one\nPara two",
        "## Plain",
        "a \\<b> is text here",
      ].join("\n\n"),
    });
  });

  it("an HTML title with block markup still makes a one-line heading", () => {
    expect(extract('<feed><entry><title type="html">&lt;p&gt;Two&lt;/p&gt;&lt;p&gt;lines&lt;/p&gt;</title></entry></feed>')).toEqual({ content: "## Two lines" });
  });

  it("prefixed Atom elements", () => {
    expect(extract('<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>P</a:title><a:entry><a:title>E</a:title></a:entry></a:feed>')).toEqual({
      title: "P",
      content: "# P\n\n## E",
    });
  });
});

describe("xmlHandler: RSS 1.0 (RDF)", () => {
  it("items are siblings of the channel", () => {
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>RDF feed</title><description>D</description></channel>
  <item><title>One</title><link>https://example.test/1</link><dc:date>2024-03-04</dc:date><description>Text</description></item>
</rdf:RDF>`;
    expect(extract(rdf)).toEqual({
      title: "RDF feed",
      content: "# RDF feed\n\nD\n\n## One\n\n- Link: <https://example.test/1>\n- Published: 2024-03-04\n\nText",
    });
  });
});

describe("xmlHandler: other XML", () => {
  it("is shown as written in an xml fence", () => {
    expect(extract('\r\n<?xml version="1.0"?>\r\n<catalog>\r\n  <book id="1">T</book>\r\n</catalog>\r\n')).toEqual({
      content: '```xml\n<?xml version="1.0"?>\n<catalog>\n  <book id="1">T</book>\n</catalog>\n```',
    });
  });

  it("an <rss> without a channel is not a feed", () => {
    expect(extract("<rss><item/></rss>")).toEqual({ content: "```xml\n<rss><item/></rss>\n```" });
  });
});
