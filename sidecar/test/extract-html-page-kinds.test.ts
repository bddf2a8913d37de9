import { describe, expect, it } from "vitest";
import { htmlHandler } from "../src/extract/html-handler.ts";

/** Main content of hand-made pages of several kinds, each asserting the exact Markdown. */

const extract = (html: string, url = "https://site.test/page") => htmlHandler.extract({ text: html, url, mime: "text/html" });
const md = (html: string): string => extract(html).content;
const prose = (lead: string): string =>
  `<p>${lead} explains one topic in a sentence or two, with commas, clauses, and enough words to count.</p>`;
const said = (lead: string): string => `${lead} explains one topic in a sentence or two, with commas, clauses, and enough words to count.`;

describe("page kinds", () => {
  it("a forum thread keeps the posts under each one's author and date, and drops the rest of their chrome (the user card's figures, the avatar, reactions) and the thread's", () => {
    const post = (n: number, user: string, text: string) =>
      `<article class="message"><div class="message-user"><img src="/a/${n}.jpg" alt="${user}" width="96"><h4 class="username"><a href="/u/${n}">${user}</a></h4><dl><dt>Joined</dt><dd>Mar 3, 2014</dd><dt>Messages</dt><dd>2,206</dd></dl></div><div class="message-main"><div class="message-attribution"><a href="/t/1/post-${n}">Sep 27, 2018</a> <a href="#post-${n}">#${n}</a></div><div class="message-body">${text}</div><div class="message-footer"><a href="/r/${n}">Like</a> <a href="/q/${n}">Quote</a> <a href="/reply">Reply</a></div></div></article>`;
    const page = `<html><head><title>Cat loses dirt at night | Cat Forum</title></head><body><header><a href="/">Cat Forum</a><nav><a href="/f">Forums</a></nav></header>
      <div class="p-body"><ul class="breadcrumbs"><li><a href="/">Home</a></li><li><a href="/f/1">Health</a></li></ul><h1>Cat loses dirt at night</h1><div class="thread">
      ${post(1, "Pepe", prose("The first post"))}${post(2, "Mia", prose("A reply"))}${post(3, "Tom", prose("Another reply"))}
      </div><div class="similar"><h3>Similar threads</h3><ul><li><a href="/t/2">Flea help</a></li><li><a href="/t/3">Dirty paws</a></li></ul></div></div>
      <footer><p>Forum software © 2010-2019</p></footer></body></html>`;
    const attribution = (n: number, user: string) => `#### [${user}](https://site.test/u/${n})\n\n[Sep 27, 2018](https://site.test/t/1/post-${n}) [#${n}](https://site.test/page#post-${n})`;
    expect(md(page)).toBe([attribution(1, "Pepe"), said("The first post"), attribution(2, "Mia"), said("A reply"), attribution(3, "Tom"), said("Another reply")].join("\n\n"));
  });

  it("a product page keeps the description and the specifications, not the navigation or other products", () => {
    const page = `<html><head><title>Ground coffee 250 g | Shop</title></head><body><header><nav><a href="/coffee">Coffee</a> <a href="/shop">Shop</a></nav></header>
      <main><nav class="breadcrumb"><a href="/">Home</a> / <a href="/coffee">Coffee</a></nav><div class="product"><h1>Ground coffee 250 g</h1>
      <div class="description">${prose("The description")}${prose("More of it")}</div>
      <h2>Specifications</h2><table><tr><th>Weight</th><td>250 g</td></tr><tr><th>Roast</th><td>Medium</td></tr></table></div>
      <div class="related-products"><h2>You may also like</h2><div class="card"><h3><a href="/p/2">Crema</a></h3><p>3,99</p></div><div class="card"><h3><a href="/p/3">Espresso</a></h3><p>5,49</p></div></div>
      </main><footer>Imprint · Privacy</footer></body></html>`;
    expect(md(page)).toBe(
      [said("The description"), said("More of it"), "## Specifications", "| Weight | 250 g |\n| --- | --- |\n| Roast | Medium |"].join("\n\n"),
    );
  });

  it("a product's price stays above its description, though the form after it (size, add to cart) goes", () => {
    const page = (price: string) => `<html><head><title>Trail shoe | Shop</title></head><body><main><div class="product"><h1>Trail shoe</h1>
      <div class="price">${price}</div>
      <form class="add-to-cart"><label>Size <select name="size"><option>9</option></select></label><button type="submit">Add to cart</button></form>
      <div class="description"><h2>Description</h2>${prose("The description")}</div></div></main></body></html>`;
    expect(md(page("<span>$129.00</span> <s>$149.00</s>"))).toBe(["$129.00 ~~$149.00~~", "## Description", said("The description")].join("\n\n"));
    expect(md(page("ab 129,00 €"))).toBe(["ab 129,00 €", "## Description", said("The description")].join("\n\n"));
    // A line of words before a box that goes is that box's title, and goes with it.
    expect(md(page("Choose a size"))).toBe(["## Description", said("The description")].join("\n\n"));
  });

  it("an FAQ written as an accordion keeps each question (a disclosure button in a heading) over its answer; other buttons stay out", () => {
    const item = (n: number, question: string) =>
      `<h3 class="accordion-header"><button class="accordion-button" type="button" aria-expanded="${n === 1}" aria-controls="a${n}">${question}</button></h3><div id="a${n}" class="accordion-collapse collapse" role="region"><div class="accordion-body">${prose(`Answer ${n}`)}</div></div>`;
    const page = `<html><head><title>FAQ | Acme</title></head><body><main><h1>Frequently asked questions</h1>${prose("This page")}
      <div class="accordion">${item(1, "Can I change my plan later?")}${item(2, "Where is my data stored?")}</div>
      <h2>Ingredients <button type="button">2x</button></h2>${prose("The list")}<p><button type="button" aria-expanded="false">Show more</button></p>
      <h2>Steps <span class="tools"><span><button type="button" aria-expanded="false">Expand all</button></span></span></h2>${prose("The steps")}</main></body></html>`;
    // A disclosure button more than one wrapper inside a heading is a tool beside its title, not the title.
    expect(md(page)).toBe(
      ["# Frequently asked questions", said("This page"), "### Can I change my plan later?", said("Answer 1"), "### Where is my data stored?", said("Answer 2"), "## Ingredients", said("The list"), "## Steps", said("The steps")].join("\n\n"),
    );
  });

  it("rustdoc's chrome (each method's version and source link, a code example's Run link, the open description's summary) is left out", () => {
    const method = (name: string) =>
      `<details class="toggle method-toggle" open><summary><section id="method.${name}" class="method"><span class="rightside"><span class="since">0.5.0</span> · <a class="src" href="/src/ring.rs.html#84">Source</a></span>` +
      `<h4 class="code-header">pub fn <a href="#method.${name}" class="fn">${name}</a>(&amp;self) -&gt; usize</h4></section></summary><div class="docblock">${prose(`The ${name} method`)}` +
      `<div class="example-wrap"><pre class="rust rust-example-rendered"><code>queue.${name}();</code></pre><a class="test-arrow" target="_blank" title="Run code" href="https://play.rust-lang.org/?code=x">Run</a></div></div></details>`;
    const page = `<main><section id="main-content" class="content"><h1>Struct RingQueue</h1><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock">${prose("The queue")}</div></details>${method("len")}${method("capacity")}</section></main>`;
    const content = md(page);
    for (const chrome of ["Source", "Run", "Expand description", "0.5.0"]) expect(content).not.toContain(chrome);
    expect(content).toContain(`#### pub fn len(&self) -> usize\n\n${said("The len method")}\n\n\`\`\`rust\nqueue.len();\n\`\`\``);
  });

  it("a reference's signatures stay, however many of their words link to their types' definitions", () => {
    const page = `<main><h1>retry</h1>${prose("The package")}<h4 id="Do">func Do</h4><div class="Documentation-declaration"><span><a href="https://git.test/retry.go#L31">View Source</a></span>` +
      `<pre>func Do(ctx <a href="/context">context</a>.<a href="/context#Context">Context</a>, p <a href="#Policy">Policy</a>, op <a href="#Operation">Operation</a>) <a href="/builtin#error">error</a></pre></div>${prose("Do calls op")}</main>`;
    expect(md(page)).toContain("```\nfunc Do(ctx context.Context, p Policy, op Operation) error\n```\n\n" + said("Do calls op"));
  });

  it("a code editor's box (a textarea named as code or with spell-checking off, holding code) is a code block; a box to write in is a control", () => {
    const page = (box: string) => `<main><h1>retry</h1>${prose("The package")}<details open><summary>Example</summary><textarea ${box}>\npackage main\n\nfunc main() { fmt.Println(&#34;done&#34;) }\n</textarea><button>Run</button></details>${prose("More")}</main>`;
    const code = "```\npackage main\n\nfunc main() { fmt.Println(\"done\") }\n```";
    expect(md(page('class="Documentation-exampleCode code" spellcheck="false"'))).toContain(`Example\n\n${code}\n\n${said("More")}`);
    expect(md(page('spellcheck="false"'))).toContain(code);
    expect(md(page('name="comment"'))).not.toContain("package main");
    // An empty editor writes no empty block.
    expect(md(`<main><h1>retry</h1>${prose("The package")}<textarea spellcheck="false">  </textarea></main>`)).toBe(`# retry\n\n${said("The package")}`);
  });

  it("a notebook exported to HTML keeps its cells' text, code and output, not their prompts (In [1]:, Out[1]:)", () => {
    const lab = `<main><div class="jp-Cell jp-MarkdownCell"><div class="jp-InputArea"><div class="jp-InputPrompt jp-InputArea-prompt"></div><div class="jp-RenderedMarkdown"><h1>Soil moisture</h1>${prose("The probes")}</div></div></div>` +
      `<div class="jp-Cell jp-CodeCell"><div class="jp-InputArea"><div class="jp-InputPrompt jp-InputArea-prompt">In&nbsp;[1]:</div><div class="jp-Editor"><div class="highlight hl-ipython3"><pre>df = load()</pre></div></div></div>` +
      `<div class="jp-OutputArea"><div class="jp-OutputArea-child"><div class="jp-OutputPrompt jp-OutputArea-prompt">Out[1]:</div><div class="jp-RenderedText"><pre>8640 rows</pre></div></div></div></div></main>`;
    expect(md(lab)).toBe(["# Soil moisture", said("The probes"), "```python\ndf = load()\n```", "```\n8640 rows\n```"].join("\n\n"));
    const text = (what: string) => `<div class="cell text_cell"><div class="text_cell_render">${prose(what)}</div></div>`;
    const classic = `<main><h1>Soil moisture</h1>${text("The probes")}<div class="cell code_cell"><div class="input"><div class="prompt input_prompt">In&nbsp;[2]:</div><div class="inner_cell"><div class="input_area"><div class="highlight hl-ipython3"><pre>df.mean()</pre></div></div></div></div></div>${text("The means")}</main>`;
    expect(md(classic)).toBe(["# Soil moisture", said("The probes"), "```python\ndf.mean()\n```", said("The means")].join("\n\n"));
  });

  it("a documentation page keeps its tables, code and lists, not the sidebar, pager or edit link", () => {
    const page = `<html><head><title>Options - Docs</title></head><body><nav class="sidebar"><ul><li><a href="/a">Intro</a></li><li><a href="/c">Options</a></li></ul></nav>
      <main><article><h1>Options</h1>${prose("The options object")}<h2>Parameters</h2>
      <table><thead><tr><th>Name</th><th>Default</th></tr></thead><tbody><tr><td><code>timeout</code></td><td>30000</td></tr></tbody></table>
      <h2>Example</h2><pre><code class="language-js">await fetch(url);</code></pre><ul><li>Use <code>timeout</code> for slow servers.</li><li>Redirects are followed.</li></ul>
      <div class="pagination"><a href="/b">Install</a> <a href="/d">Errors</a></div><p><a href="https://git.test/edit">Edit this page</a></p></article></main></body></html>`;
    expect(md(page)).toBe(
      [
        said("The options object"),
        "## Parameters",
        "| Name | Default |\n| --- | --- |\n| `timeout` | 30000 |",
        "## Example",
        "```js\nawait fetch(url);\n```",
        "- Use `timeout` for slow servers.\n- Redirects are followed.",
      ].join("\n\n"),
    );
  });
});

