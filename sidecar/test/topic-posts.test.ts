import { describe, expect, it } from "vitest";
import { findElement } from "../src/extract/dom.ts";
import { topicFrame, topicPosts } from "../src/extract/html/topic-posts.ts";
import { parseHtml } from "../src/extract/parse-html.ts";

/** A run of three posts, each signed with a date line and a permalink to itself, its body `levels` below it. */
const topic = (levels: number, signed = (n: number) => `<p class="author">by member${n} » March 0${n}, 2024, 8:14 pm <a href="#p${n}">#</a></p>`) => {
  const post = (n: number) => `<div class="post" id="p${n}">${signed(n)}${"<div>".repeat(levels - 1)}<div class="body" id="b${n}">Text ${n}</div>${"</div>".repeat(levels - 1)}</div>`;
  return parseHtml(`<html><body><main>${[1, 2, 3].map(post).join("")}</main></body></html>`);
};
const bodyOf = (document: ReturnType<typeof parseHtml>, n: number) => findElement(document, (element) => element.attribs.id === `b${n}`)!;

describe("a forum topic's posts, found from its main block", () => {
  it("are the run of signed siblings the block stands in, up to six levels above it", () => {
    const near = topic(6);
    expect(topicPosts(bodyOf(near, 2))?.map((post) => post.attribs.id)).toEqual(["p1", "p2", "p3"]);
    expect(topicPosts(bodyOf(topic(7), 2))).toBeUndefined();
  });

  it("are a post and at least one reply: a post alone is no topic's", () => {
    const single = parseHtml(`<html><body><main><div class="post" id="p1"><p>March 01, 2024 <a href="#p1">#</a></p><div id="b1">Text 1</div></div><div class="other"></div></main></body></html>`);
    expect(topicPosts(bodyOf(single, 1))).toBeUndefined();
  });

  it("are none when a post is not signed: no date line, or no permalink to itself", () => {
    expect(topicPosts(bodyOf(topic(1, (n) => `<p>by member${n} <a href="#p${n}">#</a></p>`), 1))).toBeUndefined();
    expect(topicPosts(bodyOf(topic(1, (n) => `<p>by member${n} » March 0${n}, 2024 <a href="#elsewhere">#</a></p>`), 1))).toBeUndefined();
  });

  it("are none when the run stands straight in the body: that is the page, not a topic's block", () => {
    const document = parseHtml(`<html><body>${[1, 2].map((n) => `<div class="post" id="p${n}"><p>March 0${n}, 2024 <a href="#p${n}">#</a></p><div id="b${n}">Text</div></div>`).join("")}</body></html>`);
    expect(topicPosts(bodyOf(document, 1))).toBeUndefined();
  });

  it("may name a post by an empty anchor just before it, and by no other element beside it", () => {
    const run = (before: (n: number) => string) =>
      parseHtml(`<html><body><form>${[1, 2].map((n) => `${before(n)}<div class="post"><p>March 0${n}, 2024 <a href="?msg=${n}#msg${n}">#</a></p><div id="b${n}">Text</div></div>`).join("")}</form></body></html>`);
    expect(topicPosts(bodyOf(run((n) => `<a id="msg${n}"></a>`), 1))).toHaveLength(2);
    expect(topicPosts(bodyOf(run((n) => `<a name="msg${n}"></a>`), 1))).toHaveLength(2);
    // An anchor with text is a link of its own; one further off names something else.
    expect(topicPosts(bodyOf(run((n) => `<a id="msg${n}">Top</a>`), 1))).toBeUndefined();
    expect(topicPosts(bodyOf(run((n) => `<a id="msg${n}"></a><hr>`), 1))).toBeUndefined();
  });

  it("stand in a frame: their parent, or the block above it that holds the headline, but never the body", () => {
    const posts = (document: ReturnType<typeof parseHtml>) => topicPosts(bodyOf(document, 1))!;
    const headlined = (document: ReturnType<typeof parseHtml>) => new Set([findElement(document, (element) => element.name === "h1")!]).add(findElement(document, (element) => element.attribs.id === "live")!);
    const entries = [1, 2].map((n) => `<div class="post" id="p${n}"><p>March 0${n}, 2024 <a href="#p${n}">#</a></p><div id="b${n}">Text</div></div>`).join("");
    const live = parseHtml(`<html><body><main><div id="live"><h1>Live</h1><div id="feed">${entries}</div></div></main></body></html>`);
    expect(topicFrame(posts(live), headlined(live))?.attribs.id).toBe("live");
    const bare = parseHtml(`<html><body><h1>Live</h1><div id="feed">${entries}</div></body></html>`);
    const body = findElement(bare, (element) => element.name === "body")!;
    expect(topicFrame(posts(bare), new Set([body]))?.attribs.id).toBe("feed");
  });
});
