import { describe, expect, it } from "vitest";
import { htmlHandler } from "../src/extract/html-handler.ts";

/** Reader comments, comment forms and sidebars beside a post: the post is the content, whatever their size. */

const md = (html: string): string => htmlHandler.extract({ text: html, url: "https://blog.test/2012/07/trip", mime: "text/html" }).content;
const said = (lead: string): string => `${lead} explains one topic in a sentence or two, with commas, clauses, and enough words to count.`;
const prose = (lead: string): string => `<p>${said(lead)}</p>`;
const comment = (n: number): string =>
  `<li class="comment" id="comment-${n}"><p class="comment-author"><a href="https://reader${n}.test/">Reader ${n}</a> on <a href="#comment-${n}">July 17, 2012</a></p>` +
  `${prose(`Reader ${n}'s answer`)}${prose(`Reader ${n}'s second thought`)}<a class="comment-reply-link" href="?replytocom=${n}#respond">Reply</a></li>`;
const thread = (count: number): string =>
  `<div id="comments"><h3>${count} Comments</h3><ol class="commentlist">${Array.from({ length: count }, (_, i) => comment(i + 1)).join("")}</ol></div>`;

describe("reader comments", () => {
  it("comments after a heading or anchor named as comments, in the post's own column and named as nothing, are left out", () => {
    const entry = (n: number) => `<p>${said(`Reader ${n}'s answer`)}</p><p class="posted">Posted by: <a href="https://reader${n}.test/">Reader ${n}</a> | July 17, 2012 6:18 PM</p>`;
    const entries = Array.from({ length: 12 }, (_, i) => entry(i + 1)).join("");
    for (const marker of [`<h2><a id="comments"></a>Comments</h2>`, `<a name="comments"></a><h2>Comments</h2>`, `<h3 id="comments">12 Comments</h3>`]) {
      const page = `<html><head><title>My trip</title></head><body><div class="content"><h1>My trip</h1>${prose("The post")}${prose("Its middle")}${prose("Its end")}${marker}${entries}</div></body></html>`;
      expect(md(page)).toBe([said("The post"), said("Its middle"), said("Its end")].join("\n\n"));
    }
  });

  it("a one-paragraph post above a heading named as comments stays the text, however long the thread under the heading", () => {
    const entry = (n: number) => `<p>${said(`Reader ${n}'s answer`)}</p><p class="posted">Posted by: <a href="https://reader${n}.test/">Reader ${n}</a> | July 17, 2012 6:18 PM</p>`;
    const entries = Array.from({ length: 60 }, (_, i) => entry(i + 1)).join("");
    const page = `<html><head><title>My trip</title></head><body><div class="content"><h1>My trip</h1>${prose("The post")}<h2><a id="comments"></a>Comments</h2>${entries}</div></body></html>`;
    expect(md(page)).toBe(said("The post"));
  });

  it("a comment heading in a box of its own starts the thread after the box; a comment count among a post's details does not", () => {
    const entry = (n: number) => `<div class="reader-${n}"><p>${said(`Reader ${n}'s answer`)}</p><p>Posted by: Reader ${n}</p></div>`;
    const entries = Array.from({ length: 12 }, (_, i) => entry(i + 1)).join("");
    const post = `<h1>My trip</h1>${prose("The post")}${prose("Its middle")}${prose("Its end")}`;
    const boxed = `<html><head><title>My trip</title></head><body><div class="content">${post}<div class="commentform"><h2 id="comments">Comments</h2></div>${entries}</div></body></html>`;
    expect(md(boxed)).toBe([said("The post"), said("Its middle"), said("Its end")].join("\n\n"));
    const details = `<div class="details"><h6 class="date">July 17, 2012</h6><h6 class="blog-comments">No comments</h6></div>`;
    const counted = `<html><head><title>My trip</title></head><body><div class="content"><h1>My trip</h1>${details}${prose("The post")}${prose("Its end")}</div></body></html>`;
    expect(md(counted)).toBe([said("The post"), said("Its end")].join("\n\n"));
  });

  it("a long comment thread after a short article (an <article>) is left out, not taken for the page's text", () => {
    const page = `<html><head><title>My trip</title></head><body><div id="page"><article><h1>My trip</h1>${prose("The post")}${prose("Its end")}</article>${thread(40)}</div></body></html>`;
    expect(md(page)).toBe(`${said("The post")}\n\n${said("Its end")}`);
  });

  it("a short post in a blog engine's markup (hentry, entry-content) keeps its place above a long thread", () => {
    const page = `<html><head><title>My trip</title></head><body><div id="page"><div class="post hentry"><h2 class="entry-title">My trip</h2><div class="entry-content">${prose("The post")}</div></div>${thread(40)}</div></body></html>`;
    expect(md(page)).toBe(said("The post"));
  });

  it("a box of recent comments, each linked to a comment on another post, is left out as comments are; links to a page's numbered blocks are not comments", () => {
    const recent = (fragment: (n: number) => string) =>
      `<ul>${[1, 2, 3, 4, 5].map((n) => `<li><b><a href="https://blog.test/2012/0${n}/post-${n}/${fragment(n)}">Post number ${n}</a></b> ${said(`Reader ${n}'s remark`)}</li>`).join("")}</ul>`;
    const page = (box: string) => `<html><head><title>My trip</title></head><body><div><h1>My trip</h1>${prose("The post")}${prose("Its end")}${box}</div></body></html>`;
    expect(md(page(recent((n) => `#comment-13791${n}`)))).toBe(`${said("The post")}

${said("Its end")}`);
    expect(md(page(recent((n) => `#c13791${n}`)))).toContain(said("Reader 3's remark"));
  });

  it("comments marked up as schema.org's Comment items, with no class names, are left out", () => {
    const entry = (n: number) =>
      `<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="author">Reader ${n}</span><p itemprop="text">${said(`Reader ${n}'s answer`)}</p></div>`;
    const page = `<html><head><title>My trip</title></head><body><div><h1>My trip</h1>${prose("The post")}${prose("Its end")}${Array.from({ length: 6 }, (_, i) => entry(i + 1)).join("")}</div></body></html>`;
    expect(md(page)).toBe(`${said("The post")}\n\n${said("Its end")}`);
  });

  it("a post of several paragraphs in plain markup stays the text above a thread ten times as long", () => {
    const leads = Array.from({ length: 16 }, (_, i) => `Part ${i + 1}`);
    const page = `<html><head><title>My trip</title></head><body><div id="page"><div class="text">${leads.map(prose).join("")}</div>${thread(150)}</div></body></html>`;
    expect(md(page)).toBe(leads.map(said).join("\n\n"));
  });

  it("a short post marked as schema.org's articleBody, or in an entry named as such, keeps its place above a long thread", () => {
    for (const body of [`<div itemprop="articleBody">${prose("The post")}</div>`, `<div class="entry-single"><h1>My trip</h1>${prose("The post")}</div>`]) {
      expect(md(`<html><head><title>My trip</title></head><body><div id="page">${body}${thread(40)}</div></body></html>`)).toBe(said("The post"));
    }
  });
});

