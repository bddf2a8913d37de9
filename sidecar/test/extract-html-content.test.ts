import { describe, expect, it } from "vitest";
import { htmlHandler, WHOLE_PAGE } from "../src/extract/html-handler.ts";

/** Main-content extraction on small hand-made pages, each asserting the exact Markdown. */

const extract = (html: string, url = "https://news.test/2024/storm") => htmlHandler.extract({ text: html, url, mime: "text/html" });
const md = (html: string): string => extract(html).content;
const prose = (lead: string): string =>
  `<p>${lead} explains one topic in a sentence or two, with commas, clauses, and enough words to count.</p>`;
const said = (lead: string): string => `${lead} explains one topic in a sentence or two, with commas, clauses, and enough words to count.`;
const links = (count: number): string =>
  `<ul>${Array.from({ length: count }, (_, i) => `<li><a href="/l${i}">Link number ${i}</a></li>`).join("")}</ul>`;

describe("html main content: boilerplate removal", () => {
  const page = `<!doctype html><html lang="en"><head><title>Storm hits the coast | Daily News</title></head><body>
    <div class="cookie-banner"><p>We use cookies to improve your experience, please accept them.</p><button>Accept</button></div>
    <header><a href="/">Daily News</a><nav><a href="/world">World</a> <a href="/sport">Sport</a></nav></header>
    <div class="layout"><div class="content-column"><article>
      <h1>Storm hits the coast</h1>
      <div class="byline">By <a href="/ann">Ann Writer</a>, March 3</div>
      <div class="share-bar"><a href="https://x.test/share">Share</a> <a href="https://fb.test/share">Post</a></div>
      ${prose("One")}${prose("Two")}
      <div class="slot"><span>Advertisement</span></div>
      <p><strong>Read more:</strong> <a href="/other-story">An older story about storms</a></p>
      ${prose("Three")}
      <h2>What comes next</h2>
      ${prose("Four")}
      <div hidden>${prose("Hidden")}</div><p style="display:none">Also hidden from every reader of this page, whatever its length is.</p>
      <h2>Related stories</h2>
      <ul class="link-list"><li><a href="/a">First related story headline</a></li><li><a href="/b">Second related story headline</a></li></ul>
    </article>
    <section id="comments"><h2>Comments</h2><p>Great article, thanks for writing it, I learned a lot from reading it today.</p></section>
    </div><aside class="sidebar"><h3>Most read</h3>${prose("Sidebar")}</aside></div>
    <footer><p>Copyright Daily News, all rights reserved, since the year 1900 and forever.</p></footer>
  </body></html>`;

  it("keeps the story; drops banner, header, nav, headline, byline, share bar, ad label, read-more link, hidden text, related links, comments, sidebar and footer", () => {
    expect(md(page)).toBe(`${said("One")}\n\n${said("Two")}\n\n${said("Three")}\n\n## What comes next\n\n${said("Four")}`);
  });

  it("the headline stays available as the title, so the content does not repeat it", () => {
    expect(extract(page).title).toBe("Storm hits the coast | Daily News");
  });

  it("an article split by a promo into sibling blocks comes out whole, without the promo", () => {
    expect(
      md(`<body><nav>${links(3)}</nav><div id="story"><div class="part">${prose("One")}${prose("Two")}</div><div class="promo"><a href="/x">Subscribe now for more</a></div><div class="part">${prose("Three")}${prose("Four")}</div></div><div class="more">${links(8)}</div></body>`),
    ).toBe(`${said("One")}\n\n${said("Two")}\n\n${said("Three")}\n\n${said("Four")}`);
  });

  it("a page-wide wrapper named like furniture (penci_sidebar) is not dropped with its sidebar", () => {
    expect(md(`<body><div class="container penci_sidebar"><div class="post">${prose("One")}${prose("Two")}</div><div class="widget-area sidebar">${prose("Side")}</div></div></body>`)).toBe(
      `${said("One")}\n\n${said("Two")}`,
    );
  });

  it("a sidebar of link lists is a box, not a wrapper, however much of the page's text it holds beside a one-line post", () => {
    const archive = `<ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/2012/${i + 1}">Archive of month number ${i + 1} of the year</a></li>`).join("")}</ul>`;
    const page = `<html><head><title>The Brain » La Muerte</title><meta property="og:title" content="La Muerte"></head><body><div id="rap">
      <div id="headwrap"><h1><a href="/">The Brain</a></h1><div class="description">Things I find on the web</div></div>
      <div id="content"><div class="post"><h3><a href="https://blog.test/2012/11/la-muerte">La Muerte</a></h3>
        <div class="meta"><a href="/c/sounds">sounds</a> — Tags: <a href="/t/animation">animation</a> — me @ 15:58</div>
        <div class="storycontent"><p>Wonderful animated video for <a href="https://band.test/">Monsieur Periné</a>! Created by <a href="https://artist.test/">Jose Arboleda</a></p></div>
        <div class="feedback"><a href="#respond">Comments (0)</a></div></div></div>
      <div id="sidebar"><ul><li class="widget"><div class="textwidget">Hello stranger, let us connect: you can like my page <a href="/f">here</a> or add me to your circles, and the brain has its own video channel too, with new films every week for you!</div></li>
        <li class="widget"><h2>Archives</h2>${archive}</li></ul></div></div></body></html>`;
    const content = extract(page, "https://blog.test/2012/11/la-muerte").content;
    expect(content).toContain("Wonderful animated video for [Monsieur Periné](https://band.test/)! Created by [Jose Arboleda](https://artist.test/)");
    expect(content).not.toContain("Hello stranger");
    expect(content).not.toContain("Archive of month");
  });

  it("a page's one post named as one is its text, however short beside a box that scores better", () => {
    const page = `<html><head><title>city chic - A blog</title></head><body><div id="container"><div id="banner"><h1><a href="/">A blog</a></h1></div>
<div id="beta"><div class="entry-category-decor entry-author-ann entry-type-post entry" id="entry-1"><h3 class="entry-header">city chic</h3><div class="asset-content"><div class="asset-body"><p>Happy Friday! We love this inspiration board and are excited to celebrate with a chic couple this weekend.</p></div></div>
<div class="entry-footer"><span class="post-footers">Posted at 10:52 AM in <a href="/decor/">Decor</a> | <a href="/2012/10/city-chic.html">Permalink</a></span></div></div>
<div class="trackbacks"><h3>TrackBack</h3><p>TrackBack URL for this entry: https://www.typepad.test/services/trackback/6a00e5</p><p>Listed below are links to weblogs that reference <a href="/2012/10/city-chic.html">city chic</a>:</p></div></div>
<div id="gamma"><div class="module-typelist module"><h2 class="module-header">{small print}</h2><div class="module-content"><ul><li>If you see an image we have not linked or given credit to, please let us know so we can give proper credit, and we will.</li><li>If we have used an image that belongs to your company, and you would prefer we not post it, please let us know, and we will take it down.</li></ul></div></div></div>
</div></body></html>`;
    expect(extract(page, "https://blog.test/2012/10/city-chic.html").content).toBe(
      "### city chic\n\nHappy Friday! We love this inspiration board and are excited to celebrate with a chic couple this weekend.\n\nPosted at 10:52 AM in [Decor](https://blog.test/decor/) | [Permalink](https://blog.test/2012/10/city-chic.html)",
    );
  });

  it("a frame around a post's named body does not widen to the site's footer", () => {
    const page = `<html><head><title>A post</title></head><body><div id="wrapper"><div id="sidebar">${links(6)}</div>
      <div id="content"><div class="post"><h1>A post</h1><div class="entry">${prose("One")}</div>${prose("Two")}<p>Comments are closed.</p></div></div>
      <div id="footer"><p>All writing on this site is, unless said otherwise, under a Creative Commons licence, with attribution, for any use.</p></div></div></body></html>`;
    expect(md(page)).toBe(`${said("One")}\n\n${said("Two")}\n\nComments are closed.`);
  });

  it("a table whose first row heads its columns is data however linked (a support matrix); a box of links under one title cell still goes", () => {
    const row = (name: string, path: string) => `<tr><td><a href="${path}">${name}</a></td><td><a href="${path}"><img src="/check.svg" alt="yes"></a></td><td><a href="${path}">Docs</a></td></tr>`;
    const page = `<html><head><title>Install</title></head><body><article><h1>Install</h1>${prose("One")}
      <table><thead><tr><th>Platform</th><th>x86_64</th><th>Guide</th></tr></thead><tbody>${row("Desktop for Mac", "/mac/")}${row("Desktop for Windows", "/windows/")}</tbody></table>
      ${prose("Two")}
      <table class="box"><tr><th colspan="2">Villagers</th></tr><tr><th>Town</th><td><a href="/a">Alex</a> • <a href="/e">Elliott</a> • <a href="/s">Sam</a></td></tr><tr><th>Farm</th><td><a href="/m">Marnie</a> • <a href="/j">Jas</a></td></tr></table>
      </article></body></html>`;
    const cells = (name: string, path: string) => `| [${name}](https://docs.test${path}) | [![yes](https://docs.test/check.svg)](https://docs.test${path}) | [Docs](https://docs.test${path}) |`;
    expect(extract(page, "https://docs.test/install/").content).toBe(
      [said("One"), ["| Platform | x86_64 | Guide |", "| --- | --- | --- |", cells("Desktop for Mac", "/mac/"), cells("Desktop for Windows", "/windows/")].join("\n"), said("Two")].join("\n\n"),
    );
  });

  it("a list in a post's named body with more of the post after it is the author's points, each with its link; related links after the post still go", () => {
    const point = (who: string, path: string, what: string) => `<li>${who} <a href="https://bugs.test${path}">${what}</a></li>`;
    const page = `<html><head><title>These weeks in the browser</title></head><body><div class="post hentry"><h1>These weeks in the browser</h1><div class="entry-content">${prose("One")}
      <ul>${point("Thanks to Ann, users can now", "/1", "import logins from a file")}${point("Bo, a first-time contributor,", "/2", "removed an attribute from dialogs")}</ul>
      ${prose("Two")}
      <ul><li><a href="/older">An older post about releases</a> (2020)</li><li><a href="/oldest">The oldest post about releases</a> (2019)</li></ul>
      </div></div></body></html>`;
    expect(extract(page, "https://blog.test/weeks").content).toBe(
      [said("One"), "- Thanks to Ann, users can now [import logins from a file](https://bugs.test/1)\n- Bo, a first-time contributor, [removed an attribute from dialogs](https://bugs.test/2)", said("Two")].join("\n\n"),
    );
  });

  it("a post's named body is not dropped whole as a list of links: a picture post's credit line stays, a bare link list in it goes", () => {
    const page = `<html><head><title>Casual hero portraits</title></head><body><div id="content"><div class="hentry"><h1>Casual hero portraits</h1><div class="entry-content">
      <p><img src="/one.jpg" alt="One"></p><p>Created by <a href="https://artist.test/">Mia Turner</a>, <a href="https://gallery.test/heroes">gallery</a></p>
      <ul><li><a href="/share/x">Share on X</a></li><li><a href="/share/mail">Share by mail</a></li></ul>
      </div></div><p>Every picture here is shared under a licence that lets you remix it, as long as you credit the artist.</p></div></body></html>`;
    expect(extract(page, "https://pictures.test/heroes").content).toBe(
      "![One](https://pictures.test/one.jpg)\n\nCreated by [Mia Turner](https://artist.test/), [gallery](https://gallery.test/heroes)\n\nEvery picture here is shared under a licence that lets you remix it, as long as you credit the artist.",
    );
  });

  it("a short post named as one is the page's text, however many boxes of prose stand beside it", () => {
    const box = (name: string) => `<div class="box"><h3>${name}</h3>${prose(name)}</div>`;
    const page = `<html><head><title>Meetup</title></head><body><div id="body"><div id="left"><div class="post hentry"><h2>Meetup</h2><div class="entry">${prose("The meetup")}${prose("The bootcamp")}</div></div></div>
      <div id="right">${["About me", "My project", "My course", "My book", "My talk", "My newsletter"].map(box).join("")}</div></div></body></html>`;
    expect(md(page)).toBe([said("The meetup"), said("The bootcamp")].join("\n\n"));
  });

  it("a block holding less than half of the page's one named post is not taken for it: the post's other column stays", () => {
    const box = (name: string) => `<div class="box"><h3>${name}</h3>${prose(name)}</div>`;
    const first = ["Cushions", "Lamps", "Blankets", "Candles", "Vases", "Throws", "Trays", "Baskets", "Mirrors", "Stools"];
    const second = ["Books", "Mugs", "Plants", "Frames", "Rugs", "Clocks", "Games", "Pens", "Maps", "Kites", "Socks", "Teas"];
    const page = `<html><head><title>Gift guide</title></head><body><div id="body"><div id="left"><div class="post hentry"><h2>Gift guide</h2>
      <div class="text">${first.map(prose).join("")}</div>
      <div class="column"><div>${second.map((gift) => `<div>${prose(gift)}</div>`).join("")}</div>
      <ul>${second.slice(0, 6).map((gift) => `<li><a href="/shop/${gift}">${gift} in our shop, with free delivery</a></li>`).join("")}</ul></div></div></div>
      <div id="right">${["About me", "My project", "My course", "My book", "My talk", "My newsletter", "My shop", "My podcast", "My travels", "My links", "My friends", "My tools"].map(box).join("")}</div></div></body></html>`;
    const content = md(page);
    expect(content).toContain(said("Cushions"));
    expect(content).toContain(said("Teas"));
  });

  it("the page's one named post, a single line, is kept over the longer text of the boxes beside it", () => {
    const comment = (i: number) =>
      `<li id="comment-${i}"><div class="commentname"><cite>Reader ${i}</cite> Says:<br><small><a href="#comment-${i}">November 7th at 9:4${i} pm</a></small></div><div class="commentext"><p>Congratulations, what a beautiful little baby, all the best to the three of you!</p></div></li>`;
    const widget = (name: string) =>
      `<li class="widget widget_text"><h2 class="widgettitle">${name}</h2><div class="textwidget">My ${name.toLowerCase()} are about how to learn faster, study smarter and build a career that matters, with ideas tested over many years of writing.</div></li>`;
    const page = `<html><head><title>My new project</title></head><body><div id="wrap"><div id="content"><div id="post-1" class="post"><h2><a href="/my-new-project">My new project</a></h2>
      <span class="post-cat"><a href="/category/family">Family</a></span> <span class="post-author"><a href="/author/cal">Cal</a></span> <span class="post-calendar">November 7th. 2012</span>
      <div class="post-content"><p><img src="/max.jpg"></p><p>Max was born last night, our future study hacker.</p></div>
      <div class="entrymeta"><ul><li><a href="/my-new-project/trackback">Trackback address</a></li><li><a href="/my-new-project/feed">Comments feed for this post</a></li></ul></div>
      <h3 id="comments">3 Responses to “My new project”</h3><ul class="commentlist">${[1, 2, 3].map(comment).join("")}</ul></div></div>
      <div id="sidebar"><ul>${["Essays", "Books", "Talks", "Courses", "Tools"].map(widget).join("")}</ul></div></div></body></html>`;
    expect(md(page)).toBe("Max was born last night, our future study hacker.");
  });

  it("a container holding the page's one named post is not dropped whole as a list of links (the post's filing links, more stories after it); its parts are judged", () => {
    const categories = Array.from({ length: 12 }, (_, i) => `<a href="/c${i}">Category ${i}</a>`).join(", ");
    const page = `<html><head><title>Voters explain their choice | Gossip</title></head><body><div id="main"><h1>Gossip</h1><div id="content">
      <div class="post hentry"><h2>Shocking: voters stumped for reasons</h2><div class="entry-content">${prose("The video")}${prose("The crowd")}</div>
      <p>Filed in: ${categories}</p></div><h3>More from the site</h3>${links(14)}</div>
      <div id="sidebar"><h3>Popular</h3>${links(10)}</div></div></body></html>`;
    expect(md(page)).toBe(["## Shocking: voters stumped for reasons", said("The video"), said("The crowd")].join("\n\n"));
  });

  it("a box headed as other stories (Related posts, Mehr zum Thema) goes whatever its items hold; the same box under another heading stays", () => {
    const box = (heading: string) =>
      `<section><h3>${heading}</h3><ul><li><a href="/a">Tides rise</a><p>Tides rose along the coast again this week, and the harbour closed for a day.</p></li><li><a href="/b">Dunes move</a><p>The dunes moved inland by a metre, the survey says, after two winters of storms.</p></li></ul></section>`;
    const page = (heading: string) => `<html><head><title>Storm hits the coast</title></head><body><article><h1>Storm hits the coast</h1>${["One", "Two", "Three", "Four"].map(prose).join("")}${box(heading)}</article></body></html>`;
    const body = ["One", "Two", "Three", "Four"].map(said).join("\n\n");
    expect(md(page("Related posts"))).toBe(body);
    expect(md(page("Mehr zum Thema"))).toBe(body);
    expect(md(page("Earlier storms"))).toContain("Tides rose along the coast again this week");
  });

  it("a slideshow, carousel or slider inside the article goes, whatever its slides hold; the same box under another name stays", () => {
    const box = (name: string) =>
      `<div class="${name}"><ul><li><h4>Tides rise</h4>${prose("Tides")}</li><li><h4>Dunes move</h4>${prose("Dunes")}</li></ul></div>`;
    const page = (name: string) => `<html><head><title>Storm hits the coast</title></head><body><article><h1>Storm hits the coast</h1>${["One", "Two", "Three", "Four"].map(prose).join("")}${box(name)}</article></body></html>`;
    const body = ["One", "Two", "Three", "Four"].map(said).join("\n\n");
    for (const name of ["hp-slideshow", "story-carousel", "slider slider--products"]) expect(md(page(name)), name).toBe(body);
    expect(md(page("storm-timeline"))).toContain(said("Tides"));
  });

  it("a column of teasers beside the story in the best-scoring box is left out: linked headlines, each with a one-sentence summary past its date", () => {
    const teaser = (i: number, summary: string) =>
      `<div class="box"><div><a href="/story-${i}">Another story of the day, number ${i}</a></div><div>updated 11:0${i} AM, Wed November 7</div><div><a href="/story-${i}"><img src="/t${i}.jpg" alt=""></a></div><div>${summary}</div></div>`;
    const story = ["One", "Two", "Three", "Four", "Five", "Six"];
    const page = (summary: (i: number) => string, paragraphs = story) => `<html><head><title>Quake shakes the coast</title></head><body><div class="story-area" id="contentContainer">
      <div class="column-left"><h1>Quake shakes the coast</h1>${paragraphs.map(prose).join("")}</div>
      <div class="column-right">${[1, 2, 3, 4, 5].map((i) => teaser(i, summary(i))).join("")}</div></div></body></html>`;
    expect(md(page((i) => `Now that vote ${i} is over, the hard business of governing begins again, says a historian.`))).toBe(story.map(said).join("\n\n"));
    // Summaries of more than a sentence (over 150 characters a linked line) are not a listing's: the box stays the text.
    const longer = [...story, ...story.map((word) => `${word} more`)];
    expect(md(page((i) => `${said(`Summary ${i}`)} ${said("Then")}`, longer))).toContain(said("Summary 3"));
  });

  it("the bounds of narrowing to the text: two teasers are not a listing, a paragraph is not a container, bare linked lines do not narrow the box", () => {
    const teaser = (i: number) =>
      `<div class="box"><div><a href="/story-${i}">Another story of the day, number ${i}</a></div><div>updated 11:0${i} AM</div><div>Now that vote ${i} is over, the hard business of governing begins again.</div></div>`;
    const story = ["One", "Two", "Three", "Four", "Five", "Six"];
    const column = (right: string) => `<html><head><title>Quake shakes the coast</title></head><body><div class="story-area" id="contentContainer">
      <div class="column-left"><h1>Quake shakes the coast</h1>${story.map(prose).join("")}</div>${right}</div></body></html>`;
    // Two linked lines with their summaries are fewer than a listing's three: the box stays.
    expect(md(column(`<div class="column-right">${teaser(1)}${teaser(2)}</div>`))).toContain("Now that vote 2 is over");
    // The box's biggest child is a paragraph: the text's other paragraph stays beside the linked lines.
    const lines = ["a", "b", "c"].map((target) => `<p><a href="/${target}">A linked line to another story of the day, ${target}</a></p>`).join("");
    const article = `<html><head><title>Storm</title></head><body><div class="content"><h1>Storm</h1><p>${said("Long").repeat(4)}</p>
      <p>The harbour reopened on Friday, the mayor said.</p>${lines}</div><div class="side">${prose("Side")}</div></body></html>`;
    expect(md(article)).toContain("The harbour reopened on Friday, the mayor said.");
    // Linked lines without summaries added nothing to the box's score: it is not narrowed, and the facts after them stay.
    expect(md(column(`<div class="links">${lines}</div><ul><li>Magnitude: 7.4</li><li>Depth: 24 km</li><li>Deaths: 29</li></ul>`))).toContain("- Depth: 24 km");
  });

  it("a recipe's ingredients are content, however their box is named (ingredients-list: a list, no prose)", () => {
    const page = `<html><head><title>Pumpkin pierogi</title></head><body><article><h1>Pumpkin pierogi</h1>
      <div class="ingredients-list"><h2>Ingredients</h2><ul><li>pumpkin, 400 g</li><li>onion, 1</li><li>flour, 500 g</li></ul></div>
      <h2>Method</h2>${["First", "Then", "Last"].map(prose).join("")}</article></body></html>`;
    expect(md(page)).toBe(["## Ingredients", "- pumpkin, 400 g\n- onion, 1\n- flour, 500 g", "## Method", ...["First", "Then", "Last"].map(said)].join("\n\n"));
  });

  it("where class names are hashed, a component's test id or name says what it is (BBC's byline-block, the Guardian's data-gu-name, data-qa); an id says it first", () => {
    const byline = (names: string) => `<div ${names} class="sc-8b0e9b22-0 cGPWwu"><span class="sc-801dd632-7 lasLGY">Eleanor Pryce</span><span>BBC News, West of England</span></div>`;
    const page = (names: string) =>
      `<html><head><title>Storm hits the coast</title></head><body><article><h1>Storm hits the coast</h1>${byline(names)}${["One", "Two", "Three"].map(prose).join("")}</article></body></html>`;
    const story = ["One", "Two", "Three"].map(said).join("\n\n");
    expect(md(page('data-component="byline-block"'))).toBe(story);
    expect(md(page('data-testid="byline-new-contributors"'))).toBe(story);
    expect(md(page('data-gu-name="dateline"'))).toBe(story);
    expect(md(page('data-qa="GenericArticle-Byline"'))).toBe(story);
    expect(md(page('id="x1" data-testid="byline"'))).toBe(`Eleanor Pryce BBC News, West of England\n\n${story}`);
  });

  it("a value that is a name set as code, linked to its definition, stays (Sphinx's field lists); a bare link there goes", () => {
    const field = (value: string) =>
      md(`<body><article>${prose("One")}<dl class="field-list"><dt>Return type:</dt><dd><p>${value}</p></dd><dt>Raises:</dt><dd><p><code>ConfigError</code> – if a value has the wrong type.</p></dd></dl>${prose("Two")}</article></body>`);
    expect(field('<a class="reference internal" href="/api/config.html#Settings"><code class="xref py">Settings</code></a>')).toContain(
      "**Return type:**\n: [`Settings`](https://news.test/api/config.html#Settings)",
    );
    expect(field('<a href="/api/config.html#Settings">See the settings page</a>')).not.toContain("settings page");
    expect(field('<a href="/a"><code>Settings</code></a> <a href="/b">and more</a>')).not.toContain("Settings`");
  });

  it("a term that is a name set as code, linked to its definition, stays over its value (Sphinx's 'See also' list); a term that is only a link goes", () => {
    const term = (dt: string) =>
      md(`<body><article>${prose("One")}<div class="admonition seealso"><p class="admonition-title">See also</p><dl class="simple"><dt>${dt}</dt><dd><p>Parser for configuration files similar to the Windows .ini files.</p></dd></dl></div>${prose("Two")}</article></body>`);
    expect(term('Module <a class="reference internal" href="configparser.html#module-configparser"><code class="xref py py-mod"><span class="pre">configparser</span></code></a>')).toContain(
      "> **Module [`configparser`](https://news.test/2024/configparser.html#module-configparser)**\n> : Parser for configuration files",
    );
    expect(term('<a href="configparser.html">configuration parser</a>')).not.toContain("configuration parser");
  });

  it("a byline in a quotation is whom the quotation is from (beehiiv's blockquote__byline): kept", () => {
    const quote = `<blockquote class="blockquote__quote"><p>Cutting the email to three lines did more than all of it.</p><figcaption class="blockquote__byline">— Head of Growth</figcaption></blockquote>`;
    expect(md(`<body><article>${prose("One")}${quote}${prose("Two")}</article></body>`)).toContain("> Cutting the email to three lines did more than all of it.\n>\n> — Head of Growth");
    expect(md(`<body><article>${prose("One")}<div class="byline">— Head of Growth</div>${prose("Two")}</article></body>`)).not.toContain("Head of Growth");
  });

  it("a post's filing line (Posted in …, Tags: …, Filed under …, linked) goes; a byline and a sentence that starts so stay", () => {
    const page = `<html><head><title>Storm hits the coast</title></head><body><article><h1>Storm hits the coast</h1>
      <p>Posted by Ann on March 3</p>${["One", "Two", "Three"].map(prose).join("")}
      <p>Tagged in our archive as storms, the pictures below, with commas, clauses, and enough words, are from Ann.</p>
      <div>Posted in <a href="/c/news">News</a> | <a href="/c/weather">Weather</a></div><p>Tags: <a href="/t/storm">storm</a>, <a href="/t/coast">coast</a></p><p>Filed under: <a href="/c/weather">Weather</a></p>
      </article></body></html>`;
    expect(md(page)).toBe(["Posted by Ann on March 3", ...["One", "Two", "Three"].map(said), "Tagged in our archive as storms, the pictures below, with commas, clauses, and enough words, are from Ann."].join("\n\n"));
  });

  it("the bounds of the post's own lists and filing lines: bare links in a post still go, a long paragraph that starts like a filing line stays", () => {
    const long = `Tagged by the survey as <a href="/t/risk">a risk</a>, the old bridge, which has carried traffic across the river since 1890, will be closed for repairs next spring and summer, with commas, clauses, detours for the buses, and enough words to be a paragraph, not a line.`;
    const page = `<html><head><title>Bridge</title></head><body><div class="hentry"><h1>Bridge</h1><div class="entry-content">${prose("One")}
      <ul><li><a href="/a">An older post about bridges</a></li><li><a href="/b">Another older post about rivers</a></li></ul>
      ${prose("Two")}<p>${long}</p></div></div></body></html>`;
    expect(extract(page, "https://blog.test/bridge").content).toBe(
      [said("One"), said("Two"), "Tagged by the survey as [a risk](https://blog.test/t/risk), the old bridge, which has carried traffic across the river since 1890, will be closed for repairs next spring and summer, with commas, clauses, detours for the buses, and enough words to be a paragraph, not a line."].join("\n\n"),
    );
  });

  it("the box around a title-repeating headline is the article's frame, not a list of links, however linked its parts", () => {
    const names = ["Rajai Davis", "Colby Rasmus", "Edwin Encarnacion", "Adam Lind", "Kelly Johnson", "Brett Lawrie", "Jeff Mathis", "Anthony Gose", "Sam Fuld", "Ben Zobrist", "Evan Longoria", "Carlos Pena", "Luke Scott", "Matt Joyce"];
    const page = `<html><head><title>Lineups for the Rays game tonight</title></head><body><nav><a href="/">Home</a> <a href="/teams">Teams</a></nav>
      <div class="main"><div class="entries"><h1>Lineups for the Rays game tonight</h1><p class="byline">by <a href="/u/bw">BWoodrum</a> on Aug 9, 2012</p>
      <p>This may be wrong, I can't check right now, but the lineup below is the one posted this morning.</p>
      <ol>${names.map((name, i) => `<li><a href="/players/${i}">${name}</a></li>`).join("")}</ol></div></div>
      <div class="col-two"><p>The Club is a fan site run by volunteers since 2005, covering every game, trade and rumour of the season.</p></div></body></html>`;
    // Dropped as a link list, the box left the main block empty and the whole page, side column and all, came out.
    expect(extract(page, "https://club.test/2012/8/9/lineups").content).toBe("This may be wrong, I can't check right now, but the lineup below is the one posted this morning.");
  });

  it("embedded posts are content even when their wrapper mentions social media", () => {
    expect(
      md(`<body><article>${prose("One")}<div class="social-media-embed"><blockquote class="twitter-tweet"><p>Yes, this is real, and the state spent money on it.</p>— A reader</blockquote></div>${prose("Two")}</article></body>`),
    ).toBe(`${said("One")}\n\n> Yes, this is real, and the state spent money on it.\n>\n> — A reader\n\n${said("Two")}`);
  });

  it("a section whose id spells out its own heading is not judged by the words of that heading; a box named for what it is still is", () => {
    const section = (title: string, lead: string) =>
      `<div class="section" id="${title.toLowerCase().replace(/[^a-z]+/g, "-")}"><h2>${title}</h2>${prose(`${lead} one`)}${prose(`${lead} two`)}</div>`;
    const page = `<html><head><title>Guide</title></head><body><div class="body">${section("Sharing with a single developer", "Single")}${section("Comments on the design of this tool", "Design")}
      <div id="related-posts"><h2>Related posts</h2>${prose("Another post")}</div></div></body></html>`;
    expect(md(page)).toBe(
      ["## Sharing with a single developer", said("Single one"), said("Single two"), "## Comments on the design of this tool", said("Design one"), said("Design two")].join("\n\n"),
    );
  });

  it("headings left with nothing under them go with their section", () => {
    expect(md(`<body><article>${prose("One")}<h2>More stories</h2><div class="cards">${links(5)}</div><h2>Also</h2><h3>Nothing</h3></article></body>`)).toBe(said("One"));
  });
});