describe("the article's frame", () => {
  it("the headline, standfirst and lead picture before the body are kept; the dateline, byline and tags around it are not", () => {
    const page = `<body><nav><a href="/">Home</a></nav><article><header><h1>Storm hits the coast</h1><p class="standfirst">The storm that hit the coast on Monday left thousands without power for days.</p>
      <div class="meta"><span>Dienstag, 4. Juni 2019</span></div><p class="author">Von Ann Writer</p><figure><img src="/s.jpg" alt="The storm"><figcaption>Waves at the pier</figcaption></figure></header>
      <div class="body">${prose("One")}${prose("Two")}${prose("Three")}${prose("Four")}</div><div class="tags"><a href="/t/storm">Storm</a> <a href="/t/coast">Coast</a></div></article>
      <aside><p>More stories</p></aside></body>`;
    expect(md(page)).toBe(
      [
        "# Storm hits the coast",
        "The storm that hit the coast on Monday left thousands without power for days.",
        '![The storm](https://site.test/s.jpg "Waves at the pier")',
        said("One"),
        said("Two"),
        said("Three"),
        said("Four"),
      ].join("\n\n"),
    );
  });

  it("a header with like and share buttons beside the headline keeps its subtitle; the buttons go", () => {
    const page = `<html><head><title>Why small teams ship faster - by Ann Lee</title></head><body><article class="post"><div class="post-header"><h1 class="post-title">Why small teams ship faster</h1>
      <h3 class="subtitle">Fewer handoffs, shorter queues, and the cost of a meeting.</h3><div class="post-meta"><a href="/@ann">Ann Lee</a> <a class="like-button" href="#like">12</a> <a class="share-button" href="/share">Share</a></div></div>
      <div class="body markup">${prose("One")}${prose("Two")}${prose("Three")}${prose("Four")}</div></article></body></html>`;
    expect(md(page)).toBe(["### Fewer handoffs, shorter queues, and the cost of a meeting.", said("One"), said("Two"), said("Three"), said("Four")].join("\n\n"));
  });

  it("what wrappers add beside the body (a share prompt, a loading label) is left out as the body widens", () => {
    const page = `<body><div class="outer"><div class="wrap"><div class="text">${prose("One")}${prose("Two")}${prose("Three")}${prose("Four")}</div><span class="loading">Loading…</span></div>
      <div class="more">${prose("Five")}${prose("Six")}</div></div><div class="footer-links"><a href="/a">About</a></div></body>`;
    expect(md(page)).toBe([said("One"), said("Two"), said("Three"), said("Four"), said("Five"), said("Six")].join("\n\n"));
  });

  it("a banner or a 'sidebar'-named wrapper around the main content or the headline is layout, not furniture", () => {
    expect(md(`<body><header role="banner"><nav><a href="/">Home</a></nav><main><h1>Title</h1>${prose("One")}${prose("Two")}</main></header></body>`)).toBe(
      `# Title\n\n${said("One")}\n\n${said("Two")}`,
    );
    expect(md(`<body><div class="theiaStickySidebar"><h1>Title</h1>${prose("One")}${prose("Two")}</div><div class="sidebar">${prose("Side")}</div></body>`)).toBe(
      `# Title\n\n${said("One")}\n\n${said("Two")}`,
    );
  });

  it("a state word ends a class name's meaning: o-section--has-ads is a section, not an ad", () => {
    expect(md(`<body><section class="o-section o-section--has-ads"><h1>Title</h1>${prose("One")}${prose("Two")}</section><div class="ad-slot">Buy now</div></body>`)).toBe(
      `# Title\n\n${said("One")}\n\n${said("Two")}`,
    );
  });

  it("a BEM modifier flags a variant: TestReport__Section--Ads is a section of the report; an element named as an ad still goes", () => {
    const section = (id: string, lead: string) => `<section id="${id}" class="TestReport__Section TestReport__Section--Ads"><h2>${id}</h2>${prose(lead)}<div class="ad-slot">Buy now</div></section>`;
    expect(md(`<body><main><h1>Title</h1>${section("Setup", "One")}${section("Verdict", "Two")}</main></body>`)).toBe(
      `# Title\n\n## Setup\n\n${said("One")}\n\n## Verdict\n\n${said("Two")}`,
    );
  });

  it("comments that hold most of the page's text are still comments", () => {
    const comment = (n: number) => `<li class="comment">${prose(`Comment ${n} says`)}</li>`;
    expect(md(`<body><div class="article"><div class="text">${prose("One")}${prose("Two")}</div></div><ul class="comments">${[1, 2, 3, 4, 5].map(comment).join("")}</ul></body>`)).toBe(
      `${said("One")}\n\n${said("Two")}`,
    );
  });
});