describe("comment threads named as nothing", () => {
  // Old blog markup: each entry a plain <div> whose author and date share a line; nothing says "comment". What
  // marks an entry as one: a "Reply" link, a permalink to it on the page, or that line alone.
  const replyLink = (n: number): string => `<p><b>Reader ${n}</b> wrote on July ${n + 10}, 2012 6:18 PM</p><a href="/2012/07/trip/reply/${n}">Reply</a>`;
  const marks = [
    replyLink,
    (n: number) => `<p>Reader ${n} | <a href="#c${n}">permalink</a></p>`,
    (n: number) => `<p>Posted by: <a href="https://reader${n}.test/">Reader ${n}</a> | July ${n + 10}, 2012 6:18 PM</p>`,
  ];
  const unnamed = (mark: (n: number) => string, count: number): string =>
    `<div>${Array.from({ length: count }, (_, i) => `<div class="entry-${i + 1}">${prose(`Reader ${i + 1}'s answer`)}${prose(`Reader ${i + 1}'s second thought`)}${mark(i + 1)}</div>`).join("")}</div>`;

  it("an article followed by repeated entries with reply links, permalinks or author-and-date lines leaves them out", () => {
    for (const mark of marks) {
      const page = `<html><head><title>My trip</title></head><body><div id="page"><div><h1>My trip</h1>${prose("The post")}${prose("Its end")}</div>${unnamed(mark, 4)}</div></body></html>`;
      expect(md(page)).toBe(`${said("The post")}\n\n${said("Its end")}`);
    }
  });

  it("a topic of posts each after an anchor named as a comment, in a comment section and no post of its own (Invision Community's), keeps them", () => {
    const post = (n: number) =>
      `<a id="comment-${n}"></a><article id="elComment_${n}" class="cPost ipsComment"><div class="ipsComment_content"><div data-role="commentContent"><p>${said(`Reader ${n}'s answer`)}</p></div></div></article>`;
    const posts = [1, 2, 3].map(post).join("");
    for (const section of [posts, `<form action="/topic/1/?do=multimodComment" method="post" data-role="moderationTools">${posts}</form>`]) {
      const content = md(`<html><head><title>Motion sensors drop off</title></head><body><h1>Motion sensors drop off</h1><div id="comments">${section}</div></body></html>`);
      for (const n of [1, 2, 3]) expect(content).toContain(said(`Reader ${n}'s answer`));
    }
  });

  it("a guestbook of such entries and no post of its own keeps them as its text", () => {
    const content = md(`<html><head><title>Guestbook</title></head><body><div id="page"><h1>Guestbook</h1>${unnamed(replyLink, 4)}</div></body></html>`);
    for (const n of [1, 2, 3, 4]) expect(content).toContain(said(`Reader ${n}'s answer`));
  });
});