describe("html main content: what the article keeps", () => {
  it("lists, tables, code with its language, quotes and links resolved against <base> survive pruning", () => {
    const page = `<html><head><title>Guide</title><base href="https://docs.test/v2/"></head><body><nav><a href="/">Home</a></nav><main><article>
      <h1>Guide</h1>${prose("Intro")}
      <ul><li>First &amp; foremost<ul><li>nested <em>item</em></li></ul></li><li>Second</li></ul>
      <table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td><code>depth</code></td><td>3</td></tr><tr><td><a href="opts#mode">mode</a></td><td>fast</td></tr></tbody></table>
      <pre><code class="language-ts">const x: number = 1;</code></pre>
      <blockquote><p>Quoted words &mdash; from a reader.</p></blockquote>
      <p>See <a href="setup.html">the setup page</a> &lt;soon&gt;.</p>${prose("Outro")}
      </article></main><footer>Footer</footer></body></html>`;
    expect(extract(page, "https://docs.test/guide/").content).toBe(
      [
        said("Intro"),
        "- First & foremost\n  - nested *item*\n- Second",
        "| Option | Default |\n| --- | --- |\n| `depth` | 3 |\n| [mode](https://docs.test/v2/opts#mode) | fast |",
        "```ts\nconst x: number = 1;\n```",
        "> Quoted words — from a reader.",
        "See [the setup page](https://docs.test/v2/setup.html) \\<soon>.",
        said("Outro"),
      ].join("\n\n"),
    );
  });

  it("images only when they carry meaning; figure captions stay as the picture's title, photo credits go", () => {
    expect(
      md(`<body><div class="entry">${prose("Lead")}<figure><img src="/i.jpg" alt="A storm over the sea" width="600"><figcaption>The storm on Monday. <span class="credit">Photo: Agency</span></figcaption></figure><p><img src="/icon.png" alt="icon"><img src="/px.gif" alt="Tracking" width="1" height="1"><img src="/IMG_2041.jpg" alt="IMG_2041"></p>${prose("Body")}</div></body>`),
    ).toBe(`${said("Lead")}\n\n![A storm over the sea](https://news.test/i.jpg "The storm on Monday.")\n\n${said("Body")}`);
    // A caption's blocks (its text over its credit) and words set apart by style only are apart in the title too.
    expect(
      md(`<body><div class="entry">${prose("Lead")}<figure><img src="/i.jpg" alt="A storm"><figcaption><p>The storm on Monday</p><p>Grafik: Stadt</p><span>Seen</span><b>Here</b></figcaption></figure>${prose("Body")}</div></body>`),
    ).toContain('![A storm](https://news.test/i.jpg "The storm on Monday Grafik: Stadt Seen Here")');
  });

  it("a figure's picture stays with its caption when the caption's name makes it the block the text is found from", () => {
    const page = (caption: string) =>
      md(`<body><article>${prose("Lead")}<figure><img src="/p.jpg" alt="A drawing of a pit"><figcaption class="${caption}"><p>How a tree pit stores rainwater</p><p>Graphic: City of Leipzig</p></figcaption></figure>${prose("Body")}</article></body>`);
    expect(page("text-s")).toBe(`${said("Lead")}\n\n![A drawing of a pit](https://news.test/p.jpg "How a tree pit stores rainwater Graphic: City of Leipzig")\n\n${said("Body")}`);
    expect(page("small")).toBe(`${said("Lead")}\n\n![A drawing of a pit](https://news.test/p.jpg "How a tree pit stores rainwater Graphic: City of Leipzig")\n\n${said("Body")}`);
  });

  it("a pull quote, a quotation of eight words or more the text says after it, is left out; other quotations stay", () => {
    const said = "The consent model is completely broken, says a policy counsel, because nobody reads a privacy policy on a touchscreen.";
    const page = (quote: string) => md(`<body><article>${prose("Lead")}<figure class="pq"><blockquote><p>${quote}</p></blockquote></figure><p>${said}</p>${prose("Body")}</article></body>`);
    expect(page("“The consent model is completely broken. Nobody reads a privacy policy on a touchscreen.”")).not.toContain("> ");
    // Seven words are a phrase; a quotation with a fifth of its word runs its own is the author's.
    expect(page("The consent model is completely broken, says a")).not.toContain("> ");
    expect(page("The consent model is completely broken, says")).toContain("> The consent model is completely broken, says");
    expect(page("The consent model is completely broken, nobody ever reads them")).toContain("> The consent model");
    expect(page("Policies on touchscreens go unread in every dealership we visited.")).toContain("> Policies on touchscreens");
    // Four fifths of its runs of three words: 7 of 8 said elsewhere is a pull quote, 6 of 8 is not.
    expect(page("The consent model is completely broken, says a policy maker")).not.toContain("> ");
    expect(page("The consent model is completely broken, says a lobbyist today")).toContain("> The consent model");
    // Words said before the quotation are what it quotes (a forum reply quoting the post above it, an answer its
    // question): the quotation stays.
    const reply = md(`<body><article>${prose("Lead")}<p>${said}</p><blockquote><p>${said}</p></blockquote><p>Agreed, and the same holds for kiosks.</p>${prose("Body")}</article></body>`);
    expect(reply.match(/The consent model/g)).toHaveLength(2);
    expect(reply).toContain("> The consent model");
  });

  it("an aside of a quotation under whom it is from (Discourse's quote of a post above) is the text; other asides are not", () => {
    const quoted = "The backup agent never got the chance to release its pin.";
    const page = (title: string, quotation = `<blockquote><p>${quoted}</p></blockquote>`) =>
      md(`<body><article>${prose("Lead")}<aside class="quote" data-post="3"><div class="title"><img alt="" src="/a.png"> ${title}</div>${quotation}</aside>${prose("Reply")}</article></body>`);
    expect(page("mkowalski:")).toBe(`${said("Lead")}\n\nmkowalski:\n\n> ${quoted}\n\n${said("Reply")}`);
    // Whom it is from is a name or a few words: a longer line is a box's own title, and the aside a box beside the text.
    expect(page(`${"a".repeat(59)}:`)).toContain(`> ${quoted}`);
    expect(page(`${"a".repeat(60)}:`)).toBe(`${said("Lead")}\n\n${said("Reply")}`);
    expect(page("What readers say")).toBe(`${said("Lead")}\n\n${said("Reply")}`);
    expect(md(`<body><article>${prose("Lead")}<aside><h4>What readers say:</h4><blockquote><p>${quoted}</p></blockquote></aside>${prose("Reply")}</article></body>`)).toBe(`${said("Lead")}\n\n${said("Reply")}`);
    expect(page("mkowalski:", `<blockquote><p>${quoted}</p></blockquote><p>Read the thread</p>`)).toBe(`${said("Lead")}\n\n${said("Reply")}`);
    expect(page("mkowalski:", `<p>${quoted}</p>`)).toBe(`${said("Lead")}\n\n${said("Reply")}`);
  });

  it("a <cite> opening a quotation, its text after it (phpBB's 'alice wrote:'), is a line of its own; elsewhere it is inline", () => {
    const quoted = "Check the pinout of the new supply, which clones wire for other drives.";
    const page = (quotation: string) => md(`<body><article>${prose("Lead")}<blockquote>${quotation}</blockquote>${prose("Reply")}</article></body>`);
    expect(page(`<div><cite><a href="/u/4412">kernal_panic</a> wrote: <span>Sat Mar 08, 2025 4:03 pm</span></cite>${quoted}</div>`)).toBe(
      `${said("Lead")}\n\n> [kernal_panic](https://news.test/u/4412) wrote: Sat Mar 08, 2025 4:03 pm\n>\n> ${quoted}\n\n${said("Reply")}`,
    );
    // After the quotation's words, or with nothing after it, or outside a quotation, a title stays in its line.
    expect(page(`<p>${quoted} <cite>The Manual</cite> says so.</p>`)).toContain(`> ${quoted} The Manual says so.`);
    expect(page(`<p>${quoted}</p><cite>The Manual</cite>`)).toContain(`> ${quoted}\n>\n> The Manual`);
    // Opening a paragraph of the quotation, a title is the sentence's first words.
    expect(page(`<p><cite>Hamlet</cite> asks whether to be or not to be, with commas, clauses, and enough words.</p>`)).toContain("> Hamlet asks whether");
    expect(md(`<body><article><p><cite>Moby-Dick</cite> opens with a line, with commas, clauses, and enough words to count.</p>${prose("Body")}</article></body>`)).toContain(
      "Moby-Dick opens with a line",
    );
  });

  it("a figure of a quotation and its caption (HTML's attribution) closes the quotation with whom it is from", () => {
    const quoted = "We see no sign that the burden on households will ease before next spring.";
    const page = (figure: string) => md(`<body><article>${prose("Lead")}<figure class="quote">${figure}</figure>${prose("Reply")}</article></body>`);
    expect(page(`<blockquote class="quote__text"><p>${quoted}</p></blockquote> <figcaption class="quote__source"><em>Katrin Sommerfeld</em> of DIW</figcaption>`)).toBe(
      `${said("Lead")}\n\n> ${quoted}\n>\n> — *Katrin Sommerfeld* of DIW\n\n${said("Reply")}`,
    );
    expect(page(`<blockquote><p>${quoted}</p></blockquote><figcaption>— Katrin Sommerfeld</figcaption>`)).toContain(`>\n> — Katrin Sommerfeld\n\n`);
    // With more in the figure (a picture), the caption is the figure's, not the quotation's.
    expect(page(`<blockquote><p>${quoted}</p></blockquote><img src="/k.jpg" alt="Katrin Sommerfeld at the institute"><figcaption>Katrin Sommerfeld</figcaption>`)).not.toContain("> — Katrin");
  });

  it("an ideographic comma (、) parts clauses as a comma does: a post's Chinese paragraphs outweigh a disclaimer after them", () => {
    const paragraph = "<p>今年该市计划为老旧小区加装电梯、改造管网、整治道路、增设停车位、完善无障碍设施。这是该市连续第四年将这些项目列入民生实事。</p>";
    const statement = "特别声明：本文为网易新闻转载内容，仅代表作者观点，不代表网易立场。如有侵权请联系删除。";
    const page = md(`<html><head><title>加装电梯</title></head><body><h1>加装电梯</h1><div class="post_content"><div class="post_body">${paragraph.repeat(4)}</div><div class="post_statement">${statement}</div></div></body></html>`);
    expect(page).toContain("今年该市计划为老旧小区加装电梯、改造管网");
    expect(page).not.toContain("特别声明");
  });

  it("a line with an East Asian comma before a box left out is a sentence of the post, not the box's label; a Latin comma may part a label's items", () => {
    const paragraphs = ["一", "二", "三"].map((n) => `<p>${n}番目の段落です。今日は梅シロップを仕込みました。青梅をよく洗って、ヘタを取り、氷砂糖と交互に瓶に入れていきます。</p>`).join("");
    const card = `<div class="ogpCard_root"><a class="ogpCard_link" href="https://blog.test/entry-2.html"><span class="ogpCard_title">去年の失敗…らっきょう漬けリベンジ</span><span class="ogpCard_url">blog.test</span></a></div>`;
    const page = (line: string) => md(`<html><head><title>梅仕事</title></head><body><article><h1>梅仕事</h1><div id="entryBody">${paragraphs}<p>${line}</p>${card}</div></article></body></html>`);
    expect(page("最後まで読んでいただき、ありがとうございました")).toContain("最後まで読んでいただき、ありがとうございました");
    expect(page("こちらもおすすめ")).not.toContain("こちらもおすすめ");
    expect(page("Related, too")).not.toContain("Related, too");
  });

  it("a picture written twice in a row (a lightbox's copy of it) is written once; apart, it is written each time", () => {
    const picture = `<div><img src="/photos/${"long-name-".repeat(30)}.jpg" alt="A librarian holds a drawer of seed packets"></div>`;
    const once = `![A librarian holds a drawer of seed packets](https://news.test/photos/${"long-name-".repeat(30)}.jpg)`;
    expect(md(`<body><article>${prose("Lead")}${picture}${picture}${prose("Body")}</article></body>`)).toBe(`${said("Lead")}\n\n${once}\n\n${said("Body")}`);
    expect(md(`<body><article>${prose("Lead")}${picture}${prose("Middle")}${picture}${prose("Body")}</article></body>`)).toBe(
      `${said("Lead")}\n\n${once}\n\n${said("Middle")}\n\n${once}\n\n${said("Body")}`,
    );
  });
});