describe("boilerplate inside the article", () => {
  it("datelines go wherever they stand, but a date in a quote, a list or a heading stays", () => {
    expect(
      md(`<body><article>${prose("One")}<p>Erstellt am Dienstag, 6. Mai 2014</p><p>23.10.2018 | 14:05</p><blockquote><p>Words.</p><p>— A reader, October 9, 2018</p></blockquote><ul><li>4 June 2019</li></ul>${prose("Two")}</article></body>`),
    ).toBe(`${said("One")}\n\n> Words.\n>\n> — A reader, October 9, 2018\n\n- 4 June 2019\n\n${said("Two")}`);
  });

  it("a line dating a story's publication and its update labels each date: four words more with a second date, not with times or more dates", () => {
    const page = (line: string) => md(`<body><article>${prose("One")}<div class="metadata">${line}</div>${prose("Two")}</article></body>`);
    const story = `${said("One")}\n\n${said("Two")}`;
    expect(page('<time>15. Oktober 2024, 18:03 Uhr</time> <span>Aktualisiert am 16. Oktober 2024, 7:41 Uhr</span> <a href="#comments">412 Kommentare</a>')).toBe(story);
    // Eight words besides two dates go; nine are a sentence.
    expect(page("Published on 4 June 2019 by the desk and updated on 5 June 2019")).toBe(story);
    expect(page("Published on 4 June 2019 by the news desk and updated on 5 June 2019")).toContain("by the news desk");
    // Two times are opening hours; three dates are a list of dated entries.
    expect(page("Open Monday to Friday from 9:00 until 17:00")).toContain("Open Monday to Friday");
    expect(page("Ike Diogu, Feb. 7, 2005<br>Ike Diogu, Jan. 10, 2005<br>Tommy Smith, Mar. 10, 2003")).toContain("Tommy Smith");
  });

  it("teaser cards around an article go; a page made of cards keeps them", () => {
    const card = (n: number) => `<div class="card"><h3><a href="/s${n}">Story ${n}</a></h3><p>Summary of story ${n}, in a line.</p></div>`;
    expect(md(`<body><article>${prose("One")}${prose("Two")}${prose("Three")}<div class="more">${card(1)}${card(2)}</div></article></body>`)).toBe(
      [said("One"), said("Two"), said("Three")].join("\n\n"),
    );
    expect(md(`<body><main>${card(1)}${card(2)}${card(3)}</main></body>`)).toBe(
      [1, 2, 3].map((n) => `### [Story ${n}](https://site.test/s${n})\n\nSummary of story ${n}, in a line.`).join("\n\n"),
    );
  });

  it("a short post whose title links to its own page is the post, not a teaser card beside a box", () => {
    const post = (href = "/2012/08/chair/#top") => `<div class="post"><h2><a href="${href}">Making of the chair (video)</a></h2><p class="post-meta">Posted by Dave on August 13th, 2012</p>
      <div class="post-content"><p>A designer has made a short video to show how the chair was made.</p><p>Watch the video on Vimeo, <a href="https://vimeo.test/1">here</a>.</p></div></div>`;
    const page = (url: string, href?: string) => `<html><head><title>Making of the chair (video) » Studio</title><link rel="canonical" href="${url}"></head><body><div id="body"><div id="content">${post(href)}</div>
      <div id="about"><h4>About the studio</h4><p>The studio is a celebration of contemporary culture, focused on architecture, design, art and travel.</p><p>It has written about houses, chairs, lamps, gardens and the people who make them, every day, for ten years.</p></div></div></body></html>`;
    expect(extract(page("https://site.test/2012/08/chair/"), "https://site.test/2012/08/chair/?utm=feed").content).toContain("A designer has made a short video to show how the chair was made.");
    // Linked elsewhere, the same card is a teaser for another page.
    expect(extract(page("https://site.test/2012/08/table/"), "https://site.test/2012/08/table/").content).not.toContain("A designer has made a short video");
    // A bare "#" is a script's handle, no link to the page.
    expect(extract(page("https://site.test/2012/08/chair/", "#"), "https://site.test/2012/08/chair/").content).not.toContain("A designer has made a short video");
  });

  it("a paragraph that is only a link goes; a sentence around a long link stays", () => {
    expect(
      md(`<body><article>${prose("One")}<p><a href="/forum">Discuss this in the forum</a></p><p>He replaced the spokesman, <a href="/x">who had held both jobs for the last eight months</a>.</p>${prose("Two")}</article></body>`),
    ).toBe(`${said("One")}\n\nHe replaced the spokesman, [who had held both jobs for the last eight months](https://site.test/x).\n\n${said("Two")}`);
  });
});