describe("threads that are the page's text", () => {
  it("keep each entry's author and date, however much of that line is links", () => {
    const page = `<html><head><title>Guestbook</title></head><body><div id="page"><h1>Guestbook</h1><ol class="commentlist">${[1, 2, 3].map(comment).join("")}</ol></div></body></html>`;
    const content = md(page);
    for (const n of [1, 2, 3]) expect(content).toContain(`${n}. [Reader ${n}](https://reader${n}.test/) on [July 17, 2012](https://blog.test/2012/07/trip#comment-${n})\n\n   ${said(`Reader ${n}'s answer`)}`);
  });

  it("a short thread under the page's title and dateline is the text: neither is a post", () => {
    const reply = (n: number) => `Reply ${n} agrees with the report and adds that it happens on version 2.3.1 too.`;
    const entry = (n: number) => `<li class="comment"><p>${reply(n)}</p></li>`;
    const page = `<html><head><title>Crash when parsing an empty config file</title></head><body><h1>Crash when parsing an empty config file</h1><p>Published: Tuesday, 4 June 2019, 10:00 am</p><ol class="commentlist">${[1, 2, 3, 4].map(entry).join("")}</ol></body></html>`;
    const content = md(page);
    for (const n of [1, 2, 3, 4]) expect(content).toContain(reply(n));
  });

  it("keep an author marked up as schema.org's (a forum topic's posts), however far the markup indents the line's parts", () => {
    const post = (n: number, indent: string) =>
      `<div id="post_${n}" itemprop="comment" itemscope itemtype="http://schema.org/Comment" class="topic-body crawler-post"><div class="crawler-post-meta">` +
      `<span class="creator" itemprop="author">${indent}<a itemprop="url" href="/u/member${n}"><span itemprop="name">member${n}</span></a>${indent}</span>` +
      ` <span class="crawler-post-infos">${indent}<time itemprop="datePublished" datetime="2024-06-0${n}">${indent}June ${n}, 2024, 8:00am${indent}</time></span></div><div class="post" itemprop="text">${prose(`Member ${n}'s post`)}</div></div>`;
    const page = (indent: string) =>
      `<html><head><title>Slow builds</title></head><body><div id="main-outlet" role="main"><h1>Slow builds</h1><div itemscope itemtype="http://schema.org/DiscussionForumPosting">${[1, 2, 3].map((n) => post(n, indent)).join("")}</div></div></body></html>`;
    // Discourse's crawler view indents each part of the line on a line of its own: 150 characters of markup, 30 shown.
    for (const indent of ["", `\n${" ".repeat(24)}`]) {
      const content = md(page(indent));
      for (const n of [1, 2, 3]) expect(content).toContain(`[member${n}](https://blog.test/u/member${n}) June ${n}, 2024, 8:00am\n\n${said(`Member ${n}'s post`)}`);
    }
  });

  it("replies typed as comments of a forum topic (schema.org's DiscussionForumPosting) are the thread, kept under the topic's first post without their like counts; a blog post's stay out", () => {
    const reply = (n: number) =>
      `<div id="post_${n}" itemprop="comment" itemscope itemtype="http://schema.org/Comment"><span itemprop="author">member${n}</span><div class="post" itemprop="text">${prose(`Member ${n}'s answer`)}</div>` +
      `<div itemprop="interactionStatistic" itemscope itemtype="http://schema.org/InteractionCounter"><span>${n} Likes</span></div></div>`;
    const page = (type: string) =>
      `<html><head><title>Slow builds</title></head><body><div id="main-outlet" role="main"><h1>Slow builds</h1><div itemscope itemtype="http://schema.org/${type}"><div id="post_1"><span>member1</span><div class="post" itemprop="text">${prose("The question")}${prose("Its details")}</div></div>${[2, 3, 4].map(reply).join("")}</div></div></body></html>`;
    const topic = md(page("DiscussionForumPosting"));
    expect(topic).toContain(said("The question"));
    for (const n of [2, 3, 4]) expect(topic).toContain(`member${n}\n\n${said(`Member ${n}'s answer`)}`);
    // Its likes, a count schema.org types as an InteractionCounter, are chrome.
    expect(topic).not.toContain("Likes");
    expect(md(page("BlogPosting"))).toBe([said("The question"), said("Its details")].join("\n\n"));
  });

  it("comments of a page whose JSON-LD declares it a forum topic (DiscussionForumPosting) are the thread; a blog post's stay out", () => {
    const reply = (n: number) => `<div class="comment" id="comment-${n}"><div class="comment-body">${prose(`Member ${n}'s answer`)}</div></div>`;
    const page = (type: string) =>
      `<html><head><title>Learning Rust</title><script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": type, headline: "Learning Rust", author: { "@type": "Person", name: "ferris" } })}</script></head>` +
      `<body><main><h1>Learning Rust</h1><div class="post-body">${prose("The question")}${prose("Its details")}</div><div id="comments" class="comments">${[2, 3, 4].map(reply).join("")}</div></main></body></html>`;
    const topic = md(page("DiscussionForumPosting"));
    expect(topic).toContain(said("The question"));
    for (const n of [2, 3, 4]) expect(topic).toContain(said(`Member ${n}'s answer`));
    expect(md(page("BlogPosting"))).toBe([said("The question"), said("Its details")].join("\n\n"));
  });

  it("a reply is the topic's up to sixteen levels inside its item; deeper, it is read as a reader's comment (each reply looks a bounded way up)", () => {
    const reply = `<div itemprop="comment" itemscope itemtype="http://schema.org/Comment"><span itemprop="author">member2</span><div class="post" itemprop="text">${prose("Member 2's answer")}</div></div>`;
    const page = (wrappers: number) =>
      `<html><head><title>Slow builds</title></head><body><div role="main"><h1>Slow builds</h1><div itemscope itemtype="http://schema.org/DiscussionForumPosting"><div class="post" itemprop="text">${prose("The question")}${prose("Its details")}</div>` +
      `${"<div>".repeat(wrappers)}${reply}${"</div>".repeat(wrappers)}</div></div></body></html>`;
    expect(md(page(15))).toContain(`member2\n\n${said("Member 2's answer")}`);
    expect(md(page(16))).toBe([said("The question"), said("Its details")].join("\n\n"));
  });

  it("keep the header line over each entry's body, the first entry's too (an issue tracker's timeline)", () => {
    const entry = (n: number) =>
      `<div class="timeline-item"><div class="timeline-comment-group"><div class="timeline-comment-header"><h3><strong><a class="author" href="/user${n}">user${n}</a></strong> commented <a href="#issuecomment-${n}">Jan ${n}, 2024</a></h3></div>` +
      `<div class="comment-body">${prose(`User ${n}'s report`)}${prose(`User ${n}'s details`)}</div></div></div>`;
    const page = `<html><head><title>Crash on empty config</title></head><body><main><h1>Crash on empty config</h1><div class="discussion">${[1, 2, 3].map(entry).join("")}</div></main></body></html>`;
    const content = md(page);
    for (const n of [1, 2, 3]) expect(content).toContain(`### **[user${n}](https://blog.test/user${n})** commented [Jan ${n}, 2024](https://blog.test/2012/07/trip#issuecomment-${n})\n\n${said(`User ${n}'s report`)}`);
  });
});

describe("a short thread that is the page's text", () => {
  /** An issue tracker's page: its metadata line under the title, then entries of a header line over a line or two. */
  const issue = (bodies: readonly string[], reactions = true): string => {
    const entry = (body: string, n: number) =>
      `<div class="timeline-item"><a href="/user${n}"><img class="avatar" src="/a${n}.png" alt="@user${n}" width="40" height="40"></a><div class="timeline-comment-group">` +
      `<div class="timeline-comment"><h3><strong><a class="author" href="/user${n}">user${n}</a></strong> commented <a href="#issuecomment-${n}">Jan ${n}, 2024</a></h3>` +
      `<div class="edit-comment-hide"><div class="comment-body"><p>${body}</p></div></div>${reactions ? '<div class="comment-reactions"><button class="btn-link">👍 3</button></div>' : ""}</div></div></div>`;
    return `<html><head><title>Crash on empty config</title></head><body><main><h1>Crash on empty config</h1><div class="issue-meta"><span class="state">Open</span> <a href="/user1">user1</a> opened this issue on Jan 1, 2024 · 2 comments</div><div class="discussion">${bodies.map((body, i) => entry(body, i + 1)).join("")}</div></main></body></html>`;
  };

  it("an issue of a few words a comment keeps every comment under its author and date, past the metadata line under its title", () => {
    const bodies = ["Empty widget.toml crashes widget build.", "Same on 2.3.1.", "Fixed in 2.3.2!"];
    for (const reactions of [true, false]) {
      const content = md(issue(bodies, reactions));
      for (const [i, body] of bodies.entries()) {
        const n = i + 1;
        expect(content).toContain(`### **[user${n}](https://blog.test/user${n})** commented [Jan ${n}, 2024](https://blog.test/2012/07/trip#issuecomment-${n})\n\n${body}`);
      }
    }
  });

  it("a thread of entries each in a deep nest of wrappers is read level by level once (within the test's time)", () => {
    const depth = 240;
    const entry = (n: number) => `${"<div>".repeat(depth)}<div class="comment"><h3><a href="/u${n}">user${n}</a> commented <a href="#c${n}">Jan 2, 2024</a></h3><p>Same on ${n}.</p></div>${"</div>".repeat(depth)}`;
    const content = md(`<html><body><main><h1>Guestbook</h1><div class="thread">${Array.from({ length: 2000 }, (_, n) => entry(n)).join("")}</div></main></body></html>`);
    for (const n of [0, 1000, 1999]) expect(content).toContain(`### [user${n}](https://blog.test/u${n}) commented [Jan 2, 2024](https://blog.test/2012/07/trip#c${n})\n\nSame on ${n}.`);
  });

  it("a post's own sentence beside a short thread keeps the thread out as comments", () => {
    const page = issue(["Same on 2.3.1.", "Me too.", "Fixed."]).replace('<div class="issue-meta">', `${prose("The report")}<div class="issue-meta">`);
    const content = md(page);
    expect(content).toContain(said("The report"));
    for (const body of ["Same on 2.3.1.", "Me too.", "Fixed."]) expect(content).not.toContain(body);
  });
});

describe("threads that are the page's text, dated relatively", () => {
  it("keep an entry's line whose date is relative when the moment is marked up (<time>, datetime, an ISO title)", () => {
    const moments = [
      '<time datetime="2024-01-01T10:00:00Z">last week</time>',
      '<relative-time datetime="2024-01-01T10:00:00Z">last week</relative-time>',
      '<span class="age" title="2024-01-01T10:00:00"><a href="#e">last week</a></span>',
    ];
    for (const moment of moments) {
      const entry = (n: number) =>
        `<div class="timeline-item"><div class="timeline-comment-group"><div class="timeline-comment-header"><h3><a class="author" href="/user${n}">user${n}</a> commented ${moment}</h3></div>` +
        `<div class="comment-body">${prose(`User ${n}'s report`)}${prose(`User ${n}'s details`)}</div></div></div>`;
      const content = md(`<html><head><title>Crash</title></head><body><main><h1>Crash</h1><div class="discussion">${[1, 2, 3].map(entry).join("")}</div></main></body></html>`);
      for (const n of [1, 2, 3]) expect(content).toMatch(new RegExp(`### \\[user${n}\\]\\(https://blog\\.test/user${n}\\) commented (?:\\[last week\\]\\([^)]+\\)|last week)\n\n${said(`User ${n}'s report`).replace(/[.,']/g, "\\$&")}`));
    }
  });
});

describe("comment forms", () => {
  const form = `<div class="box"><h3>Speak your mind</h3><form action="/wp-comments-post.php" method="post"><p>Your email address will not be published, comments are moderated, and we ask that you stay on topic, please.</p>
    <p><label for="author">Name (required)</label><input id="author" name="author"></p><p><textarea name="comment"></textarea></p><p><input type="submit" value="Submit Comment"></p></form></div>`;

  it("a form to write a comment in, after a short article, is neither the content nor kept with it", () => {
    const page = `<html><head><title>My trip</title></head><body><div id="page"><h1>My trip</h1><div>${prose("The post")}</div>${form}</div></body></html>`;
    expect(md(page)).toBe(said("The post"));
  });

  it("a guestbook (entries in a blog engine's comment list, a form to sign it, no post of its own) keeps its entries", () => {
    const page = `<html><head><title>Guestbook</title></head><body><div id="page"><h1>Guestbook</h1><ol class="commentlist">${[1, 2, 3].map(comment).join("")}</ol>${form}</div></body></html>`;
    const content = md(page);
    for (const n of [1, 2, 3]) expect(content).toContain(said(`Reader ${n}'s answer`));
    expect(content).not.toContain("Speak your mind");
  });
});

describe("boxes beside the main column", () => {
  it("a short post in a blog engine's entry markup is not widened over the boxes beside it", () => {
    const page = `<html><head><title>Quote of the day</title></head><body><div id="wrapper"><div class="entry">${prose("The quote")}${prose("Its source")}</div>
      <div class="box"><h3>About me</h3>${prose("The author's box")}</div><div class="box"><h3>Opening hours</h3><ul><li>Monday to Friday</li><li>Saturday</li></ul></div></div></body></html>`;
    expect(md(page)).toBe(`${said("The quote")}\n\n${said("Its source")}`);
  });

  it("an 'about me' box among the widgets beside a short post is not taken for it, nor kept with it", () => {
    const about = `<div id="text-5" class="widget widget_text"><h3>About me</h3><div class="textwidget">${prose("The author, a long-time writer,")}</div></div>`;
    const page = `<html><head><title>Quote of the day</title></head><body><div id="wrapper"><div id="left"><h2>Quote of the day</h2>${prose("The quote")}${prose("Its source")}</div>
      <div id="right">${about}<div class="widget widget_archive"><h3>Archives</h3><ul><li><a href="/2012/11">November 2012</a></li></ul></div></div></div></body></html>`;
    expect(md(page)).toBe(`${said("The quote")}\n\n${said("Its source")}`);
  });

  it("a widget that holds the post (Blogger's Blog widget) is the page's layout, not a box beside it", () => {
    const page = `<html><head><title>Quote of the day</title></head><body><div id="main"><div id="Blog1" class="widget Blog"><div class="post hentry"><h3 class="post-title entry-title">Quote of the day</h3>
      <div class="post-body entry-content">${prose("The quote")}</div></div></div></div>
      <div id="sidebar-right"><div id="Profile1" class="widget Profile"><h2>About me</h2>${prose("The author, a long-time writer,")}</div></div></body></html>`;
    expect(md(page)).toBe(`### Quote of the day\n\n${said("The quote")}`);
  });
});

describe("forum topics told by their shape", () => {
  // phpBB's markup: each post a box with its author and date line, a permalink to itself, a button to quote it.
  // A box around the line alone would be the line: the wrappers are no blocks a line is.
  const wrapped = (html: string, wrappers: number) => `${"<span>".repeat(wrappers)}${html}${"</span>".repeat(wrappers)}`;
  const post = (n: number, body: string, { lineWrappers = 0 } = {}) =>
    `<div id="p${n}" class="post bg${n % 2}"><div class="inner"><dl class="postprofile"><dt><a href="./memberlist.php?u=${n}">member${n}</a></dt><dd>Member</dd>` +
    `<dd><strong>Posts:</strong> ${n * 40}</dd><dd><strong>Joined:</strong> Mon Jan 08, 2018 3:12 pm</dd></dl><div class="postbody"><h3><a href="#p${n}">Re: Slow builds</a></h3>` +
    `<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p=${n}" class="button">Quote</a></li></ul>` +
    wrapped(`<p class="author">by <strong><a href="./memberlist.php?u=${n}">member${n}</a></strong> » Sat Mar 0${n}, 2024 8:14 pm</p>`, lineWrappers) +
    `<div class="content">${body}</div></div></div></div><hr class="divider">`;
  const question = `${said("The question")} ${said("Its details")}`;
  const answer = (n: number) => `Member ${n} answers in a line.`;
  const topic = (depths = {}) =>
    `<html><head><title>Slow builds - Forum</title></head><body><div id="page-body" role="main"><h2 class="topic-title"><a href="./viewtopic.php?t=8">Slow builds</a></h2>` +
    `${post(1, question, depths)}${[2, 3, 4].map((n) => post(n, answer(n), depths)).join("")}</div></body></html>`;

  it("a topic whose first post is one of a run of signed posts (a date line, a permalink to itself) is read whole, each reply under its line", () => {
    const content = md(topic());
    expect(content).toContain(`by **[member1](https://blog.test/2012/07/memberlist.php?u=1)** » Sat Mar 01, 2024 8:14 pm\n\n${question}`);
    // Short replies with a button to quote them are no calls to action, nor boxes of links.
    for (const n of [2, 3, 4]) expect(content).toContain(`by **[member${n}](https://blog.test/2012/07/memberlist.php?u=${n})** » Sat Mar 0${n}, 2024 8:14 pm\n\n${answer(n)}`);
    // The card of each author's figures beside the post is chrome: the line over the post says who wrote it.
    expect(content).not.toMatch(/Posts:|Joined:|Member\n/);
  });

  it("a post's date line is read at most five levels inside it", () => {
    // The line is three levels down (the post's inner box, its column): two wrappers more make five, three six.
    expect(md(topic({ lineWrappers: 2 }))).toContain(answer(4));
    expect(md(topic({ lineWrappers: 3 }))).not.toContain(answer(4));
  });

  it("a post's anchor may stand just before it (SMF's <a id=\"msg12\"></a>)", () => {
    const entry = (n: number, body: string) =>
      `<a id="msg${n}"></a><div class="windowbg${n % 2 ? "" : "2"}"><div class="post_wrapper"><div class="poster"><h4><a href="?action=profile;u=${n}">member${n}</a></h4></div><div class="postarea">` +
      `<div class="keyinfo"><h5><a href="?topic=5.msg${n}#msg${n}">Re: Slow builds</a></h5><div class="smalltext">« on: March 0${n}, 2024, 08:14:21 PM »</div></div>` +
      `<div class="post"><div class="inner">${body}</div></div></div></div></div>`;
    const page = `<html><head><title>Slow builds</title></head><body><div id="forumposts"><h1>Slow builds</h1><form id="quickModForm">${entry(1, question)}${[2, 3].map((n) => entry(n, answer(n))).join("")}</form></div></body></html>`;
    const content = md(page);
    for (const n of [2, 3]) {
      expect(content).toContain(`#### [member${n}](https://blog.test/2012/07/trip?action=profile;u=${n})\n\n##### [Re: Slow builds](https://blog.test/2012/07/trip?topic=5.msg${n}#msg${n})\n\n« on: March 0${n}, 2024, 08:14:21 PM »\n\n${answer(n)}`);
    }
  });

  it("a post's line that is only its poster's linked name, named as a user name on it or up to two levels down, is kept (vBulletin's); its other lines of links are not", () => {
    const entry = (n: number, body: string, nameWrappers: number) =>
      `<li class="postbit" id="post_${n}"><div class="posthead"><span class="date">03-0${n}-2024, 08:14 PM</span><a name="post${n}" class="postcounter" href="showthread.php?p=${n}#post${n}">#${n}</a></div>` +
      `<div class="userinfo"><div>${wrapped(`<a class="username" href="member.php?u=${n}"><strong>member${n}</strong></a>`, nameWrappers)}</div></div>` +
      `<div class="postbody"><blockquote class="postcontent">${body}</blockquote><div class="postfoot"><a href="newreply.php?p=${n}">Reply With Quote</a></div></div></li>`;
    const page = (nameWrappers: number) =>
      `<html><head><title>Slow builds</title></head><body><div id="postlist"><h1>Slow builds</h1><ol id="posts">${entry(1, question, nameWrappers)}${[2, 3].map((n) => entry(n, answer(n), nameWrappers)).join("")}</ol></div></body></html>`;
    const content = md(page(1));
    for (const n of [1, 2, 3]) expect(content).toContain(`**[member${n}](https://blog.test/2012/07/member.php?u=${n})**`);
    expect(content).toContain(answer(3));
    expect(content).not.toContain("Reply With Quote");
    // Three levels down, the name is not the line's.
    expect(md(page(2))).not.toContain("[member2]");
  });

  it("a live blog's entries, each timed with a permalink, are read with their times, under the headline and standfirst", () => {
    const entry = (n: number) =>
      `<article class="entry" id="e${n}"><header><p><a href="#e${n}">10:4${n} am</a></p></header><div class="entry-body">${prose(`Update ${n}`)}</div></article>`;
    const page = `<html><head><title>Budget hearing: live</title></head><body><main><div class="live"><h1>Budget hearing: live</h1><p class="standfirst">${said("The standfirst")}</p><div class="feed">${[3, 2, 1].map(entry).join("")}</div></div></main></body></html>`;
    expect(md(page)).toBe([said("The standfirst"), ...[3, 2, 1].flatMap((n) => [`[10:4${n} am](https://blog.test/2012/07/trip#e${n})`, said(`Update ${n}`)])].join("\n\n"));
  });

  it("a blog post's comments signed the same way stay out: the post is not one of them", () => {
    const signed = (n: number) =>
      `<div id="c${n}" class="reply"><p class="meta">by <a href="/u/${n}">member${n}</a> on <a href="#c${n}">March 0${n}, 2024</a></p>${prose(`Reader ${n}'s answer`)}</div>`;
    const page = `<html><head><title>My trip</title></head><body><main><article><h1>My trip</h1>${prose("The post")}${prose("Its middle")}${prose("Its end")}</article><section>${[1, 2, 3].map(signed).join("")}</section></main></body></html>`;
    expect(md(page)).toBe([said("The post"), said("Its middle"), said("Its end")].join("\n\n"));
  });
});