describe("html main content: pages that are not articles", () => {
  it("with no clear main block the whole readable page is rendered, and metadata says so", () => {
    const out = extract(
      `<body><nav>${links(2)}</nav><div class="sec">${prose("Alpha")}${prose("Alpha again")}</div><div>${links(2)}</div><div class="sec">${prose("Beta")}${prose("Beta again")}</div><div>${links(2)}</div><div class="sec">${prose("Gamma")}${prose("Gamma again")}</div></body>`,
    );
    const list = "- [Link number 0](https://news.test/l0)\n- [Link number 1](https://news.test/l1)";
    expect(out.content).toBe(
      [said("Alpha"), said("Alpha again"), list, said("Beta"), said("Beta again"), list, said("Gamma"), said("Gamma again")].join("\n\n"),
    );
    expect(out.metadata).toEqual({ extraction: WHOLE_PAGE });
  });

  it("a listing (search results) keeps every result", () => {
    const result = (n: number) => `<li><h3><a href="/r${n}">Result ${n}</a></h3><p>Snippet ${n} says what the page is about, in one sentence, with a comma.</p></li>`;
    expect(md(`<body><header><form><input name="q"></form></header><main><ol class="results">${result(1)}${result(2)}${result(3)}</ol></main></body>`)).toBe(
      [1, 2, 3]
        .map((n) => `${n}. ### [Result ${n}](https://news.test/r${n})\n\n   Snippet ${n} says what the page is about, in one sentence, with a comma.`)
        .join("\n"),
    );
  });
});