describe("Markdown that reads as text", () => {
  it("punctuation that touches emphasis moves inside it, and emphasis inside a word is dropped", () => {
    expect(md("<p><b>Moderator</b>: Ann, (<em>see</em>) un<b>believ</b>able.</p>")).toBe("**Moderator:** Ann, *(see)* unbelievable.");
  });

  it("emphasis between letters of a script that runs phrases on (Chinese, Japanese, Thai; Korean's particles) stays, where CommonMark reads it", () => {
    expect(md("<p>検証を<strong>境界で一度だけ</strong>行うことです。</p>")).toBe("検証を**境界で一度だけ**行うことです。");
    expect(md("<p>使用<b>React</b>构建界面。</p>")).toBe("使用**React**构建界面。");
    // Korean spaces its words but joins a particle to the word before: a bold phrase ends against it.
    expect(md("<p>핵심은 <strong>PATH에 직접 추가해야 한다</strong>는 부분입니다.</p>")).toBe("핵심은 **PATH에 직접 추가해야 한다**는 부분입니다.");
    // Markers between a letter and punctuation inside the run open or close nothing there: dropped, as inside a word.
    expect(md("<p>これは<b>「強調」</b>です。</p>")).toBe("これは「強調」です。");
    // Beside a letter of a spaced script, still a word's part.
    expect(md("<p>検証<b>bold</b>er.</p>")).toBe("検証bolder.");
  });

  it("a closing bracket or quote moves into emphasis only when the emphasis opens with its counterpart, so each pair stays balanced", () => {
    expect(md("<p>Each slot holds a number (a <em>stamp</em>). Replace <em>l</em> with <em>r</em>): done.</p>")).toBe("Each slot holds a number (a *stamp*). Replace *l* with *r*): done.");
    expect(md("<p>“Should I start <b>Calvin?</b>” and „<b>Spirit Crystals</b>” or \"<i>must</i>\".</p>")).toBe("“Should I start **Calvin?**” and **„Spirit Crystals”** or *\"must\".*");
  });
});

describe("pages whose text is not where a reader of the markup looks first", () => {
  it("a page rendered by script shows the text of its JSON-LD, flagged json-ld", () => {
    const data = { "@context": "https://schema.org", "@type": "NewsArticle", headline: "Storm hits the coast", articleBody: `${said("One")}\n\n${said("Two")}\n${said("Three")}` };
    const result = extract(`<html><head><title>Storm hits the coast</title><script type="application/ld+json">${JSON.stringify(data)}</script></head><body><div id="root"><p>Loading…</p></div><script src="/app.js"></script></body></html>`);
    expect(result.content).toBe([said("One"), said("Two"), said("Three")].join("\n\n"));
    expect(result.metadata?.extraction).toBe("json-ld");
  });

  it("a page showing pictures and links but little text is measured by its text, not by the length of their URLs", () => {
    const data = { "@type": "NewsArticle", articleBody: [said("One"), said("Two"), said("Three")].join("\n\n") };
    const picture = `<img src="https://images.site.test/${"a".repeat(3000)}.jpg" alt="Storm">`;
    const result = extract(`<html><head><script type="application/ld+json">${JSON.stringify(data)}</script></head><body><div id="root"><p>${picture} <a href="/${"b".repeat(3000)}">Gallery</a></p></div></body></html>`);
    expect(result.content).toBe([said("One"), said("Two"), said("Three")].join("\n\n"));
    expect(result.metadata?.extraction).toBe("json-ld");
  });

  it("a recipe's JSON-LD gives its description, ingredients and steps (sections named, steps not repeating their names)", () => {
    const data = {
      "@type": "Recipe",
      name: "Bread",
      description: said("The bread"),
      recipeIngredient: ["500 g flour", "10 g salt"],
      recipeInstructions: [{ "@type": "HowToSection", name: "Dough", itemListElement: [{ "@type": "HowToStep", name: "Mix the flour…", text: "Mix the flour and the salt with water." }] }],
    };
    const result = extract(`<html><head><script type="application/ld+json">${JSON.stringify({ "@graph": [data] })}</script></head><body><div id="app"></div></body></html>`);
    expect(result.content).toBe([said("The bread"), "- 500 g flour\n- 10 g salt", "### Dough", "Mix the flour and the salt with water."].join("\n\n"));
  });

  it("a JSON-LD body of tag opens that never close is text, read in time linear in it", () => {
    const data = { "@type": "Article", articleBody: `${said("One")} ${"<b".repeat(150_000)}` };
    const result = extract(`<html><head><script type="application/ld+json">${JSON.stringify(data)}</script></head><body><div id="app"></div></body></html>`);
    expect(result.content).toBe(`${said("One")} ${"\\<b".repeat(150_000)}`);
  });

  it("JSON-LD does not replace a page that shows its text", () => {
    const data = { "@type": "Article", articleBody: said("Only in the data") };
    const result = extract(`<html><head><script type="application/ld+json">${JSON.stringify(data)}</script></head><body><article>${prose("One")}${prose("Two")}</article></body></html>`);
    expect(result.content).toBe(`${said("One")}\n\n${said("Two")}`);
    expect(result.metadata?.extraction).toBeUndefined();
  });

  it("a page that is nothing but entries named as comments (a guestbook, a ticker) keeps the entries", () => {
    const entry = (n: number) => `<div class="comment"><div class="comment-author">Guest ${n}</div><div class="comment-body">${prose(`Entry ${n}`)}</div></div>`;
    const page = `<body><nav><a href="/">Home</a></nav><h1>Guestbook</h1><div class="comments">${[1, 2, 3].map(entry).join("")}</div></body>`;
    const content = md(page);
    for (const n of [1, 2, 3]) expect(content).toContain(said(`Entry ${n}`));
  });

  it("a hero header apart from the text column brings its standfirst (the headline is the title), not its byline or picture; a newsletter's <h1> is not the headline", () => {
    const column = Array.from({ length: 10 }, (_, i) => prose(`Part ${i}`)).join("");
    const page = `<html><head><title>Storm hits the coast</title></head><body><div class="signup"><h1>Newsletter</h1></div><div class="page"><div class="hero"><h1>Storm hits the coast</h1>
      <p>The storm that hit the coast on Monday left thousands without power for days.</p><p class="byline">By Ann Writer, staff reporter of the paper</p>
      <figure><img src="/s.jpg" alt="The storm"><figcaption>Waves breaking on the pier in the early morning.</figcaption></figure></div>
      <div class="column"><div class="text">${column}</div><div class="share"><a href="/x">Share</a></div></div></div><footer>Imprint</footer></body></html>`;
    const result = extract(page);
    expect(result.title).toBe("Storm hits the coast");
    expect(result.content).toBe(
      ["The storm that hit the coast on Monday left thousands without power for days.", ...Array.from({ length: 10 }, (_, i) => said(`Part ${i}`))].join("\n\n"),
    );
  });
});

describe("boilerplate inside the article, round two", () => {
  it("a form inside the content (a login, a newsletter box) goes; a form wrapping the text stays", () => {
    expect(md(`<body><article>${prose("One")}${prose("Two")}<form action="/sub"><p>Get the newsletter every morning, free of charge.</p></form></article></body>`)).toBe(
      `${said("One")}\n\n${said("Two")}`,
    );
    expect(md(`<body><form action="/post"><div class="text">${prose("One")}${prose("Two")}</div></form></body>`)).toBe(`${said("One")}\n\n${said("Two")}`);
  });

  it("a box around a form to type in and its button (a newsletter sign-up, a search) goes with its heading and blurb; a box whose form has only buttons stays", () => {
    const page = (box: string) => `<body><article><h1>Bike lanes</h1>${prose("One")}${prose("Two")}${box}</article></body>`;
    const signUp = (field: string) => `<div class="bottom"><h2>Sign up for the Morning</h2><p>Get the day's news in your inbox every morning.</p><form action="/sub">${field}<button>Sign Up</button></form></div>`;
    expect(md(page(signUp('<input type="email" placeholder="Email">')))).toBe(`# Bike lanes\n\n${said("One")}\n\n${said("Two")}`);
    expect(md(page(signUp("<input>")))).toBe(`# Bike lanes\n\n${said("One")}\n\n${said("Two")}`);
    // A button counts for its form up to three wrappers inside it; one deeper is out of the bounded reach.
    const wrapped = (wrappers: number) => signUp('<input type="email">').replace("<button>Sign Up</button>", `${"<div>".repeat(wrappers)}<button>Sign Up</button>${"</div>".repeat(wrappers)}`);
    expect(md(page(wrapped(3)))).toBe(`# Bike lanes\n\n${said("One")}\n\n${said("Two")}`);
    expect(md(page(wrapped(4)))).toBe(`# Bike lanes\n\n${said("One")}\n\n${said("Two")}\n\n## Sign up for the Morning\n\nGet the day's news in your inbox every morning.`);
    expect(md(page(signUp('<input type="submit" value="Go">')))).toBe(`# Bike lanes\n\n${said("One")}\n\n${said("Two")}\n\n## Sign up for the Morning\n\nGet the day's news in your inbox every morning.`);
    // A recipe card's print form, or buttons outside any form, say nothing of the box.
    const card = (controls: string) => `<div><h2>Pear jam</h2><p>Makes four jars.</p>${controls}</div>`;
    for (const controls of ['<form action="/print"><input type="hidden" name="id" value="3"><button>Print</button></form>', "<button>Add to list</button>"]) {
      expect(md(page(card(controls)))).toBe(`# Bike lanes\n\n${said("One")}\n\n${said("Two")}\n\n## Pear jam\n\nMakes four jars.`);
    }
  });

  it("a post's lists of short lines named as its lists (WordPress' wp-block-list, Notion's bulleted-list and notion-numbered_list-block) are its text; a list of lines named otherwise as a list is still a box", () => {
    const page = (name: string) =>
      `<body><main><h1>Packing</h1><div class="entry-content">${prose("One")}<h2>Always in the pack</h2><ul class="${name}"><li>Rain jacket</li><li>Water filter</li><li>Headlamp</li></ul>${prose("Two")}</div></main></body>`;
    for (const name of ["bulleted-list", "numbered-list"]) expect(md(page(name))).toContain("## Always in the pack\n\n- Rain jacket\n- Water filter\n- Headlamp");
    expect(md(page("wp-block-list"))).toBe(`# Packing\n\n${said("One")}\n\n## Always in the pack\n\n- Rain jacket\n- Water filter\n- Headlamp\n\n${said("Two")}`);
    expect(md(page("item-list"))).toBe(`# Packing\n\n${said("One")}\n\n## Always in the pack\n\n${said("Two")}`);
    // Notion's published pages: each item a block of its own, named as a list's.
    const item = (text: string) => `<div class="notion-selectable notion-numbered_list-block"><div style="display:flex"><span class="pseudoBefore"></span><div data-content-editable-leaf="true">${text}</div></div></div>`;
    expect(md(`<body><main><h1>Onboarding</h1>${prose("One")}${item("Open a draft PR early.")}${item("Ask for review once CI is green.")}${prose("Two")}</main></body>`)).toContain(
      "Open a draft PR early.\n\nAsk for review once CI is green.",
    );
  });

  it("a feedback box (\"Was this page helpful?\" and its buttons) goes", () => {
    expect(md(`<body><main><article>${prose("One")}<div class="feedback"><p>Was this page helpful?</p><button>Yes</button><button>No</button></div>${prose("Two")}</article></main></body>`)).toBe(
      `${said("One")}\n\n${said("Two")}`,
    );
  });

  it("an author's bio box, an affiliate or advertiser disclosure and promoted stories after the article go", () => {
    const page = (box: string) => `<body><main><article>${prose("One")}${prose("Two")}${box}${prose("Three")}</article></main></body>`;
    const expected = [said("One"), said("Two"), said("Three")].join("\n\n");
    expect(md(page('<div class="post-bio"><p>Ann Lee writes about trains and the people who run them, from Berlin.</p></div>'))).toBe(expected);
    expect(md(page('<div class="affiliate-note"><p>This article may contain links to shops that pay us a commission.</p></div>'))).toBe(expected);
    expect(md(page('<div class="advertiser-disclosure"><p>We may receive compensation when you click on links to these products.</p></div>'))).toBe(expected);
    expect(md(page('<div class="promoted-stories"><h3>Around the web</h3><p>Doctors stunned by this simple trick, which anyone can learn at home.</p></div>'))).toBe(expected);
  });

  it("a page builder's blocks are the text, named by their kind (Elementor's elementor-widget-heading); a sidebar's widgets are not", () => {
    const block = (kind: string, html: string) => `<div class="elementor-element elementor-widget elementor-widget-${kind}" data-widget_type="${kind}.default"><div class="elementor-widget-container">${html}</div></div>`;
    const page = `<body><main><article>${block("text-editor", prose("One"))}${block("heading", '<h2 class="elementor-heading-title">Getting the set-up right</h2>')}${block("text-editor", prose("Two"))}${block("share-buttons", '<a href="https://x.test/share">Share</a>')}</article><aside><section class="widget widget_recent_entries"><h3>Recent</h3><p><a href="/a">A post</a></p></section></aside></main></body>`;
    expect(md(page)).toBe(`${said("One")}\n\n## Getting the set-up right\n\n${said("Two")}`);
    // Its picture block's caption is a caption.
    const picture = block("image", '<figure class="wp-caption"><img src="/troughs.jpg" alt="Two troughs on a railing"><figcaption class="widget-image-caption wp-caption-text">Troughs catch more light.</figcaption></figure>');
    expect(md(`<body><main><article>${prose("One")}${picture}${prose("Two")}</article></main></body>`)).toContain('![Two troughs on a railing](https://site.test/troughs.jpg "Troughs catch more light.")');
  });

  it("a captioned figure's box with a button to the full-size picture is the article's figure; a box of a picture and a button is a prompt", () => {
    const button = '<div class="u-text-right"><a class="c-article__pill-button" href="/articles/1/figures/1">Full size image</a></div>';
    const figure = (caption: string) =>
      `<div class="c-article-section__figure" id="figure-1"><figure>${caption}<div><a href="/articles/1/figures/1"><img src="/fig1.png" alt="Biomass after three droughts"></a></div></figure>${button}</div>`;
    const page = (box: string) => md(`<body><main><article>${prose("One")}${box}${prose("Two")}</article></main></body>`);
    expect(page(figure('<figcaption><b id="Fig1">Fig. 1: Diversity reduces losses.</b></figcaption>'))).toContain("Biomass after three droughts");
    expect(page(figure(""))).toBe(`${said("One")}\n\n${said("Two")}`);
    // The figure stands two levels down in its box at most.
    const captioned = figure('<figcaption>Fig. 1: Diversity reduces losses.</figcaption>');
    const nested = (levels: number) => captioned.replace("<figure>", `${"<div>".repeat(levels)}<figure>`).replace(button, `${"</div>".repeat(levels)}${button}`);
    expect(page(nested(1))).toContain("Biomass after three droughts");
    expect(page(nested(2))).toBe(`${said("One")}\n\n${said("Two")}`);
  });

  it("a captioned figure of a table with a button to the full-size table (Springer's) is the article's table; four levels down at most", () => {
    const table = "<table><tr><th>Site</th><th>Days</th></tr><tr><td>Brno</td><td>14</td></tr><tr><td>Graz</td><td>11</td></tr></table>";
    const box = (levels: number) =>
      `<div class="c-article-table" id="table-1"><figure><figcaption><b>Table 1 Sites and their heat-wave days</b></figcaption><div class="u-text-right"><a class="c-article__pill-button" href="/tables/1">Full size table</a></div>${"<div>".repeat(levels - 1)}${table}${"</div>".repeat(levels - 1)}</figure></div>`;
    const page = (levels: number) => md(`<body><main><article>${prose("One")}${box(levels)}${prose("Two")}</article></main></body>`);
    expect(page(4)).toContain("| Brno | 14 |");
    expect(page(4)).not.toContain("Full size table");
    expect(page(5)).not.toContain("Brno");
  });

  it("a poster's signature under each forum post (phpBB's, SMF's and MyBB's class=signature) goes", () => {
    const post = (n: number, signature: string) => `<div class="post" id="p${n}"><div class="content">${prose(`Post ${n}`)}</div>${signature}</div>`;
    const page = (signature: string) => `<body><main>${post(1, signature)}${post(2, signature)}</main></body>`;
    const signature = "C64C, 1541-II x3, 1581, SX-64 (waiting for a new keyboard)";
    expect(md(page(`<div id="sig1" class="signature">${signature}</div>`))).toBe(`${said("Post 1")}\n\n${said("Post 2")}`);
    expect(md(page(`<div class="sig-line">${signature}</div>`))).toContain(signature);
    // An API's signature is its text: Javadoc's member-signature, JSDoc's inline span.
    expect(md(page('<div class="member-signature"><span class="modifiers">public static</span> int maxAttempts()</div>'))).toContain("public static int maxAttempts()");
    expect(md(`<body><main><h4 class="name">retry<span class="signature">(action, attempts)</span></h4>${prose("Doc")}</main></body>`)).toContain("retry(action, attempts)");
  });

  it("a label over a box that was left out goes with it; a short line with nothing left out after it stays", () => {
    expect(md(`<body><article>${prose("One")}<p>Auch interessant:</p><ul><li><a href="/a">Story A</a></li><li><a href="/b">Story B</a></li></ul><h2>Next</h2>${prose("Two")}</article></body>`)).toBe(
      `${said("One")}\n\n## Next\n\n${said("Two")}`,
    );
    expect(md(`<body><article>${prose("One")}<p>Zutaten</p>${prose("Two")}</article></body>`)).toBe(`${said("One")}\n\nZutaten\n\n${said("Two")}`);
  });

  it("a code block's line set in an element of its own is no label of the copy button after it: the heading over the block stays", () => {
    const block = `<figure class="frame"><pre data-language="sh"><code><div class="ec-line"><div class="code"><span>npm install @orbit/auth</span></div></div></code></pre><div class="copy"><button title="Copy to clipboard"><div></div></button></div></figure>`;
    expect(md(`<body><main>${prose("One")}<h2 id="install">Install the module</h2>${block}<h2 id="configure">Configure it</h2>${prose("Two")}</main></body>`)).toBe(
      `${said("One")}\n\n## Install the module\n\n\`\`\`sh\nnpm install @orbit/auth\n\`\`\`\n\n## Configure it\n\n${said("Two")}`,
    );
  });

  it("a line paired with a label ending in ':' (the two alone in their box) is its value, though a box left out follows", () => {
    const item = (label: string, value: string) => `<div class="details__item"><div class="details__label">${label}</div><div class="details__value">${value}</div></div>`;
    const page = (items: string) =>
      md(`<body><article>${prose("One")}<div class="details">${items}<div class="adjust"><button>Original recipe (1X) yields 10 servings</button></div></div><h2>Ingredients</h2>${prose("Two")}</article></body>`);
    expect(page(item("Servings:", "10") + item("Yield:", "1 (9x5-inch) loaf"))).toContain("Yield:\n\n1 (9x5-inch) loaf\n\n## Ingredients");
    // Apart, or after a label asking nothing, or of single letters (a control's), the line is a label of the box after it.
    expect(page(`${item("Servings:", "10")}<div><div>Yield:</div></div><div>1 (9x5-inch) loaf</div>`)).not.toContain("1 (9x5-inch) loaf");
    expect(page(item("Servings:", "10") + item("Yield", "1 (9x5-inch) loaf"))).not.toContain("1 (9x5-inch) loaf");
    expect(page(item("Servings:", "10") + item("Text size:", "A | A | A"))).not.toContain("A | A");
  });

  it("a paper's abstract named as its authors' (ScienceDirect's `abstract author`) is its text; a box named as the author's alone is a byline", () => {
    const box = (name: string) =>
      `<div class="${name}"><h2>Abstract</h2><div>Fast charging of lithium iron phosphate cells at sub-zero temperatures accelerates capacity fade, as plated lithium builds up.</div></div>`;
    const page = (name: string) => md(`<body><main><article><h1>Plating in cold cells</h1>${prose("Intro")}${box(name)}${prose("Body")}</article></main></body>`);
    expect(page("abstract author")).toContain("## Abstract\n\nFast charging of lithium iron phosphate cells");
    expect(page("author")).not.toContain("Fast charging");
  });

  it("a short line ending a cell of a table with header cells is the cell's value, not a label of what comes after the table", () => {
    const table = (head: string) =>
      `<table>${head}<tbody><tr><td><p><code>a b</code></p></td><td><p>plain words here</p></td></tr></tbody></table>`;
    const page = (head: string) =>
      md(`<body><div><div role="main"><section><h1>Lexical analysis</h1>${prose("One")}<section><h2>Rules</h2>${prose("Two")}${table(head)}</section></section><div></div></div></div></body>`);
    expect(page("<thead><tr><th><p>Input</p></th><th><p>Result</p></th></tr></thead>")).toContain("| `a b` | plain words here |");
  });

  it("a heading as long as a paragraph or ending in a full stop is text, and keeps its section from emptying", () => {
    expect(md(`<body><article><h2>The storm left thousands without power.</h2><ul class="related"><li><a href="/a">A</a></li></ul>${prose("One")}${prose("Two")}</article></body>`)).toBe(
      `## The storm left thousands without power.\n\n${said("One")}\n\n${said("Two")}`,
    );
  });

  it("a heading element wrapped around paragraphs (an unclosed <h2>) renders its paragraphs, not one heading", () => {
    expect(md(`<body><article><h2>${prose("One")}${prose("Two")}</h2></article></body>`)).toBe(`${said("One")}\n\n${said("Two")}`);
  });

  it("what the author leaves out of print goes; a footer inside <main> but no section is the site's", () => {
    expect(md(`<body><main><article>${prose("One")}<div class="noprint">Share this on every network today</div>${prose("Two")}</article><footer><p>Copyright and imprint of the publisher.</p></footer></main></body>`)).toBe(
      `${said("One")}\n\n${said("Two")}`,
    );
  });

  it("a dateline in another script's letters and digits goes like any other", () => {
    expect(md(`<body><article>${prose("One")}<p>১২ জানুয়ারি ২০২০, ১০:৩০</p>${prose("Two")}</article></body>`)).toBe(`${said("One")}\n\n${said("Two")}`);
    // East Asian dates, each part followed by its unit (Qiita's "投稿日 2024年03月12日", a Korean blog's "2024년 3월 12일").
    for (const line of ["投稿日 2024年03月12日 更新日 2024年03月18日", "发布于 2024年3月12日", "2024년 3월 12일 작성"]) {
      expect(md(`<body><article>${prose("One")}<p>${line}</p>${prose("Two")}</article></body>`)).toBe(`${said("One")}\n\n${said("Two")}`);
    }
    // A year alone, or a month and day without the year, is no date there.
    expect(md(`<body><article>${prose("One")}<p>3月12日の会議</p>${prose("Two")}</article></body>`)).toContain("3月12日の会議");
  });

  it("a paragraph whose link text is the address written out is a reference and stays", () => {
    expect(md(`<body><article>${prose("One")}<p><a href="https://data.test/report.pdf">https://data.test/report.pdf</a></p>${prose("Two")}</article></body>`)).toBe(
      `${said("One")}\n\n[https://data.test/report.pdf](https://data.test/report.pdf)\n\n${said("Two")}`,
    );
  });
});

describe("what the page cannot smuggle in", () => {
  it("noncharacters are dropped everywhere, code spans and alt text included, so none becomes emphasis or an escape", () => {
    expect(md(`<p>Run <code>(\ufdd0x\ufdd1)</code> and <code>a\ufdd6*b</code>.</p><p><img src="/p.png" alt="A \ufdd2chart\ufdd3 of sales"></p>`)).toBe(
      "Run `(x)` and `a*b`.\n\n![A chart of sales](https://site.test/p.png)",
    );
  });

  it("noncharacters are dropped from code blocks and captions too", () => {
    expect(md(`<p>Run this:</p><pre data-lang="py\ufdd0"><code>print(\ufdd0"*"\ufdd1)</code></pre><figure><img src="/p.png" alt="Chart"><figcaption>Sales \ufdd2by\ufdd3 year</figcaption></figure>`)).toBe(
      'Run this:\n\n```py\nprint("*")\n```\n\n![Chart](https://site.test/p.png "Sales by year")',
    );
  });

  it("noncharacters written as entities are dropped as well, in text and attributes", () => {
    expect(md(`<p>Say &#xFDD0;text&#xFDD1; and <code>&#xfdd6;*</code>.</p><p><img src="/p.png" alt="A &#xFDD2;chart&#xFDD3;"></p>`)).toBe(
      "Say text and `*`.\n\n![A chart](https://site.test/p.png)",
    );
  });

  it("every spelling of such an entity is dropped: decimal, leading zeros, upper or lower case, without a semicolon", () => {
    for (const entity of ["&#64976;", "&#065007;", "&#X0FDEF;", "&#xfde0;", "&#64990"]) {
      expect(md(`<p>Say ${entity}text${entity} and <code>${entity}*</code>.</p>`), entity).toBe("Say text and `*`.");
    }
  });

  it("JSON-LD steps nested without end are followed only so deep, and the page still extracts", () => {
    const nested = `${"[".repeat(10_000)}"Too deep"${"]".repeat(10_000)}`;
    const data = `{"@type":"HowTo","description":${JSON.stringify(said("The guide"))},"step":[{"@type":"HowToStep","text":"Mix it."},${nested}]}`;
    const result = extract(`<html><head><script type="application/ld+json">${data}</script></head><body><div id="app"></div></body></html>`);
    expect(result.content).toBe(`${said("The guide")}\n\nMix it.`);
  });

  it("JSON-LD plain text is escaped, HTML in it is rendered", () => {
    const plain = { "@type": "Article", articleBody: `${said("One")} Use a < b && c > d.` };
    expect(extract(`<html><head><script type="application/ld+json">${JSON.stringify(plain)}</script></head><body><div id="app"></div></body></html>`).content).toBe(
      `${said("One")} Use a < b && c > d.`,
    );
    const html = { "@type": "Article", articleBody: `<p>${said("One")}</p><ul><li>First</li><li>Second</li></ul>` };
    expect(extract(`<html><head><script type="application/ld+json">${JSON.stringify(html)}</script></head><body><div id="app"></div></body></html>`).content).toBe(
      `${said("One")}\n\n- First\n- Second`,
    );
  });
});
