import { describe, expect, it } from "vitest";
import { htmlHandler } from "../src/extract/html-handler.ts";
import { readPageInfo } from "../src/extract/html/metadata.ts";
import { parseHtml } from "../src/extract/parse-html.ts";
import { textContent } from "../src/extract/dom.ts";

const PAGE = "https://example.test/docs/guide/page.html";
const extract = (html: string, url = PAGE) => htmlHandler.extract({ text: html, url, mime: "text/html" });
const md = (html: string, url = PAGE): string => extract(html, url).content;

describe("html: blocks", () => {
  it("headings, paragraphs and a rule", () => {
    expect(md("<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6><p>Text</p><hr><p>After</p>")).toBe(
      "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\nText\n\n---\n\nAfter",
    );
  });

  it("collapses whitespace in inline text, including no-break spaces, and drops empty headings", () => {
    expect(md("<h2>  </h2><p>  lots   of\n\t space&nbsp;&nbsp;here  </p>\n\n\n<p>next</p>")).toBe("lots of space here\n\nnext");
  });

  it("<br> is a hard line break; two in a row start a new paragraph", () => {
    expect(md("<p>Line one<br>Line two<br/><br>Para two<br></p>")).toBe("Line one  \nLine two\n\nPara two");
  });

  it("text next to blocks becomes its own paragraph; inline wrappers pass through", () => {
    expect(md("<div>Lead<div>Nested</div>tail <span>and</span><font> more</font></div><custom-el>Custom</custom-el>")).toBe(
      "Lead\n\nNested\n\ntail and more\n\nCustom",
    );
  });

  it("normalises CRLF before parsing", () => {
    expect(md("<pre>a\r\nb\r\n</pre><p>x\r\ny</p>")).toBe("```\na\nb\n```\n\nx y");
  });

  it("blockquotes, nested and holding lists", () => {
    expect(md("<blockquote><p>q1</p><blockquote><p>q2</p></blockquote><ul><li>item</li></ul></blockquote>")).toBe(
      "> q1\n>\n> > q2\n>\n> - item",
    );
  });

  it("a blockquote named as a post's body is the post's text (vBulletin's postcontent); a quotation inside it is one", () => {
    expect(md('<blockquote class="postcontent restore"><p>My answer.</p><blockquote><p>Their words.</p></blockquote></blockquote>')).toBe("My answer.\n\n> Their words.");
  });

  it("a callout (admonition, callout, alert, VitePress' custom-block) is a quotation, its title of a few words in bold over it", () => {
    // MkDocs' and Sphinx' admonitions, GitHub's alerts (an icon before the title).
    expect(md('<div class="admonition note"><p class="admonition-title">Note</p><p>Needs Python 3.10.</p><p>Or newer.</p></div>')).toBe(
      "> **Note**\n>\n> Needs Python 3.10.\n>\n> Or newer.",
    );
    expect(md('<div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title"><svg viewBox="0 0 16 16"><path d="M0 0"></path></svg>Warning</p><p>Uninstall old versions first.</p></div>')).toBe(
      "> **Warning**\n>\n> Uninstall old versions first.",
    );
    // VitePress' custom blocks.
    expect(md('<div class="tip custom-block"><p class="custom-block-title">TIP</p><p>Needs Node.js 18.</p></div>')).toBe("> **TIP**\n>\n> Needs Node.js 18.");
    // No title: a first element that is a sentence, a heading, the only element, or comes after text.
    expect(md('<div class="callout"><p>Keep it short.</p><p>And clear.</p></div>')).toBe("> Keep it short.\n>\n> And clear.");
    expect(md('<div class="callout"><h4>Tip</h4><p>Read the guide.</p></div>')).toBe("> #### Tip\n>\n> Read the guide.");
    expect(md('<div class="alert alert-info"><strong>Heads up!</strong> The format changed.</div>')).toBe("> **Heads up!** The format changed.");
    // A title set inline, the note's text after it on its line (Google's devsite), stays its first words, whatever the
    // text is wrapped in; a title in an inline element over a block is a line of its own.
    expect(md('<aside class="note"><strong>Note:</strong><span> Use <code>cwebp</code> here.</span></aside>')).toBe("> **Note:** Use `cwebp` here.");
    expect(md('<div class="callout"><b>Tip</b> Use <code>-q 80</code> for photos.</div>')).toBe("> **Tip** Use `-q 80` for photos.");
    expect(md('<div class="callout"><span>Tip</span><p>Use it.</p></div>')).toBe("> **Tip**\n>\n> Use it.");
    expect(md('<div class="callout"><span>Tip</span><br><span>Use it.</span></div>')).toBe("> **Tip**\n>\n> Use it.");
    expect(md('<div class="alert">Then <span>Note</span><p>text</p></div>')).toBe("> Then Note\n>\n> text");
    // A title of no words is the callout's icon set as text (Zenn's "!", Nextra's emoji): left out; a word or a digit titles it.
    expect(md('<aside class="msg callout"><div class="msg-symbol">!</div><div class="msg-content"><p>Keys not in the schema are dropped.</p></div></aside>')).toBe(
      "> Keys not in the schema are dropped.",
    );
    expect(md('<div class="callout"><div>💡</div><div>Use <code>safeParse</code> at the edge.</div></div>')).toBe("> Use `safeParse` at the edge.");
    expect(md('<div class="callout" aria-label="Tip"><div>💡</div><div>Use it.</div></div>')).toBe("> **Tip**\n>\n> Use it.");
    expect(md('<div class="callout"><div>💡 1</div><div>Use it.</div></div>')).toBe("> **💡 1**\n>\n> Use it.");
    // A first element over 40 characters is a line of the callout, not its title.
    expect(md(`<div class="callout"><p>${"Words ".repeat(7)}then more</p><p>Body.</p></div>`)).toBe(`> ${"Words ".repeat(7)}then more\n>\n> Body.`);
    // Asciidoctor lays a note out as a table of one row: its kind in the first cell, as text or an icon's title.
    const asciidoc = (icon: string, rows = 1) =>
      md(`<div class="admonitionblock note"><table>${`<tr><td class="icon">${icon}</td><td class="content"><div class="paragraph"><p>Ids are per cluster.</p></div></td></tr>`.repeat(rows)}</table></div>`);
    expect(asciidoc('<div class="title">Note</div>')).toBe("> **Note**\n>\n> Ids are per cluster.");
    expect(asciidoc('<i class="fa icon-note" title="Note"></i>')).toBe("> **Note**\n>\n> Ids are per cluster.");
    // Not a kind: a sentence, an icon with no title; not one row.
    expect(asciidoc('<i class="fa icon-note" title="Read this first."></i>')).toBe("> Ids are per cluster.");
    expect(asciidoc('<i class="fa icon-note"></i>')).toBe("> Ids are per cluster.");
    expect(asciidoc('<div class="title">Note</div>', 2)).toBe("> | Note | Ids are per cluster. |\n> | --- | --- |\n> | Note | Ids are per cluster. |");
  });

  it("an element named by a kind of note and titled by it is a callout (DocFX's and Microsoft Learn's), as is a disclosure so named (MkDocs'); named so without that title, it is not", () => {
    expect(md('<div class="NOTE"><p>Note</p><p>Jitter is added to each delay.</p></div>')).toBe("> **Note**\n>\n> Jitter is added to each delay.");
    expect(md('<div class="IMPORTANT"><h5>IMPORTANT:</h5><p>Back up first.</p></div>')).toBe("> ##### IMPORTANT:\n>\n> Back up first.");
    // A note and its kind named together (Hexo NexT's note tag); one kind alone, without its title, is no callout.
    expect(md('<div class="note warning"><p>Pick a board with its own power supply.</p></div>')).toBe("> Pick a board with its own power supply.");
    expect(md('<div class="note info"><p>Pick a board with its own power supply.</p></div>')).toBe("Pick a board with its own power supply.");
    // Atlassian's panels say their kind in data-panel-type (Confluence's, Jira's); another kind, or none, is no callout.
    const panel = (kind: string) =>
      md(`<div class="ak-editor-panel" data-panel-type="${kind}"><div class="ak-editor-panel__icon"><span role="img" aria-label="Panel ${kind}"><svg></svg></span></div><div class="ak-editor-panel__content"><p>Deploys are frozen at month end.</p></div></div>`);
    expect(panel("note")).toBe("> Deploys are frozen at month end.");
    expect(panel("custom")).toBe("Deploys are frozen at month end.");
    // Its first paragraph opening with the kind in bold (MDN's notecard); the kind said in a paragraph's plain words, or a
    // bold word that is no kind, is not that title.
    expect(md('<div class="notecard note"><p><strong>Note:</strong> Available in Web Workers.</p></div>')).toBe("> **Note:** Available in Web Workers.");
    expect(md('<div class="note"><p>Note: available in Web Workers.</p></div>')).toBe("Note: available in Web Workers.");
    expect(md('<div class="note"><p><strong>Heads up:</strong> available in Web Workers.</p></div>')).toBe("**Heads up:** available in Web Workers.");
    // A note of the article's (a footnote's box, a teaser named "note"), its first line no kind of note.
    expect(md('<div class="note"><p>Written in May.</p><p>Updated in June.</p></div>')).toBe("Written in May.\n\nUpdated in June.");
    expect(md('<div class="tip"><p>Tips</p><p>Drink water.</p></div>')).toBe("Tips\n\nDrink water.");
    // A disclosure named by a kind of note opens into one (MkDocs' collapsible admonitions), titled by its summary; a
    // disclosure named otherwise is not.
    expect(md('<details class="note"><summary>How refresh works</summary><p>Tokens refresh early.</p></details>')).toBe("> **How refresh works**\n>\n> Tokens refresh early.");
    expect(md('<details class="faq"><summary>How refresh works</summary><p>Tokens refresh early.</p></details>')).not.toContain("> ");
  });

  it("a callout's parts named as such are not callouts of their own, and its body's name does not make it the page's text", () => {
    // Docusaurus: the title beside an icon, the body in admonitionContent. Beside two short paragraphs, the body's name
    // made it the best-scoring block, and the title was left out as the chrome around it.
    const page = `<main><article><h1>Configure</h1><p>${"The tool reads a file, and variables override it. ".repeat(2)}</p><div class="theme-admonition admonition_xJq3 alert alert--success"><div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg viewBox="0 0 12 16"><path d="M6 0"></path></svg></span>tip</div><div class="admonitionContent_BuS1"><p>Use a virtual environment so the tool's packages stay apart, for every project.</p></div></div><p>${"Settings are read once, when it starts. ".repeat(2)}</p></article></main>`;
    expect(md(page)).toContain("> **tip**\n>\n> Use a virtual environment so the tool's packages stay apart, for every project.\n\nSettings");
  });

  it("an aside named as a note, tip or warning is a callout in the text, titled by its label when its shown title is hidden; other asides stay out", () => {
    // Starlight: the shown title is hidden from screen readers, which read the aside's label instead.
    const note = (kind: string, label: string) =>
      `<aside aria-label="${label}" class="starlight-aside starlight-aside--${kind}"><p class="starlight-aside__title" aria-hidden="true"><svg viewBox="0 0 24 24"><path d="M0 0"></path></svg>${label}</p><div class="starlight-aside__content"><p>You need Node.js 20 or later.</p></div></aside>`;
    const page = (aside: string) =>
      `<main><article><h1>Install</h1><p>${"The tool runs on Linux, macOS and Windows, and installs with one command. ".repeat(2)}</p>${aside}<p>${"Run the installer from your project's folder, so it is added to its dependencies. ".repeat(2)}</p></article><aside class="right-sidebar"><h2>On this page</h2><ul><li><a href="#a">Overview</a></li></ul></aside></main>`;
    const around = (middle: string) => ["# Install", `${"The tool runs on Linux, macOS and Windows, and installs with one command. ".repeat(2).trim()}`, ...middle ? [middle] : [], "Run the installer from your project's folder, so it is added to its dependencies. ".repeat(2).trim()].join("\n\n");
    expect(md(page(note("note", "Note")))).toBe(around("> **Note**\n>\n> You need Node.js 20 or later."));
    expect(md(page(note("caution", "Vorsicht")))).toBe(around("> **Vorsicht**\n>\n> You need Node.js 20 or later."));
    expect(md(page('<aside class="callout"><p>Keep it short.</p></aside>'))).toBe(around("> Keep it short."));
    // A label that is a sentence, or over 40 characters, titles nothing.
    expect(md(page(note("tip", "Read this first.")))).toBe(around("> You need Node.js 20 or later."));
    expect(md(page(note("tip", "Words ".repeat(7))))).toBe(around("> You need Node.js 20 or later."));
    // An aside named otherwise is a box beside the text, as before.
    expect(md(page('<aside class="pullquote"><p>Installs with one command.</p></aside>'))).toBe(around(""));
  });

  it("a figure's caption is its picture's title; without a picture to hold it, it stays as text (a quotation's, in the quotation)", () => {
    expect(md('<figure><img src="cat.jpg" alt="A cat"><figcaption>Our <em>cat</em>, "Tom"</figcaption></figure>')).toBe(
      '![A cat](https://example.test/docs/guide/cat.jpg "Our cat, \\"Tom\\"")',
    );
    expect(md('<figure><img src="IMG_2041.jpg" alt="IMG_2041"><figcaption>Our cat</figcaption></figure>')).toBe(
      '![](https://example.test/docs/guide/IMG_2041.jpg "Our cat")',
    );
    expect(md("<figure><blockquote><p>Quoted words</p></blockquote><figcaption>— A reader</figcaption></figure>")).toBe(
      "> Quoted words\n>\n> — A reader",
    );
    expect(md("<figure><table><tr><td>1</td><td>2</td></tr></table><figcaption>Two numbers</figcaption></figure>")).toBe("1\n\n2\n\nTwo numbers");
  });

  it("a caption's credit left out takes the one-word label set apart before it (Globo's '— Foto:'); a longer word or a caption's own colon stays", () => {
    const figure = (label: string) =>
      md(`<figure><img src="boat.jpg" alt="A boat"><figcaption><span class="media__description">A boat at sea</span> — ${label} <span class="media__credit">Marinha do Brasil</span></figcaption></figure>`);
    expect(figure("Foto:")).toBe('![](https://example.test/docs/guide/boat.jpg "A boat at sea")');
    expect(figure(`${"F".repeat(12)}:`)).toBe('![](https://example.test/docs/guide/boat.jpg "A boat at sea")');
    expect(figure(`${"F".repeat(13)}:`)).toContain(`A boat at sea — ${"F".repeat(13)}:`);
    expect(md('<figure><img src="boat.jpg" alt="A boat"><figcaption>Two kinds of hull:</figcaption></figure>')).toContain('"Two kinds of hull:"');
  });

  it("a figure holding a picture and no links is the article's, whatever its class names say (a blog engine's cards)", () => {
    const prose = "A paragraph of the article, long enough to be read as prose, with a comma, and another one.";
    const figures =
      '<figure class="kg-card kg-image-card"><img src="/a.jpg" alt=""><figcaption>Dashboard</figcaption></figure>' +
      '<figure class="wp-caption card"><img src="/b.jpg" alt="Team"><figcaption>The team</figcaption></figure>';
    expect(md(`<body><article><p>${prose}</p>${figures}<p>${prose}</p></article></body>`)).toBe(
      `${prose}\n\n![](https://example.test/a.jpg "Dashboard")\n\n![Team](https://example.test/b.jpg "The team")\n\n${prose}`,
    );
  });

  it("headings that end the text with nothing under them are left out when they read as labels or link away; a sentence set as a heading stays, and so do headings alone", () => {
    // The gallery and the fan box under them were left out as asides.
    expect(md("<div><p>The story, told at length.</p><h2>Photos of the street</h2><aside><p>x</p></aside><h3>Become a Fan</h3><aside><p>y</p></aside></div>")).toBe(
      "The story, told at length.",
    );
    expect(md("<div><p>The story, told at length.</p><h4>The telling is grim. Perfectly grim, one could say.</h4><h4>Label</h4></div>")).toBe(
      "The story, told at length.\n\n#### The telling is grim. Perfectly grim, one could say.",
    );
    expect(md("<div><h2>5 Nov 2012</h2><h3>Off to the fair</h3></div>")).toBe("## 5 Nov 2012\n\n### Off to the fair");
    // A sentence set as a heading that links away is a notice or a call to action; under a heading, a link is a title's.
    expect(md('<div><p>The answer, told at length.</p><h2>Not the answer you\'re looking for? Browse questions tagged <a href="/t/python">python</a>.</h2></div>')).toBe(
      "The answer, told at length.",
    );
    expect(md('<div><h2><a href="/a">Part one.</a></h2><p>The answer, told at length.</p></div>')).toBe("## [Part one.](https://example.test/a)\n\nThe answer, told at length.");
    expect(md("<div><h2>Intro</h2><p>Text.</p><h2>Notes</h2><p>More.</p></div>")).toBe("## Intro\n\nText.\n\n## Notes\n\nMore.");
  });

  it("a short block right after the same block is written once; a paragraph written twice is kept twice", () => {
    const paragraph = "Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ".repeat(3).trim();
    expect(md(`<h2>Storm hits the coast</h2><h2>Storm hits the coast</h2><p>${paragraph}</p><p>${paragraph}</p><p>Photo: A. Reader</p><p>Photo: A. Reader</p>`)).toBe(
      `## Storm hits the coast\n\n${paragraph}\n\n${paragraph}\n\nPhoto: A. Reader`,
    );
  });

  it("a <ul> numbered by its style or its first item's (a recipe plugin's steps) is a numbered list", () => {
    const step = (text: string) => `<li style="list-style-type: decimal;"><div>${text}</div></li>`;
    expect(md(`<ul class="wprm-recipe-instructions">${step("Heat the oven.")}${step("Roast the carrots.")}</ul>`)).toBe("1. Heat the oven.\n2. Roast the carrots.");
    expect(md('<ul style="list-style: lower-roman inside"><li>One</li><li>Two</li></ul>')).toBe("1. One\n2. Two");
    expect(md('<ul style="list-style-type: disc"><li>One</li></ul><ul><li style="color: red">Two</li></ul>')).toBe("- One\n\n- Two");
  });

  it("a task list's items open with their state, [x] or [ ], kept whatever the renderer names the list", () => {
    const item = (checked: boolean, text: string) => `<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled${checked ? " checked" : ""}> ${text}</li>`;
    const page = `<main><article><h1>Release</h1><p>${"The release goes out when every step below is done, in this order. ".repeat(2)}</p><h2>Checklist</h2><ul class="contains-task-list">${item(true, "Tag the commit")}${item(false, "Publish the notes")}</ul></article></main>`;
    expect(md(page)).toContain("## Checklist\n\n- [x] Tag the commit\n- [ ] Publish the notes");
    // In a loose list the checkbox opens the item's paragraph; a checkbox later in an item is no task's.
    expect(md('<ul><li><p><input type="checkbox" checked> Done</p><p>Notes.</p></li><li><p>Not <input type="checkbox"> a task</p></li></ul>')).toBe("- [x] Done\n\n  Notes.\n- Not a task");
    // An enabled, unchecked box with no task's name is the reader's control (a recipe's ingredients to tick off): a plain list.
    const ingredient = (text: string) => `<li class="wprm-recipe-ingredient"><span class="wprm-checkbox-container"><input type="checkbox" class="wprm-checkbox"><label></label></span> ${text}</li>`;
    expect(md(`<ul>${ingredient("900 g carrots")}${ingredient("1 onion")}</ul>`)).toBe("- 900 g carrots\n- 1 onion");
    expect(md('<ul><li><input type="checkbox" class="task-list-item-checkbox"> Open</li></ul>')).toBe("- [ ] Open");
    // GitLab sets an empty <task-button> before each box; an element that shows something there is the item's text.
    expect(md('<ul><li class="task-list-item"><task-button></task-button><input type="checkbox" class="task-list-item-checkbox" checked disabled> Shipped</li></ul>')).toBe("- [x] Shipped");
    expect(md('<ul><li><b>Not</b><input type="checkbox" disabled> a task</li></ul>')).toBe("- **Not** a task");
  });

  it("ruby annotations (a reading set above its base text) are left out, so the words stay whole", () => {
    expect(md("<p><ruby>東京<rp>(</rp><rt>とうきょう</rt><rp>)</rp></ruby>で<ruby>雪<rt>ゆき</rt></ruby>が<ruby>降<rt>ふ</rt></ruby>りました。</p>")).toBe("東京で雪が降りました。");
    expect(md("<p>The <ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> test.</p>")).toBe("The 漢字 test.");
  });

  it("definition lists, including <div> groups and multi-paragraph definitions", () => {
    expect(md("<dl><dt>Term</dt><dt>Alias</dt><dd>Meaning</dd><dd>Other</dd><div><dt>Two</dt><dd><p>P</p><p>Q</p></dd></div></dl>")).toBe(
      "**Term**\n**Alias**\n: Meaning\n: Other\n\n**Two**\n: P\n\n  Q",
    );
    // A code block under its title is set out as one; a definition with no term (MediaWiki's indented lines) is a block.
    expect(md("<dl><dt>backup.sh</dt><dd><pre class=\"code bash\">set -eu</pre></dd><dd>Run it nightly.</dd><dt>Next</dt><dd>Value</dd></dl>")).toBe(
      "**backup.sh**\n\n```bash\nset -eu\n```\n\n: Run it nightly.\n\n**Next**\n: Value",
    );
    expect(md("<p>Said:</p><dl><dd>An indented reply.</dd></dl>")).toBe("Said:\n\nAn indented reply.");
  });

  it("a term whose text is a link to itself (a reference's permalink) is a term, not a link: kept, and written without the link", () => {
    const term = (id: string) => `<dt id="${id}"><a href="#${id}"><code>${id}</code></a></dt>`;
    const page = `<main><article><h1>map()</h1><p>${"The method calls a function on every element, and returns a new array. ".repeat(2)}</p><h3 id="parameters"><a href="#parameters">Parameters</a></h3>
      <dl>${term("callbackFn")}<dd><p>A function to execute for each element in the array.</p><dl>${term("element")}<dd><p>The current element.</p></dd></dl></dd>${term("thisArg")}<dd><p>A value to use as <code>this</code>.</p></dd></dl></article></main>`;
    expect(md(page)).toBe(
      [
        "# map()",
        "The method calls a function on every element, and returns a new array. ".repeat(2).trim(),
        "### Parameters",
        "**`callbackFn`**\n: A function to execute for each element in the array.\n\n  **`element`**\n  : The current element.\n\n**`thisArg`**\n: A value to use as `this`.",
      ].join("\n\n"),
    );
    // A term linking elsewhere keeps its link.
    expect(md('<dl><dt><a href="#other">see</a> x</dt><dd>y</dd></dl>')).toBe(`**[see](${PAGE}#other) x**\n: y`);
  });

  it("a term is bold without italics inside it: an API signature's parameters, each in <em>, read as written", () => {
    const param = (name: string): string => `<em class="sig-param"><span class="pre">${name}</span></em>`;
    expect(
      md(`<dl class="py function"><dt class="sig" id="json.dumps"><span class="pre">json.dumps</span>(${param("obj")}, ${param("*")}, ${param("skipkeys=False")}, ${param("**kw")})</dt><dd><p>Serialize <em>obj</em>.</p></dd></dl>`),
    ).toBe("**json.dumps(obj, \\*, skipkeys=False, \\*\\*kw)**\n: Serialize *obj.*");
    expect(md('<div class="admonition"><p class="admonition-title">See <em>also</em></p><p>More.</p></div>')).toBe("> **See also**\n>\n> More.");
  });
});

describe("html: lists", () => {
  it("nested unordered and ordered lists are indented under their item", () => {
    expect(md("<ul><li>a<ul><li>b<ol><li>c</li><li>d</li></ol></li></ul></li><li>e</li></ul>")).toBe(
      "- a\n  - b\n    1. c\n    2. d\n- e",
    );
  });

  it("an ordered list's item whose own number stands in an element before its text (Springer's) is written under the list's number once", () => {
    const item = (label: string, text: string) => `<li><span class="u-custom-list-number">${label}</span><p>${text}</p></li>`;
    expect(md(`<ol class="u-list-style-none">${item("1.", "How often?")}${item("(2)", "When?")}${item("3)", "Where?")}</ol>`)).toBe("1. How often?\n2. When?\n3. Where?");
    // Under the step's picture (wikiHow's), too.
    expect(md('<ol><li><img src="/s1.jpg" alt="Step 1"><div class="step_num">1</div><p>Choose a pot.</p></li></ol>')).toBe(
      "1. ![Step 1](https://example.test/s1.jpg)\n\n   Choose a pot.",
    );
    // Another number, or a number that is all the item says, is the item's text.
    expect(md(`<ol>${item("7.", "Seven things.")}</ol><ol><li>1.</li></ol>`)).toBe("1. 7\\.\n\n   Seven things.\n\n1. 1\\.");
  });

  it("ordered lists honour start; continuation lines align with the text after the marker", () => {
    expect(md('<ol start="9"><li>nine</li><li><p>ten</p><p>more</p></li></ol>')).toBe("9. nine\n10. ten\n\n    more");
  });

  it("a list placed directly inside a list belongs to the item before it", () => {
    expect(md("<ol><li>x</li><ol><li>y</li></ol><li>z</li></ol>")).toBe("1. x\n   1. y\n2. z");
  });

  it("skips empty items and keeps code blocks inside items indented", () => {
    expect(md("<ul><li></li><li>Run:<pre>npm test\nnpm run build</pre></li></ul>")).toBe("- Run:\n\n  ```\n  npm test\n  npm run build\n  ```");
  });
});

describe("html: inline formatting", () => {
  it("bold, italic, strikethrough, quotes, sub/sup", () => {
    expect(md("<p><strong>b</strong> <b>b2</b> <em>i</em> <i>i2</i> <del>d</del> <s>s</s> <q>q</q> x<sup>2</sup> H<sub>2</sub>O</p>")).toBe(
      '**b** **b2** *i* *i2* ~~d~~ ~~s~~ "q" x² H₂O',
    );
  });

  it("an exponent or an index of digits and signs set against its base is written above or below the line (10⁶ km², ha⁻¹); words, links and numbers standing apart stay as written", () => {
    expect(md("<p>Area 10<sup>6</sup> km<sup>2</sup>, yield 1.9 t ha<sup>&minus;1</sup>, CO<sub>2</sub> and (x+1)<sup>2</sup>.</p>")).toBe("Area 10⁶ km², yield 1.9 t ha⁻¹, CO₂ and (x+1)².");
    // Eight characters at most.
    expect(md("<p>x<sup>12345678</sup> y<sup>123456789</sup></p>")).toBe("x¹²³⁴⁵⁶⁷⁸ y123456789");
    const apart = md('<p>The 5<sup>th</sup> note<sup><a href="#fn1">1</a></sup> and <sup>9 </sup>For this reason.</p>');
    expect(apart).toMatch(/^The 5th note\[1\]\([^)]*#fn1\) and 9 For this reason\.$/);
  });

  it("a span set in bold or italics by its style is emphasis (editors' font-weight:bold, Google Docs' 700); a normal weight, a long style or a span of blocks is not", () => {
    expect(md('<p>It is <span style="font-weight:bold;">bold</span>, <span style="color:red; font-weight: 700 !important">heavy</span>, <span style="font-style:italic">slanted</span> and <span style="font-weight:400">plain</span>; <span style="font-weight:bold"><b>once</b></span>.</p>')).toBe(
      "It is **bold,** **heavy,** *slanted* and plain; **once.**",
    );
    expect(md('<p>Set <span style="font-weight:600;font-style:italic">both</span> here</p>')).toBe("Set ***both*** here");
    // 500 characters of style are read; more are a page's layout.
    const padded = (chars: number) => `color:red;${" ".repeat(chars - "color:red;font-weight:bold".length)}font-weight:bold`;
    expect(md(`<p>A <span style="${padded(500)}">word</span> here</p>`)).toBe("A **word** here");
    expect(md(`<p>A <span style="${padded(501)}">word</span> here</p>`)).toBe("A word here");
    expect(md('<div><span style="font-weight:bold"><p>First paragraph.</p><p>Second paragraph.</p></span></div>')).toBe("First paragraph.\n\nSecond paragraph.");
  });

  it("a formula is its TeX source when its MathML carries one (KaTeX, MathJax), else its text without annotations", () => {
    const katex = (tex: string, display = "") =>
      `<span class="katex"><span class="katex-mathml"><math${display}><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">${tex}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">E=mc2</span></span>`;
    expect(md(`<p>Energy ${katex("E = mc^2")} holds.</p>`)).toBe("Energy $E = mc^2$ holds.");
    expect(md(`<p>Sum: ${katex("\\sum_{i=1}^n a_i", ' display="block"')}</p>`)).toBe("Sum: $$\\sum_{i=1}^n a_i$$");
    // TeX that would read as Markdown or HTML where math is not rendered is shown as the formula's text, escaped.
    expect(md('<p>See <math><mi>x</mi><annotation encoding="application/x-tex">[a](javascript:alert(1))</annotation></math> now.</p>')).toBe("See x now.");
    expect(md('<p>See <math><mi>y</mi><annotation encoding="application/x-tex">&lt;img src=x onerror=alert(1)&gt;</annotation></math> now.</p>')).toBe("See y now.");
    expect(md('<p>Bound <math><mi>a</mi><annotation encoding="application/x-tex">a &lt; b</annotation></math> holds.</p>')).toBe("Bound $a < b$ holds.");
    for (const [tex, text] of [["&lt;https://evil.test&gt;", "u"], ["a$ [b](c) $d", "v"], ["`code`", "w"]]) {
      expect(md(`<p>See <math><mi>${text}</mi><annotation encoding="application/x-tex">${tex}</annotation></math> now.</p>`), tex).toBe(`See ${text} now.`);
    }
    expect(md('<p>Area <math><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup><annotation-xml encoding="MathML-Content"><ci>r</ci></annotation-xml></math> here.</p>')).toBe("Area πr2 here.");
    // MediaWiki hides the MathML and shows an aria-hidden picture of the formula: the MathML is read.
    expect(
      md('<p>The square <span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;"><math><semantics><msup><mi>x</mi><mn>2</mn></msup><annotation encoding="application/x-tex">{\\displaystyle x^{2}}</annotation></semantics></math></span><img src="/f.svg" class="mwe-math-fallback-image-inline" aria-hidden="true" alt="{\\displaystyle x^{2}}"></span> grows.</p>'),
    ).toBe("The square ${\\displaystyle x^{2}}$ grows.");
    // MathJax names every formula for its context menu (CtxtMenu_Attached_0): no menu, a formula.
    expect(md('<p>Area <mjx-container class="MathJax CtxtMenu_Attached_0"><mjx-math aria-hidden="true">x</mjx-math><mjx-assistive-mml><math><mi>π</mi></math></mjx-assistive-mml></mjx-container> here.</p>')).toBe("Area π here.");
  });

  it("footnotes are GFM's: each reference [^n], and the list its references link to written as the notes, without their links back", () => {
    // pandoc (and markdown-it, kramdown: the same shape, other ids)
    const pandoc =
      '<p>A cache trades memory for time, keeping an answer so that the next request for it is cheap.<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a> It pays when answers repeat, and when they change slowly.<a href="#fn2" id="fnref2"><sup>2</sup></a></p>' +
      '<section id="footnotes" class="footnotes" role="doc-endnotes"><hr><ol><li id="fn1"><p>Karlton\'s line is about this.<a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li>' +
      '<li id="fn2"><p>In our logs, 5% of keys took 80% of reads. <a href="#fnref2">↩</a></p><p>Measured in May.</p></li></ol></section>';
    expect(md(pandoc)).toBe(
      "A cache trades memory for time, keeping an answer so that the next request for it is cheap.[^1] It pays when answers repeat, and when they change slowly.[^2]\n\n---\n\n" +
        "[^1]: Karlton's line is about this.\n[^2]: In our logs, 5% of keys took 80% of reads.\n\n    Measured in May.",
    );
    // MediaWiki: bracketed references, a note cited twice ("↑ 2.0 2.1" back to each), its text in reference-text.
    const wiki =
      '<p>Born in Saltreach.<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup> Ran away at fifteen.<sup class="reference"><a href="#cite_note-barracks-2">[2]</a></sup> Relights lanterns.<sup class="reference"><a href="#cite_note-barracks-2">[2]</a></sup></p>' +
      '<div class="reflist"><ol class="references"><li id="cite_note-1"><span class="mw-cite-backlink"><b><a href="#cite_ref-1">^</a></b></span> <span class="reference-text">Codex entry.</span></li>' +
      '<li id="cite_note-barracks-2"><span class="mw-cite-backlink">↑ <sup><a href="#cite_ref-barracks_2-0">2.0</a></sup> <sup><a href="#cite_ref-barracks_2-1">2.1</a></sup></span> <span class="reference-text">A conversation.</span></li></ol></div>';
    expect(md(wiki)).toBe("Born in Saltreach.[^1] Ran away at fifteen.[^2] Relights lanterns.[^2]\n\n[^1]: Codex entry.\n[^2]: A conversation.");
    // Two notes whose references read the same (two lists numbered from 1) keep apart.
    expect(md(`<p>${"Each list has its own notes, as sections do. ".repeat(3)}One<a href="#fn1">1</a>, two<a href="#note-b1">1</a>.</p><ol><li id="fn1">First.</li></ol><ol><li id="note-b1">Second.</li></ol>`)).toContain(
      "One[^1], two[^1-2].\n\n[^1]: First.\n\n[^1-2]: Second.",
    );
    // An item no reference named is written under its number, told apart from a label a reference gave.
    expect(md(`<p>${"The notes are numbered by the page, not the list. ".repeat(3)}Claim<a href="#fn1">2</a>.</p><ol><li id="fn1">A.</li><li id="fn2">B.</li></ol>`)).toContain(
      "Claim[^2].\n\n[^2]: A.\n[^2-2]: B.",
    );
    // A link back in brackets at a note's end leaves no empty brackets; a reference's text of five characters or a
    // fragment that is no valid escape is a link as written.
    expect(md(`<p>${"A claim stands here, with its note below. ".repeat(3)}One<a href="#fn1">1</a>, <a href="#fn%E0%A4">2</a>, <a href="#fn1">12345</a>.</p><ol><li id="fn1">Said so. [<a href="#r1">↩</a>]</li></ol>`)).toContain(
      "One[^1], [2](https://example.test/docs/guide/page.html#fn%E0%A4), [12345](https://example.test/docs/guide/page.html#fn1).\n\n[^1]: Said so.",
    );
    // WordPress' footnotes block: ids that are bare UUIDs, in a list named as the notes; Drupal's: an unordered list,
    // each note opening with its number linking back ("1.").
    const wordpress = (listClass: string) =>
      md(`<p>${"Notes are kept below the post. ".repeat(3)}Boxes work<sup data-fn="3f6c" class="fn"><a href="#3f6c" id="3f6c-link">1</a></sup>.</p><ol class="${listClass}"><li id="3f6c">Bicycle boxes. <a href="#3f6c-link" aria-label="Jump to footnote reference 1">↩︎</a></li></ol>`);
    expect(wordpress("wp-block-footnotes")).toContain("Boxes work[^1].\n\n[^1]: Bicycle boxes.");
    expect(wordpress("wp-block-list")).toContain("Boxes work[1](https://example.test/docs/guide/page.html#3f6c).");
    expect(
      md(`<p>${"Minutes are cited. ".repeat(5)}Cut off<sup class="footnote"><a href="#footnote1_k3" id="footnoteref1_k3">1</a></sup>.</p><ul class="footnotes"><li class="footnote" id="footnote1_k3"><a class="footnote-label" href="#footnoteref1_k3">1.</a> Vestry minutes.</li></ul>`),
    ).toContain("Cut off[^1].\n\n[^1]: Vestry minutes.");
    // Substack's: each note a box of its own, named as a note, opening with its number linking back; a box not named
    // so is no note.
    const substack = (boxClass: string) =>
      md(`<p>${"Bakeries opened fast. ".repeat(5)}Wrong<a class="footnote-anchor" id="footnote-anchor-1" href="#footnote-1">1</a>.</p><div class="${boxClass}"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number">1</a><div class="footnote-content"><p>The outlook was flat.</p></div></div>`);
    expect(substack("footnote")).toContain("Wrong[^1].\n\n[^1]: The outlook was flat.");
    expect(substack("aside")).toContain("Wrong[1](https://example.test/docs/guide/page.html#footnote-1).");
    // A list of notes left out leaves its references links; a link to a section is no reference.
    expect(md('<p>See<a href="#fn1">1</a> and <a href="#part-2">2</a>.</p><ol hidden><li id="fn1">Gone.</li></ol><h2 id="part-2">Part</h2><p>Its text.</p>')).toBe(
      "See[1](https://example.test/docs/guide/page.html#fn1) and [2](https://example.test/docs/guide/page.html#part-2).\n\n## Part\n\nIts text.",
    );
  });

  it("pandoc's, Sphinx' and Springer Nature's formulas (spans and divs named math around TeX's \\( \\) or \\[ \\], typeset in the browser) are their TeX", () => {
    expect(md('<p>For each group <span class="math inline">\\(g\\)</span>, in a line <a href="/f"><span class="math inline">\\(e^{-x}\\)</span></a>:</p><p><span class="math display">\\[\n\\log y = \\beta_0\n\\]</span></p><p>Done.</p>')).toBe(
      "For each group $g$, in a line [$e^{-x}$](https://example.test/f):\n\n$$\\log y = \\beta_0$$\n\nDone.",
    );
    // Sphinx's: a span inline, a div displayed, named math notranslate nohighlight.
    expect(md('<p>The decay:</p><div class="math notranslate nohighlight">\\[ Q(t) = Q_0 \\, e^{-t/k} \\]</div><p>with <span class="math notranslate nohighlight">\\(k\\)</span> days.</p>')).toBe(
      "The decay:\n\n$$Q(t) = Q_0 \\, e^{-t/k}$$\n\nwith $k$ days.",
    );
    // Springer Nature's: a span named mathjax-tex, inline between \( \), displayed between $$.
    expect(md('<p>Magnitudes <span class="mathjax-tex">\\(M_d\\)</span>:</p><div><span class="mathjax-tex">$$\\sum_{d=1}^{n} M_d$$</span></div>')).toBe(
      "Magnitudes $M_d$:\n\n$$\\sum_{d=1}^{n} M_d$$",
    );
    expect(md('<p>Costs <span class="mathjax-tex">$$</span> or <span class="mathjax-tex">$5$</span>.</p>')).toBe("Costs $$ or $5$.");
    // A span holding more than its source as one text is not read as a formula.
    expect(md('<p>See <span class="math inline">\\(a<b>x</b>\\)</span>.</p>')).toBe("See \\\\(ax\\\\).");
    // Without both delimiters, or with a source that would read as Markdown, it is text as written.
    expect(md('<p><span class="math inline">\\(a</span> and <span class="math inline">\\([x](javascript:go())\\)</span>.</p>')).toBe("\\\\(a and \\\\([x\\](javascript:go())\\\\).");
  });

  it("MathJax 2's formulas are the TeX of their source scripts, without the preview and typeset copy before each", () => {
    const frame = (n: number, glyphs: string): string =>
      `<span class="MathJax_Preview" style="display: none;"></span><span class="mjx-chtml MathJax_CHTML" id="MathJax-Element-${n}-Frame" role="presentation"><span class="mjx-math" aria-hidden="true">${glyphs}</span><span class="MJX_Assistive_MathML" role="presentation"><math><mi>${glyphs}</mi></math></span></span>`;
    expect(md(`<p>Energy ${frame(1, "E=mc2")}<script type="math/tex" id="MathJax-Element-1">E = mc^2</script> at rest.</p>`)).toBe("Energy $E = mc^2$ at rest.");
    // A displayed formula is a block of its own; its copy is in a display box.
    expect(
      md(`<p>In full:</p><div class="MathJax_Display">${frame(2, "E2=p2")}</div><script type="math/tex; mode=display" id="MathJax-Element-2">E^2 = p^2</script><p>Done.</p>`),
    ).toBe("In full:\n\n$$E^2 = p^2$$\n\nDone.");
    // Not yet typeset: the preview shows the source, said once. In a link, the formula is the link's text.
    expect(md('<p>Sum <span class="MathJax_Preview">a+b</span><script type="math/tex">a+b</script>, <a href="/s"><script type="math/tex">s</script></a>.</p>')).toBe(
      "Sum $a+b$, [$s$](https://example.test/s).",
    );
    // A source that would read as Markdown is left out, its typeset copy shown; other scripts and their neighbours stay as they were.
    expect(md(`<p>See ${frame(3, "x")}<script type="math/tex">[a](javascript:alert(1))</script> now.</p>`)).toBe("See x now.");
    expect(md('<p>Run <span class="MathJax">x</span><script>go()</script> now.</p>')).toBe("Run x now.");
    // Two copies at most stand before a script (its preview, its typeset box): a third before them is the page's own.
    expect(md('<p>See <span class="MathJax">own</span><span class="MathJax_Preview">p</span><span class="MathJax">q</span><script type="math/tex">x</script> end.</p>')).toBe(
      "See own$x$ end.",
    );
  });

  it("a <q> the author already set in quotation marks is not quoted twice", () => {
    expect(md("<p>Er sagt „<q>Ja, gern</q>“, sie sagt <q>nein</q> und «<q>peut-être</q>».</p>")).toBe('Er sagt „Ja, gern“, sie sagt "nein" und «peut-être».');
  });

  it("moves spaces out of emphasis, skips empty emphasis and does not double nested emphasis", () => {
    expect(md("<p>a<b> bold </b>c<b></b> <b>x <b>y</b></b> <em><i>z</i></em></p>")).toBe("a **bold** c **x y** *z*");
  });

  it("inline code uses a fence longer than any backtick run inside", () => {
    expect(md("<p>Use <code>npm  test</code>, <code>a`b</code>, <code>`tick`</code> and <kbd>Ctrl</kbd>.</p>")).toBe(
      "Use `npm test`, ``a`b``, `` `tick` `` and `Ctrl`.",
    );
  });

  it("elements set apart by style with no space between them read as separate words when one ends a word or a sentence and the next starts with a capital", () => {
    // A reference's label and its entry (LaTeXML), a time and its author (a live blog), a caption's label and its credit,
    // inside a link and in the flow; the capital may stand four levels down.
    expect(md('<ul><li><span class="tag">Shazeer et al. (2017)</span><span class="block">Noam Shazeer. Mixtures.</span></li></ul>')).toBe(
      "- Shazeer et al. (2017) Noam Shazeer. Mixtures.",
    );
    expect(md('<p><a href="#p1">10:42</a><span class="author"><b><i><em><span>Maria</span></em></i></b> Lopez</span></p>')).toBe(`[10:42](${PAGE}#p1) ***Maria*** Lopez`);
    expect(md('<p>A flood.<span class="label">Credit</span><span>Fred Conrad</span></p>')).toBe("A flood.Credit Fred Conrad");
    expect(md('<p><a href="/x"><span>Home</span><span>Sport</span></a></p>')).toBe("[Home Sport](https://example.test/x)");
    expect(md('<p><span class="time">11:00am</span><span class="number">2</span></p>')).toBe("11:00am 2");
    // A sentence's end before a capital: a caption and its credit, each in an element of its own (the New York Times').
    expect(md('<p><span class="caption">The bridge closed.</span><span class="credit"><span>Credit...</span><span>Maren Okafor</span></span></p>')).toBe("The bridge closed. Credit... Maren Okafor");
    expect(md('<p><span>Folge mir!</span><span>Alle Rezepte</span> <span>Wirklich?</span><span>Ja</span></p>')).toBe("Folge mir! Alle Rezepte Wirklich? Ja");
    // A dotted name's end is no sentence's: Sphinx's module path before a class's name stays one name.
    expect(md('<p><span class="sig-prename descclassname">tessellate.grid.</span><span class="sig-name descname">HexGrid</span> is a grid.</p>')).toBe("tessellate.grid.HexGrid is a grid.");
    // Microdata that shows nothing may stand between them, two elements of it at most.
    expect(md('<p><a href="/u/mira">mira</a><link itemprop="mainEntityOfPage" href="/t/1"><meta itemprop="position" content="1"><time>November 20</time></p>')).toBe(
      "[mira](https://example.test/u/mira) November 20",
    );
    expect(md('<p><a href="/u/mira">mira</a><meta itemprop="a" content="1"><meta itemprop="b" content="2"><meta itemprop="c" content="3"><time>November 20</time></p>')).toBe(
      "[mira](https://example.test/u/mira)November 20",
    );
    // The text after such an element too: a source's label before the story, a label before its value.
    expect(md('<p>London <cite class="source">(CNN)</cite>It was the interview, <span class="label">Preis/Nacht</span>88 €.</p>')).toBe("London (CNN) It was the interview, Preis/Nacht 88 €.");
    // Kept together: a word's parts (a drop cap, lower-case letters after), a unit after a number, a subscript, a capital
    // five levels down, text written between the elements.
    expect(
      md(
        '<p><span class="drop">O</span><span>NCE</span> upon <span>a</span><span>time</span>, <span>12</span><span>kg</span>, <span>1</span><span>5</span>, CO<sub>2</sub>, m<sup>2</sup>, <span>x</span><sub>2</sub>, H<sub>2</sub>O, <b>e</b>mail' +
          " <span>up</span><span><span><span><span><span><span>Down</span></span></span></span></span></span> <span>in</span>-<span>Line</span></p>",
      ),
    ).toBe("ONCE upon atime, 12kg, 15, CO₂, m², x₂, H₂O, email upDown in-Line");
  });

  it("decodes entities", () => {
    expect(md("<p>&eacute;t&eacute; &#x27;q&#39; &copy; 1&nbsp;000 &rarr; &amp;</p>")).toBe("été 'q' © 1 000 → &");
  });
});

describe("html: links and images", () => {
  it("lines broken inside a link stay lines, each a link to the same place (a lyric's annotated lines)", () => {
    expect(md('<p>So let them float<br><a href="/a/1"><span>Paper lanterns, burning slow<br>Over the water<br></span></a>and home</p>')).toBe(
      "So let them float  \n[Paper lanterns, burning slow](https://example.test/a/1)  \n[Over the water](https://example.test/a/1)  \nand home",
    );
    expect(md('<p>A <a href="/a/2">link on one line</a> here.</p>')).toBe("A [link on one line](https://example.test/a/2) here.");
  });

  it("a link that shows nothing but zero-width characters is left out, its spaces kept", () => {
    expect(
      md('<h2 id="install">Install<a class="hash-link" href="#install" title="Direct link">\u200b</a></h2><p>One <a href="/x"> \u200d\u00ad </a> two<a href="/y">\u2060</a>.</p>'),
    ).toBe("## Install\n\nOne two.");
  });

  it("a heading linked to itself or to its section is its text; other links to places on the page stay", () => {
    expect(
      md('<section id="syntax"><h2 id="syntax-h"><a href="#syntax-h">Syntax</a></h2><h3><a href="#syntax">Forms</a></h3><p><a href="#syntax">Here</a> and <a href="#notes">the notes</a>.</p></section>'),
    ).toBe("## Syntax\n\n### Forms\n\n[Here](https://example.test/docs/guide/page.html#syntax) and [the notes](https://example.test/docs/guide/page.html#notes).");
    // A hash router names the place in the fragment's own query (docsify's `#/guide?id=options`).
    expect(md('<h2 id="options"><a href="#/guide?id=options" class="anchor"><span>Options</span></a></h2><h3 id="a"><a href="#/guide?id=b">Other</a></h3><h3 id="c"><a href="#/guide?page=c">Page</a></h3>')).toBe(
      "## Options\n\n### [Other](https://example.test/docs/guide/page.html#/guide?id=b)\n\n### [Page](https://example.test/docs/guide/page.html#/guide?page=c)",
    );
  });

  it("an icon link, one symbol with a title or label saying what it does, is left out; an untitled one stays", () => {
    expect(
      md('<h1>Install</h1><p><a href="https://git.test/edit/install.md" title="Edit this page">✎</a> <a href="/share" aria-label="Share">🔗</a> <a href="/like" title="Like">❤️</a></p><p>Run the installer.</p><ol><li id="step1">The step. <a href="#top">↩</a></li></ol>'),
    ).toBe("# Install\n\nRun the installer.\n\n1. The step. [↩](https://example.test/docs/guide/page.html#top)");
  });

  it("a heading's permalink mark (¶, #) is left out; a mark linking elsewhere and a footnote number stay", () => {
    expect(
      md('<h2 id="setup">Setting up<a class="headerlink" href="#setup" title="Permalink">¶</a></h2><h3><a href="#more" aria-hidden="true">#</a>More</h3><p>Photo <a href="https://photos.test/1">#</a> and a note<a href="#fn1">1</a>.</p>'),
    ).toBe("## Setting up\n\n### More\n\nPhoto [#](https://photos.test/1) and a note[1](https://example.test/docs/guide/page.html#fn1).");
    // markdown-it-anchor's accessible permalink: the mark shown, words for screen readers beside it; a link showing
    // more than a mark is the author's.
    const anchor = (shown: string) => `<a class="header-anchor" href="#next"><span class="visually-hidden">Permalink to “Next”</span><span aria-hidden="true">${shown}</span></a>`;
    expect(md(`<h2 id="next">Next ${anchor("#")}</h2><p>Text.</p>`)).toBe("## Next\n\nText.");
    expect(md(`<h2 id="next">Next</h2>${anchor("¶")}<p>Text.</p>`)).toBe("## Next\n\nText.");
    expect(md(`<h2 id="next">Next</h2>${anchor("Top")}<p>Text.</p>`)).toBe("## Next\n\n[Permalink to “Next”](https://example.test/docs/guide/page.html#next)\n\nText.");
  });

  it("resolves relative links against the page URL", () => {
    expect(md('<p><a href="other.html">Other</a>, <a href="/root">Root</a>, <a href="../up/">Up</a>, <a href="?q=1#s">Query</a>, <a href="//cdn.test/x">CDN</a></p>')).toBe(
      "[Other](https://example.test/docs/guide/other.html), [Root](https://example.test/root), [Up](https://example.test/docs/up/), [Query](https://example.test/docs/guide/page.html?q=1#s), [CDN](https://cdn.test/x)",
    );
  });

  it("resolves against <base href> when present (itself relative to the page)", () => {
    expect(md('<head><base href="/static/v2/"></head><body><p><a href="a.html">A</a> <img src="i.png" alt="I"></p></body>')).toBe(
      "[A](https://example.test/static/v2/a.html) ![I](https://example.test/static/v2/i.png)",
    );
  });

  it("keeps the text of javascript:, empty and # links, and of anchors without href", () => {
    expect(md('<p><a href="javascript:void(0)">Run</a> <a href=" JaVa\tScRiPt:alert(1)">Tab</a> <a href="">Empty</a> <a href="#">Hash</a> <a name="x">Anchor</a></p>')).toBe(
      "Run Tab Empty Hash Anchor",
    );
  });

  it("keeps mailto: links, encodes parentheses, drops links without text, and moves spaces outside", () => {
    expect(md('<p><a href="mailto:a@example.test">Mail</a> <a href="/wiki/A_(b)">Wiki</a><a href="/empty"> </a>x<a href="/s"> spaced </a>y</p>')).toBe(
      "[Mail](mailto:a@example.test) [Wiki](https://example.test/wiki/A_%28b%29) x [spaced](https://example.test/s) y",
    );
  });

  it("renders block content inside a link on one line", () => {
    expect(md('<a href="/card"><div><h3>Card title</h3><p>Blurb</p></div></a>')).toBe("[Card title Blurb](https://example.test/card)");
  });

  it("images need alt text; lazy-loading data-src is used when src is a placeholder", () => {
    expect(
      md('<p><img src="no-alt.png"><img src="a.png" alt=""><img src="data:image/gif;base64,R0lG" data-src="/real.png" alt="Real [1]"><img src="data:image/png;base64,AA" alt="Inline only"></p>'),
    ).toBe("![Real \\[1\\]](https://example.test/real.png)");
  });

  it("a lazy loader's picture: data-src (data-lazy-src, data-original) or the widest of a data-srcset over a placeholder src, a srcset alone, the <noscript> copy, a <picture>'s source", () => {
    const images = [
      '<img src="/spinner.gif" data-src="/loaded.png" alt="Data src">',
      '<img src="/blur.jpg?type=w80_blur" data-lazy-src="/photo.jpg?type=w966" alt="Data lazy src">',
      '<img src="/720w.jpg" data-original="/original.jpg" alt="Data original">',
      '<img src="data:image/gif;base64,R0lG" data-lazy-srcset="/l-400.jpg 400w, /l-900.jpg 900w" alt="Data lazy srcset">',
      '<img src="data:image/gif;base64,R0lG" data-srcset="/s-300.jpg 300w, /s-1200.jpg 1200w, /s-800.jpg 800w" alt="Data srcset">',
      '<img srcset="/d.jpg, /d-2x.jpg 2x" alt="Srcset">',
      '<img src="data:image/gif;base64,R0lG" class="lazy" alt=""> <noscript><img src="/real.jpg" alt="Noscript copy"></noscript>',
      '<img src="/kept.jpg" alt="Beside a pixel"><noscript><img src="/pixel.gif" width="1" height="1"></noscript>',
      '<picture><source type="image/avif"><source srcset="/m-700.webp 700w, /m-1400.webp 1400w" type="image/webp"><img alt="Picture source" loading="lazy"></picture>',
    ];
    expect(md(images.map((image) => `<p>${image}</p>`).join(""))).toBe(
      [
        "![Data src](https://example.test/loaded.png)",
        "![Data lazy src](https://example.test/photo.jpg?type=w966)",
        "![Data original](https://example.test/original.jpg)",
        "![Data lazy srcset](https://example.test/l-900.jpg)",
        "![Data srcset](https://example.test/s-1200.jpg)",
        "![Srcset](https://example.test/d-2x.jpg)",
        "![Noscript copy](https://example.test/real.jpg)",
        "![Beside a pixel](https://example.test/kept.jpg)",
        "![Picture source](https://example.test/m-1400.webp)",
      ].join("\n\n"),
    );
  });

  it("a <noscript> of one picture in a figure no other picture stands in (a custom element beside it) shows it; beside a picture, or in a box of many parts, it does not", () => {
    const figure = (parts: string) => md(`<figure><noscript><img src="/capsules.jpg" alt="Capsules on a table"></noscript>${parts}<figcaption>Westend61</figcaption></figure>`);
    expect(figure('<lazy-image src="/capsules.jpg"></lazy-image>')).toBe('![Capsules on a table](https://example.test/capsules.jpg "Westend61")');
    expect(figure('<a href="/big.jpg"><img src="/stand-in.gif" alt="Stand-in"></a>')).not.toContain("capsules.jpg");
    // Six parts at most: the picture, stand-ins, a caption.
    expect(figure("<span></span>".repeat(4))).toContain("capsules.jpg");
    expect(figure("<span></span>".repeat(5))).not.toContain("capsules.jpg");
  });

  it("a picture of an emoji is the character it shows; other small pictures are pictures", () => {
    expect(md('<p>Great <img draggable="false" role="img" class="emoji" alt="😀" src="https://s.w.org/1f600.svg"> news <img alt="👍🏽" src="t.png" width="16" height="16"> <img alt="🇩🇪" src="de.png"></p>')).toBe(
      "Great 😀 news 👍🏽 🇩🇪",
    );
    expect(md('<p>Step <img alt="1" src="one.png"> and <img alt="a😀" src="x.png"></p>')).toBe(
      "Step ![1](https://example.test/docs/guide/one.png) and ![a😀](https://example.test/docs/guide/x.png)",
    );
  });

  it("an image inside a link", () => {
    expect(md('<a href="/full.png"><img src="thumb.png" alt="Thumb"></a>')).toBe(
      "[![Thumb](https://example.test/docs/guide/thumb.png)](https://example.test/full.png)",
    );
  });
});

describe("html: code blocks", () => {
  it("a block with no language named takes the language of the file it is titled with, the title kept over it", () => {
    // GitBook: the title over a wrapper whose copy button comes before the pre; Docusaurus' title; a path; a Dockerfile.
    const gitbook = (title: string) => `<div class="codeblock"><div class="flex"><div class="title">${title}</div></div><div class="grid"><button>Copy</button><pre><code>x</code></pre></div></div>`;
    expect(md(gitbook("event.json"))).toBe("event.json\n\n```json\nx\n```");
    expect(md('<div class="container"><div class="codeBlockTitle">src/main.rs</div><div class="content"><pre><code>x</code></pre></div></div>')).toBe("src/main.rs\n\n```rust\nx\n```");
    // A title that is the language's name too is the fence's, as a label naming the language is.
    expect(md('<div class="frame"><div class="title">Dockerfile</div><pre><code>x</code></pre></div>')).toBe("```dockerfile\nx\n```");
    // A file of no language, a sentence, a title further out than the pre's second wrapper: no language.
    expect(md(gitbook("notes.txt"))).toBe("notes.txt\n\n```\nx\n```");
    expect(md('<p>Save this as app.js and run it:</p><pre><code>x</code></pre>')).toBe("Save this as app.js and run it:\n\n```\nx\n```");
    expect(md('<div class="title">app.js</div><div><div><div><pre><code>x</code></pre></div></div></div>')).toBe("app.js\n\n```\nx\n```");
    expect(md('<div class="title">app.js</div><div><div><pre><code>x</code></pre></div></div>')).toBe("app.js\n\n```javascript\nx\n```");
    // The title is the first of three elements before that shows text: a fourth is too far.
    const icons = (count: number) => `<div>app.py</div>${"<span></span>".repeat(count)}<pre><code>x</code></pre>`;
    expect(md(icons(2))).toBe("app.py\n\n```python\nx\n```");
    expect(md(icons(3))).toBe("app.py\n\n```\nx\n```");
    // A title is a line of 120 characters at most.
    const titled = (path: string) => md(`<div class="title">${path}</div><pre><code>x</code></pre>`);
    expect(titled(`${"a".repeat(117)}.js`)).toBe(`${"a".repeat(117)}.js\n\n\`\`\`javascript\nx\n\`\`\``);
    expect(titled(`${"a".repeat(118)}.js`)).toBe(`${"a".repeat(118)}.js\n\n\`\`\`\nx\n\`\`\``);
  });

  it.each([
    ['<pre><code class="language-js">const a = 1;</code></pre>', "```js\nconst a = 1;\n```"],
    ['<pre><code class="hljs lang-Python">x = 1</code></pre>', "```python\nx = 1\n```"],
    ['<pre class="highlight-ruby">puts 1</pre>', "```ruby\nputs 1\n```"],
    ['<div class="highlight highlight-source-rust"><pre>fn main() {}</pre></div>', "```rust\nfn main() {}\n```"],
    ['<pre data-lang="sh"><code>ls</code></pre>', "```sh\nls\n```"],
    ['<pre><code data-language="go">go run .</code></pre>', "```go\ngo run .\n```"],
    // A language whose name is a short word, as the whole class of a code element in a pre named nothing (Habr's highlight.js 9).
    ['<pre><code class="go">go run .</code></pre>', "```go\ngo run .\n```"],
    ['<pre><code class="c">int x;</code></pre>', "```c\nint x;\n```"],
    ['<pre><code class="go wide">go run .</code></pre>', "```\ngo run .\n```"],
    ['<pre class="go"><code>go run .</code></pre>', "```\ngo run .\n```"],
    // Medium names it on the one element that holds the pre's code, whatever that is.
    ['<pre class="rr rs"><span id="bb3b" class="sa qm" data-code-block-mode="1" data-code-block-lang="bash">ls -la</span></pre>', "```bash\nls -la\n```"],
    ['<pre><span data-code-block-lang="bash">ls</span><span>-la</span></pre>', "```\nls-la\n```"],
    ['<div class="mw-highlight mw-highlight-lang-odin mw-content-ltr" dir="ltr"><pre>main :: proc() {}</pre></div>', "```odin\nmain :: proc() {}\n```"],
    ['<pre class="devsite-click-to-copy" syntax="JavaScript">const a = 1;</pre>', "```javascript\nconst a = 1;\n```"],
    // Atlassian's on the box around a <code> of rows.
    ['<span data-code-lang="sql"><code><span data-ds--code--row="">select 1</span><span data-ds--code--row="">from t</span></code></span>', "```sql\nselect 1\nfrom t\n```"],
    ['<pre><code class="language-none">plain</code></pre>', "```\nplain\n```"],
    // Discourse's lang-auto asks the highlighter to guess; highlight.js' nohighlight asks it not to colour the block.
    ['<pre><code class="lang-auto">plain</code></pre>', "```\nplain\n```"],
    ['<pre><code class="language-nohighlight">plain</code></pre>', "```\nplain\n```"],
    // MyST-NB's notebook output, in a terminal's colours.
    ['<div class="output stream highlight-myst-ansi notranslate"><div class="highlight"><pre>87 segments</pre></div></div>', "```\n87 segments\n```"],
    ['<pre class="brush: js notranslate"><code>go()</code></pre>', "```js\ngo()\n```"],
    ['<pre class="brush:PHP; gutter: false">echo 1;</pre>', "```php\necho 1;\n```"],
    ['<div class="highlight-python3 notranslate"><div class="highlight"><pre>print(1)</pre></div></div>', "```python3\nprint(1)\n```"],
    ['<div class="highlight-default notranslate"><div class="highlight"><pre>make</pre></div></div>', "```\nmake\n```"],
    ['<div class="lang-en"><div class="post"><pre>text</pre></div></div>', "```\ntext\n```"],
    ['<div class="language-ruby highlighter-rouge"><div class="highlight"><pre class="highlight"><code>puts 1</code></pre></div></div>', "```ruby\nputs 1\n```"],
    ['<div class="language-ruby"><div><div><pre>two out</pre></div></div></div>', "```\ntwo out\n```"],
    [`<div class="highlight-c">${"<div>".repeat(7)}<pre>far</pre>${"</div>".repeat(7)}</div>`, "```\nfar\n```"],
    [`<div class="highlight-c">${"<div>".repeat(6)}<pre>near</pre>${"</div>".repeat(6)}</div>`, "```c\nnear\n```"],
    ['<div class="highlight hl-ipython3"><pre>import pandas as pd</pre></div>', "```python\nimport pandas as pd\n```"],
    ['<pre class="rust rust-example-rendered"><code>let a = 1;</code></pre>', "```rust\nlet a = 1;\n```"],
    ['<pre><code class="Python">x = 1</code></pre>', "```python\nx = 1\n```"],
    ['<pre class="sourceCode r"><code class="sourceCode r">x &lt;- 1</code></pre>', "```r\nx <- 1\n```"],
    ['<pre class="output text"><code class="c">done</code></pre>', "```\ndone\n```"],
    ['<div class="sourceCode"><pre class="sourceCode r"><code>x &lt;- 1</code></pre></div>', "```r\nx <- 1\n```"],
    ['<pre class="sourceCode numberSource code-with-copy"><code>x</code></pre>', "```\nx\n```"],
    ['<pre lang="python"><span class="kn">import</span> os</pre>', "```python\nimport os\n```"],
    ['<pre lang="en"><code>Plain words</code></pre>', "```\nPlain words\n```"],
  ])("%s", (html, expected) => {
    expect(md(html)).toBe(expected);
  });

  it("a label beside a code block that names its language is left out; other labels stay", () => {
    expect(
      md('<div class="language-ts"><button title="Copy Code" class="copy"></button><span class="lang">ts</span><pre><code>let a = 1;</code></pre></div><div class="language-sh"><pre><code>ls</code></pre><div> SH </div></div><div class="language-sh"><span>Output</span><pre><code>ok</code></pre><span>zsh</span></div>'),
    ).toBe("```ts\nlet a = 1;\n```\n\n```sh\nls\n```\n\nOutput\n\n```sh\nok\n```\n\nzsh");
    // MDN's header over the block: the language's name beside a copy button whose text is hidden.
    expect(
      md('<div class="code-example"><div class="example-header"><span class="language-name">js</span><button type="button"><span class="visually-hidden">Copy to Clipboard</span></button></div><pre class="brush: js notranslate"><code>map(fn)</code></pre></div>'),
    ).toBe("```js\nmap(fn)\n```");
  });

  it("keeps whitespace, blank lines and markup-free text; drops the newline right after <pre>", () => {
    expect(md("<pre>\n  def f():\n\n\n      return &lt;x&gt; * 2  \n\n</pre>")).toBe("```\n  def f():\n\n\n      return <x> * 2\n```");
  });

  it("the line numbers a highlighter sets in a table cell beside the code are left out (Pygments, Hugo, Hexo)", () => {
    expect(
      md('<div class="highlight-python notranslate"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2\n3</pre></div></td><td class="code"><div class="highlight"><pre>a = 1\nb = 2\nc = 3</pre></div></td></tr></table></div>'),
    ).toBe("```python\na = 1\nb = 2\nc = 3\n```");
    // MkDocs names the language around the table (Pygments' cell holding a box around the pre); a pre deeper in the
    // cell, or a table with no numbers beside the code, is not framed by it.
    const numbered = (cell: string, numbers = "1\n2") =>
      md(`<div class="language-python highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>${numbers}</pre></div></td><td class="code">${cell}</td></tr></table></div>`);
    expect(numbered("<div><pre><code>a = 1\nb = 2</code></pre></div>")).toBe("```python\na = 1\nb = 2\n```");
    expect(numbered("<div><div><pre><code>a = 1\nb = 2</code></pre></div></div>")).toBe("```\na = 1\nb = 2\n```");
    expect(numbered("<div><pre><code>a = 1\nb = 2</code></pre></div>", "Step")).toBe("```\nStep\n```\n\n```\na = 1\nb = 2\n```");
    expect(md('<figure class="highlight"><table><tr><td class="gutter"><pre><span class="line">1</span><br><span class="line">2</span></pre></td><td class="code"><pre>x<br>y</pre></td></tr></table></figure>')).toBe(
      "```\nx\ny\n```",
    );
    // Hexo names the language beside `highlight` on the frame; beside another name, a bare name is no language.
    const hexo = (names: string) =>
      md(`<figure class="${names}"><table><tr><td class="gutter"><pre><span class="line">1</span><br><span class="line">2</span></pre></td><td class="code"><pre>x<br>y</pre></td></tr></table></figure>`);
    expect(hexo("highlight bash")).toBe("```bash\nx\ny\n```");
    expect(hexo("listing bash")).toBe("```\nx\ny\n```");
    // Numbers that do not count from one, or no code beside them, are text.
    expect(md("<table><tr><td><pre>2\n3</pre></td><td><pre>b\nc</pre></td></tr></table>")).toBe("```\n2\n3\n```\n\n```\nb\nc\n```");
    expect(md("<table><tr><td><pre>1\n2x</pre></td><td><pre>b\nc</pre></td></tr></table>")).toBe("```\n1\n2x\n```\n\n```\nb\nc\n```");
  });

  it("a list of the line numbers in the code's block, beside its <code>, is left out (CSDN's pre-numbering)", () => {
    const numbers = (items: string[]) => `<ul class="pre-numbering">${items.map((item) => `<li style="color: rgb(153, 153, 153);">${item}</li>`).join("")}</ul>`;
    const block = (list: string) => md(`<pre class="prettyprint"><code class="language-java has-numbering">int a = 1;\nint b = 2;\n</code><div class="hljs-button" data-title="copy"></div>${list}</pre>`);
    expect(block(numbers(["1", "2"]))).toBe("```java\nint a = 1;\nint b = 2;\n```");
    expect(block(numbers(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]))).toBe("```java\nint a = 1;\nint b = 2;\n```");
    // Numbers that skip, or items that say more, are the block's text.
    expect(block(numbers(["1", "3"]))).toBe("```java\nint a = 1;\nint b = 2;\n1\n3\n```");
    expect(block(numbers(["1", "2 lines"]))).toBe("```java\nint a = 1;\nint b = 2;\n1\n2 lines\n```");
  });

  it("line numbers a highlighter writes inline, in an element opening each line, are left out (Hugo, Pygments)", () => {
    const hugo = (lines: string[]): string =>
      `<div class="highlight"><pre class="chroma"><code class="language-sh" data-lang="sh">${lines
        .map((line, i) => `<span class="line"><span class="ln">${i + 1}</span><span class="cl">${line}\n</span></span>`)
        .join("")}</code></pre></div>`;
    expect(md(hugo(["echo one", "", "echo two"]))).toBe("```sh\necho one\n\necho two\n```");
    // Pygments' numbers padded to one width and linked to their lines.
    expect(md('<pre><span class="linenos"><a href="#l1"> 9</a></span>a\n<span class="linenos"><a href="#l2">10</a></span>b</pre>')).toBe("```\n 9a\n10b\n```");
    expect(md('<pre><span class="linenos"><a href="#l1"> 1</a></span>a\n<span class="linenos"><a href="#l2"> 2</a></span>b</pre>')).toBe("```\na\nb\n```");
    // Numbers that are the block's only text, that skip a line, or that some line goes without are the code's own.
    expect(md("<pre><span>1</span>\n<span>2</span></pre>")).toBe("```\n1\n2\n```");
    expect(md("<pre><span>1</span>a\n<span>3</span>b</pre>")).toBe("```\n1a\n3b\n```");
    expect(md("<pre><span>1</span>a\nb\n<span>2</span>c</pre>")).toBe("```\n1a\nb\n2c\n```");
    expect(md("<pre>x <span>1</span>a\n<span>2</span>b</pre>")).toBe("```\nx 1a\n2b\n```");
  });

  it("a table of code whose rows name their line numbers (data-line-number) is one code block", () => {
    const row = (n: number, code: string, shown = ""): string =>
      `<tr><td id="L${n}" class="blob-num js-line-number" data-line-number="${n}">${shown}</td><td id="LC${n}" class="blob-code blob-code-inner js-file-line">${code}</td></tr>`;
    expect(md(`<table class="highlight">${row(1, '<span class="pl-k">def</span> f():')}${row(2, "    return <span>1</span>")}${row(3, "")}</table>`)).toBe(
      "```\ndef f():\n    return 1\n```",
    );
    // A snippet of lines 10 to 11, its numbers shown as text.
    expect(md(`<table>${row(10, "a = 1", "10")}${row(11, "b = 2", "11")}</table>`)).toBe("```\na = 1\nb = 2\n```");
    // Numbers that skip, or a number cell with other text, make an ordinary table.
    expect(md(`<table>${row(1, "a")}${row(3, "b")}</table>`)).toBe("|  | a |\n| --- | --- |\n|  | b |");
    expect(md(`<table>${row(1, "a", "one")}${row(2, "b")}</table>`)).toBe("| one | a |\n| --- | --- |\n|  | b |");
  });

  it("a <code> of rows with no <pre> around it (Atlassian's Confluence and Jira) is a code block, a row to a line; other code stays inline", () => {
    const row = (n: number, line: string): string => `<span data-ds--code--row="" data-ds--line-number="${n}" class="css-1qgjv1g">${line}</span>`;
    const block = `<span data-testid="code-block" data-code-lang="bash" class="prismjs"><code class="language-bash">${row(1, '<span class="token">kubectl</span> get jobs')}${row(2, "kubectl wait job")}</code></span>`;
    expect(md(`<p>Run:</p>${block}<p>Then wait.</p>`)).toBe("Run:\n\n```bash\nkubectl get jobs\nkubectl wait job\n```\n\nThen wait.");
    // Rows a line of text opens are not the code's: it is code in a sentence.
    expect(md(`<p>Run <code>kubectl ${row(1, "get jobs")}</code> first.</p>`)).toBe("Run `kubectl get jobs` first.");
  });

  it("a <code> alone in its box, set out in line breaks (PHP's highlight_string()), is a code block, its whitespace as shown; in a sentence it stays inline", () => {
    const example = `<code><span style="color: #000000">\n<span style="color: #0000BB">&lt;?php<br /><br /></span><span style="color: #007700">function </span><span style="color: #0000BB">odd</span><span style="color: #007700">($var)<br />{<br />&nbsp;&nbsp;&nbsp;&nbsp;return </span><span style="color: #0000BB">$var </span><span style="color: #007700">&amp; 1;<br />}<br /></span><span style="color: #0000BB">?&gt;</span>\n</span>\n</code>`;
    expect(md(`<p>Example:</p><div class="phpcode">\n${example}\n</div><p>Done.</p>`)).toBe("Example:\n\n```\n<?php\n\nfunction odd($var)\n{\n    return $var & 1;\n}\n?>\n```\n\nDone.");
    expect(md(`<p>Call <code>odd(<br>$var)</code> first.</p>`)).toBe("Call `odd($var)` first.");
    expect(md(`<div><code>odd($var)</code></div>`)).toBe("`odd($var)`");
  });

  it("a button inside a code block (docsify's copy button in the <pre>) is no line of its code", () => {
    const copy = '<button class="docsify-copy-code-button"><span class="label">Copy to clipboard</span><span class="error">Error</span></button>';
    expect(md(`<pre data-lang="js"><code class="lang-js">editor.destroy()</code>${copy}</pre>`)).toBe("```js\neditor.destroy()\n```");
    expect(md(`<pre data-lang="js"><code class="lang-js">editor.destroy()</code><span class="label">Copy to clipboard</span></pre>`)).toBe("```js\neditor.destroy()Copy to clipboard\n```");
  });

  it("highlighter spans, <br> and per-line <div>s become plain lines; hidden line numbers are dropped", () => {
    expect(
      md('<pre><span class="k">let</span> a<br>b</pre><pre><div class="line"><span aria-hidden="true">1</span>one</div><div class="line">two</div></pre>'),
    ).toBe("```\nlet a\nb\n```\n\n```\none\ntwo\n```");
  });

  it("a fence longer than any backtick run in the code", () => {
    expect(md("<pre>echo ```\n````</pre>")).toBe("`````\necho ```\n````\n`````");
  });

  it("skips empty <pre>", () => {
    expect(md("<pre>  \n </pre><p>x</p>")).toBe("x");
  });
});

describe("html: tables", () => {
  it("th header row, escaped pipes, collapsed cell whitespace, <br> and block content as <br>", () => {
    expect(
      md("<table><thead><tr><th>Name</th><th>Note</th></tr></thead><tbody><tr><td> a | b </td><td>line<br>two</td></tr><tr><td>  spaced\n  out </td><td><p>p1</p><p>p2</p></td></tr></tbody></table>"),
    ).toBe("| Name | Note |\n| --- | --- |\n| a \\| b | line<br>two |\n| spaced out | p1<br>p2 |");
  });

  it("without th the first row is the header; colspan and ragged rows are padded", () => {
    expect(md('<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan="2">wide</td><td>z</td></tr><tr><td>short</td></tr></table>')).toBe(
      "| a | b | c |\n| --- | --- | --- |\n| wide |  | z |\n| short |  |  |",
    );
  });

  it("a cell spanning rows leaves its columns empty in the rows below, so their cells stay under their headers", () => {
    expect(
      md('<table><tr><th>Region</th><th>Quarter</th><th>Sales</th></tr><tr><td rowspan="2">North</td><td>Q1</td><td>10</td></tr><tr><td>Q2</td><td>12</td></tr><tr><td>South</td><td>Q1</td><td>7</td></tr></table>'),
    ).toBe("| Region | Quarter | Sales |\n| --- | --- | --- |\n| North | Q1 | 10 |\n|  | Q2 | 12 |\n| South | Q1 | 7 |");
    // Spans in the last column and over two columns; a span past the table's end stops at its last row. The row that
    // only spans cross is left with nothing in it, and out.
    expect(md('<table><tr><td>a</td><td>b</td><td rowspan="9">c</td></tr><tr><td colspan="2" rowspan="2">d</td></tr><tr></tr><tr><td>e</td><td>f</td></tr></table>')).toBe(
      "| a | b | c |\n| --- | --- | --- |\n| d |  |  |\n| e | f |  |",
    );
  });

  it("a table built of other elements with ARIA's roles (table, rowgroup, row, columnheader, cell) is a table; one row or one column is read as blocks", () => {
    const row = (role: string, a: string, b: string) => `<div role="row" class="flex"><div role="${role}" class="flex-1"><p>${a}</p></div><div role="${role}" class="flex-2"><p>${b}</p></div></div>`;
    const table = `<div role="table" class="w-full"><div role="rowgroup">${row("columnheader", "Event", "Sent when")}</div><div role="rowgroup">${row("cell", "<code>label.purchased</code>", "A label is bought.")}${row("cell", "<code>return.requested</code>", "A return starts.")}<div role="row" hidden><div role="cell">x</div><div role="cell">y</div></div></div></div>`;
    expect(md(table)).toBe("| Event | Sent when |\n| --- | --- |\n| `label.purchased` | A label is bought. |\n| `return.requested` | A return starts. |");
    expect(md(`<div role="table">${row("cell", "Only", "row")}</div>`)).toBe("Only\n\nrow");
    // A table in a cell: the outer one is read as blocks, the inner one as a table.
    const inner = `<div role="table">${row("cell", "a", "b")}${row("cell", "c", "d")}</div>`;
    expect(md(`<div role="table">${row("cell", "Outer", "x")}<div role="row"><div role="cell">${inner}</div><div role="cell">y</div></div></div>`)).toBe(
      "Outer\n\nx\n\n| a | b |\n| --- | --- |\n| c | d |\n\ny",
    );
  });

  it("a data table's cells keep what they hold, a link in a box of its own too (not judged as a box of links)", () => {
    const row = (name: string) =>
      `<tr><td><div class="path-cell"><div><span class="toggle"></span><a href="/pkg/${name}">${name}</a></div><div class="note">Since v1.2</div></div></td><td>Package ${name} does one thing well.</td></tr>`;
    const page = `<main><p>${"The module holds these packages, each documented apart. ".repeat(3)}</p><table><tr><th>Path</th><th>Synopsis</th></tr>${row("jitter")}${row("retryhttp")}</table></main>`;
    expect(md(page)).toContain("| Path | Synopsis |\n| --- | --- |\n| [jitter](https://example.test/pkg/jitter)<br>Since v1.2 | Package jitter does one thing well. |\n| [retryhttp](https://example.test/pkg/retryhttp)<br>Since v1.2 | Package retryhttp does one thing well. |");
  });

  it("columns keep the alignment their header cells give (align, or a style's text-align) in the delimiter row", () => {
    expect(md('<table><tr><th align="left">Product</th><th style="text-align: right;">Before</th><th align="CENTER">Note</th><th>Plain</th></tr><tr><td>Ride</td><td>2.00</td><td>new</td><td>x</td></tr></table>')).toBe(
      "| Product | Before | Note | Plain |\n| :--- | ---: | :---: | --- |\n| Ride | 2.00 | new | x |",
    );
    // A header spanning two columns aligns both.
    expect(md('<table><tr><th colspan="2" align="right">Fares</th><th>Plain</th></tr><tr><td>a</td><td>b</td><td>c</td></tr></table>')).toBe("| Fares |  | Plain |\n| ---: | ---: | --- |\n| a | b | c |");
  });

  it("a table named for where its caption goes (Bootstrap's and Tailwind's caption-top, caption-bottom) is a table, not a caption", () => {
    const page = (name: string) =>
      `<main><p>${"The fares changed in October. ".repeat(4)}</p><figure><figcaption>Table 1: Fares</figcaption><div><table class="${name} table"><thead><tr><th>Product</th><th>Before</th></tr></thead>` +
      `<tbody><tr><td>Single ride</td><td>€2.00</td></tr><tr><td>Day pass</td><td>€8.00</td></tr></tbody></table></div></figure></main>`;
    for (const name of ["caption-top", "caption-bottom"]) expect(md(page(name))).toContain("Table 1: Fares\n\n| Product | Before |\n| --- | --- |\n| Single ride | €2.00 |\n| Day pass | €8.00 |");
  });

  it("a row with nothing in any cell is left out; the first row stays as the columns' row", () => {
    // An infobox whose picture (no alt text) is left out, and spacer rows.
    const infobox = '<table><tr><th colspan="2">Rhine</th></tr><tr><td colspan="2"><img src="r.jpg"></td></tr><tr><th>Length</th><td>1,230 km</td></tr><tr><td>&nbsp;</td><td></td></tr><tr><th>Mouth</th><td>North Sea</td></tr></table>';
    expect(md(infobox)).toBe("| Rhine |  |\n| --- | --- |\n| Length | 1,230 km |\n| Mouth | North Sea |");
    expect(md('<table><tr><td></td><td></td></tr><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toBe("|  |  |\n| --- | --- |\n| a | b |\n| c | d |");
  });

  it("a row of cells spanning many empty rows adds empty cells up to the table's own number of cells, then rows keep their own", () => {
    // Six cells: the spans fill three rows' first two columns, then a row's cell is its first.
    const html = `<table><tr>${'<td rowspan="65534">x</td>'.repeat(2)}</tr>${`<tr><td>${"y"}</td></tr>`.repeat(4)}</table>`;
    expect(md(html)).toBe("| x | x |  |\n| --- | --- | --- |\n|  |  | y |\n|  |  | y |\n|  |  | y |\n| y |  |  |");
  });

  it("a button that is all a cell holds is the cell's text (a sortable column's header); a button beside text in a cell is a control", () => {
    const header = (name: string) => `<th><button type="button">${name}<span aria-hidden="true">▲</span></button></th>`;
    expect(md(`<table><thead><tr>${header("River")}<th><span><button>Length</button></span></th></tr></thead><tbody><tr><td>Volga</td><td>3,530 <button>Copy</button></td></tr><tr><td>Rhine</td><td>1,230</td></tr></tbody></table>`)).toBe(
      "| River | Length |\n| --- | --- |\n| Volga | 3,530 |\n| Rhine | 1,230 |",
    );
  });

  it("thead rows come first even when written after tbody; tfoot rows last", () => {
    expect(md("<table><tfoot><tr><td>sum</td><td>3</td></tr></tfoot><tbody><tr><td>x</td><td>1</td></tr></tbody><thead><tr><th>k</th><th>v</th></tr></thead></table>")).toBe(
      "| k | v |\n| --- | --- |\n| x | 1 |\n| sum | 3 |",
    );
  });

  it("captions precede the table; links and code work inside cells", () => {
    expect(md('<table><caption>Results</caption><tr><th>Tool</th><th>Cmd</th></tr><tr><td><a href="/t">T</a></td><td><code>a|b</code></td></tr></table>')).toBe(
      "Results\n\n| Tool | Cmd |\n| --- | --- |\n| [T](https://example.test/t) | `a\\|b` |",
    );
  });

  it("layout tables (one column, one row, role=presentation, or tables nested in cells) render their cells as blocks", () => {
    expect(md("<table><tr><td><h2>Menu-less</h2></td></tr><tr><td><p>Body</p></td></tr></table>")).toBe("## Menu-less\n\nBody");
    expect(md("<table><tr><td>Left</td><td><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>")).toBe(
      "Left\n\n| a | b |\n| --- | --- |\n| 1 | 2 |",
    );
    // A page's frame in one row (a spacer, a vote button, the text), and a grid the page says is for layout.
    expect(md('<table><tr><td><img src="s.gif" width="40" height="1"></td><td><a href="/vote"><div class="votearrow"></div></a></td><td><p>First</p><p>Second</p></td></tr></table>')).toBe(
      "First\n\nSecond",
    );
    expect(md('<table role="presentation"><tr><td>One</td><td>Two</td></tr><tr><td>Three</td><td>Four</td></tr></table>')).toBe("One\n\nTwo\n\nThree\n\nFour");
  });

  it("a small grid with a story in a cell, or text in one cell only, is a layout; short values, or header cells, make it data", () => {
    const story = "A story set in a column of the page's frame, long enough that no table cell would hold it as a value.";
    expect(md(`<table><tr><td></td><td>${story}</td><td></td></tr><tr><td></td><td>Its end, ${story}</td><td></td></tr></table>`)).toBe(`${story}\n\nIts end, ${story}`);
    expect(md('<table><tr><td><img src="a.jpg" alt="A"></td><td><img src="b.jpg" alt="B"></td></tr><tr><td></td><td>Only text</td></tr></table>')).toBe(
      "![A](https://example.test/docs/guide/a.jpg)\n\n![B](https://example.test/docs/guide/b.jpg)\n\nOnly text",
    );
    expect(md("<table><tr><td>Prep time</td><td>10 min</td></tr><tr><td>Serves</td><td>4</td></tr></table>")).toBe(
      "| Prep time | 10 min |\n| --- | --- |\n| Serves | 4 |",
    );
    expect(md(`<table><tr><th>Name</th><th>Note</th></tr><tr><td>A</td><td>${story}</td></tr></table>`)).toBe(`| Name | Note |\n| --- | --- |\n| A | ${story} |`);
    // Past ten cells a grid is data whatever its cells hold; a grid marked role=none is a layout whatever its size.
    const wide = `<tr><td>${story}</td><td>b</td><td>c</td><td>d</td></tr><tr><td>e</td><td>f</td><td>g</td><td>h</td></tr><tr><td>i</td><td>j</td><td>k</td><td>l</td></tr>`;
    expect(md(`<table>${wide}</table>`)).toBe(`| ${story} | b | c | d |\n| --- | --- | --- | --- |\n| e | f | g | h |\n| i | j | k | l |`);
    const laidOut = md(`<table role="none">${wide}</table>`);
    expect(laidOut.startsWith(`${story}\n\nb\n\nc\n\nd`)).toBe(true);
    expect(laidOut).not.toContain("|");
  });
});

describe("html: escaping Markdown syntax in text", () => {
  it("line starts that would become headings, quotes, lists, rules or fences", () => {
    expect(md("<p># not heading<br>&gt; not quote<br>- dash<br>+ plus<br>* star<br>1. one<br>2) two<br>---<br>===<br>~~~ tilde<br>#hashtag<br>2024 was a year</p>")).toBe(
      "\\# not heading  \n\\> not quote  \n\\- dash  \n\\+ plus  \n\\* star  \n1\\. one  \n2\\) two  \n\\---  \n\\===  \n\\~~~ tilde  \n#hashtag  \n2024 was a year",
    );
  });

  it("inline characters that would form syntax; harmless ones stay", () => {
    expect(md("<p>a*b `c` [d](e) _under_ snake_case &lt;div&gt; &amp;amp; AT&amp;T a &lt; b C:\\Users end\\</p>")).toBe(
      "a*b \\`c\\` [d\\](e) \\_under\\_ snake_case \\<div> \\&amp; AT&T a < b C:\\Users end\\\\",
    );
  });

  it("a lone * or _ and brackets that cannot form a link stay unescaped; pairs and link shapes do not", () => {
    expect(md("<p>Partner*innen [sic] [1] [2][3] x_</p><p>4*5*6 <a href='/a'>[a] *b*</a></p><p>[ref]: value</p>")).toBe(
      "Partner*innen [sic] [1] [2\\][3] x_\n\n4\\*5\\*6 [\\[a\\] \\*b\\*](https://example.test/a)\n\n\\[ref]: value",
    );
  });

  // Each of these took minutes on a megabyte before its reader was made linear: a pattern anchored at the text's end
  // (or a run joined to the rest of the text) at every emphasis run, a link pattern from every "[" to the text's end,
  // the rest of the paragraph read for every line that opens with "[".
  it("a megabyte paragraph of emphasis runs with punctuation around them renders as its pieces do, in time linear in it", () => {
    const unit = "<em>a</em>, (<strong>b</strong>) <em>c</em>";
    expect(md(`<p>${unit}</p>`)).toBe("*a,* **(b)** *c*");
    const many = md(`<p>${`${unit} `.repeat(30_000)}</p>`);
    expect(many).toBe(Array.from({ length: 30_000 }, () => "*a,* **(b)** *c*").join(" "));
  });

  it("alt text of one long run of underscores and a word describes its picture, read in time linear in it", () => {
    expect(md('<p>A picture <img src="/a.png" alt="IMG_2041"> and <img src="/b.png" alt="__ x"></p>')).toBe("A picture and ![\\_\\_ x](https://example.test/b.png)");
    const alt = `${"_".repeat(200_000)} x`;
    expect(md(`<p>A picture <img src="/b.png" alt="${alt}"></p>`)).toBe(`A picture ![${"\\_".repeat(200_000)} x](https://example.test/b.png)`);
  });

  it("a paragraph of many lines opening with '[' escapes only those that read as a link reference, in time linear in it", () => {
    expect(md("<p>[x<br>[ref]: value</p>")).toBe("[x  \n\\[ref]: value");
    const many = md(`<p>${"[x<br>".repeat(60_000)}[ref]: value</p>`);
    expect(many).toBe(`${Array.from({ length: 60_000 }, () => "[x").join("  \n")}  \n\\[ref]: value`);
  });

  it("a megabyte paragraph of escaped brackets renders as its pieces do, in time linear in it", () => {
    const unit = "\\*_[]() ";
    // Alone, "*" and "_" pair with nothing and stay; "]" before "(" would close a link.
    expect(md(`<p>${unit}</p>`)).toBe("\\\\*_[\\]()");
    const many = md(`<p>${unit.repeat(100_000)}</p>`);
    expect(many).toBe(`${"\\\\\\*\\_[\\]() ".repeat(100_000).trimEnd()}`);
  });

  it("a trailing # in a heading is escaped so it is not read as a closing sequence", () => {
    expect(md("<h2>Learn C#</h2><h2>Item #</h2>")).toBe("## Learn C#\n\n## Item \\#");
  });
});

describe("html: what is dropped", () => {
  it("a question of a line answered with two buttons of a few words (a help center's \"Was this article helpful?\") is left out; buttons of icons, of questions or before the text are not answers", () => {
    const text = "<p>Open the sign-in page and choose Forgot password, then follow the link in the email, which works for one hour.</p>";
    const asking = (question: string, answers: string[]) => `<div class="votes"><span>${question}</span><div>${answers.map((answer) => `<button type="button">${answer}</button>`).join("")}</div></div>`;
    const page = (box: string) => `<article><h1>Reset your password</h1>${text}<footer>${box}</footer></article>`;
    const kept = "# Reset your password\n\nOpen the sign-in page and choose Forgot password, then follow the link in the email, which works for one hour.";
    expect(md(page(asking("Was this article helpful?", ["Yes", "No"])))).toBe(kept);
    // The question may run to 200 characters with the answers' counts; one more, and it is a text with buttons.
    const question = (length: number) => `Was this article helpful? ${"x".repeat(length - 26)}`;
    expect(md(page(asking(question(200), ["Yes", "No"])))).toBe(kept);
    expect(md(page(asking(question(201), ["Yes", "No"])))).toContain("Was this article helpful?");
    // One answer, an answer of 21 characters, answers of icons with counts (a post's reply and like buttons).
    expect(md(page(asking("Was this article helpful?", ["Yes"])))).toContain("Was this article helpful?");
    expect(md(page(asking("Was this article helpful?", ["Yes", "No, it was not at all"])))).toContain("Was this article helpful?");
    expect(md(page(asking("Is there an arm64 image yet?", ["<i class=\"icon-reply\"></i>1", "<i class=\"icon-star\"></i>4"])))).toContain("Is there an arm64 image yet?");
    // Buttons before the text: a tab set's tabs over a panel that asks.
    expect(md(page('<div class="tabs"><button role="tab">npm</button><button role="tab">yarn</button><p>Which one? Either works.</p></div>'))).toContain("Which one? Either works.");
  });

  it("a box of links that opens with a subtitle (a heading of six words or more) keeps the subtitle; a label of five words over links goes with them", () => {
    const body = "<p>On a Friday in February, our order queue dropped about one message in two thousand, and nothing logged an error at all.</p><p>It took us four days, and three people, to find out why it happened.</p>";
    const byline = '<div class="bar"><a href="/@dana">Dana Wu</a> · <a href="/follow">Follow</a> · Published in <a href="/lumen">Engineering at Lumen</a> · 6 min read</div>';
    const page = (heading: string) => `<html><head><title>Why Our Queue Lost Messages</title></head><body><article><div><h1>Why Our Queue Lost Messages</h1></div><div>${heading}${byline}</div>${body}</article></body></html>`;
    const subtitled = md(page("<h2>A retry loop and a Friday deploy</h2>"));
    expect(subtitled).toMatch(/^## A retry loop and a Friday deploy\n\nOn a Friday/);
    expect(subtitled).not.toContain("Dana Wu");
    expect(md(page("<h2>A retry and a deploy</h2>"))).toMatch(/^On a Friday/);
    // A linked heading over links is a teaser's.
    expect(md(page('<h2>A retry loop and <a href="/deploys">a Friday deploy</a></h2>'))).toMatch(/^On a Friday/);
  });

  it("non-content elements", () => {
    expect(
      md(
        "<body><p>Keep</p><script>var x = '<p>no</p>';</script><style>p{}</style><noscript><p>Enable JS</p></noscript><template><p>T</p></template><svg><text>S</text></svg><canvas>C</canvas><iframe>I</iframe><object>O</object><video>V</video><audio>A</audio></body>",
      ),
    ).toBe("Keep");
  });

  it("a bar pinned to the window by a framework's class (Tailwind's fixed, Bootstrap's fixed-top, fixed-bottom) is left out; one around the headline stays", () => {
    const text = "This guide walks through the calls that bill a customer, with an example of each. ".repeat(3).trim();
    const article = `<div id="content-area"><header><h1>Create your first invoice</h1></header><div class="prose"><p>${text}</p></div></div>`;
    const bar = '<div class="fixed top-0 left-0 right-0 z-40"><div><p>Ledgerline version 2 is now generally available to every team. <a href="/v2">Read the migration guide</a></p></div><button type="button" aria-label="Dismiss">×</button></div>';
    const cookies = '<div class="fixed-bottom"><p>We use cookies to improve your experience, as our policy explains.</p></div>';
    expect(md(`<body><div class="relative antialiased">${bar}${article}</div>${cookies}</body>`)).toBe(text);
    expect(md(`<body><div class="fixed inset-0 overflow-y-auto">${article}</div></body>`)).toBe(text);
  });

  it("form controls, but not forms or labels", () => {
    expect(md('<form><label>Name</label> <input value="v"><button>Go</button><select><option>Opt</option></select><textarea>TA</textarea><p>In form</p></form>')).toBe(
      "Name\n\nIn form",
    );
  });

  it("hidden, aria-hidden, display:none and visibility:hidden elements, and closed dialogs", () => {
    expect(
      md('<p hidden>h</p><div aria-hidden="true">ah</div><div aria-hidden="false">shown</div><p style="color: red; DISPLAY : none">dn</p><p style="visibility:hidden">vh</p><dialog>closed</dialog><dialog open>open</dialog>'),
    ).toBe("shown\n\nopen");
  });

  it("text for screen readers only is left out, unless it is the spoken twin of short text shown only to sight beside it", () => {
    // WP Recipe Maker: the twin ends the number's span, the shown unit follows it; a rating's stars come before theirs.
    const time = (label: string, n: number, spoken: string, shown: string) =>
      `<div><span class="label">${label} </span><span class="time"><span class="details">${n}<span class="sr-only screen-reader-text"> ${spoken}</span></span> <span class="unit" aria-hidden="true">${shown}</span></span></div>`;
    expect(md(`${time("Prep Time", 15, "minutes", "mins")}${time("Total Time", 1, "hour", "hr")}<p><span aria-hidden="true">★★★★☆</span><span class="visually-hidden">Rated 4 out of 5</span></p>`)).toBe(
      "Prep Time 15 minutes\n\nTotal Time 1 hour\n\nRated 4 out of 5",
    );
    // Under a design system's prefix too (the NHS's, GOV.UK's); a name that only ends in the words is not one.
    expect(md('<p><span class="nhsuk-u-visually-hidden">Information: </span>Buy it at a pharmacy.</p><p><span class="govuk-visually-hidden">Warning</span>Ask first.</p><p><span class="notvisually-hidden">Kept</span></p>')).toBe(
      "Buy it at a pharmacy.\n\nAsk first.\n\nKept",
    );
    // Alone, beside an empty icon, or beside text shown to everyone or too long to be a twin, it is left out.
    const long = "a hidden block of more than a few words, which is no unit";
    expect(md(`<p>Skip <span class="sr-only">to content</span></p><p><i class="icon" aria-hidden="true"></i><span class="sr-only">Share</span> here</p><p><span>shown</span><span class="sr-only">twin</span></p><p>Long <span class="sr-only">twin</span><span aria-hidden="true">${long}</span></p>`)).toBe(
      "Skip\n\nhere\n\nshown\n\nLong",
    );
    // The twin shown to sight may follow it, and is 40 characters at most.
    const after = (shown: string) => md(`<p>Skip <span class="sr-only">to content</span></p><p>Rated <span class="sr-only">four of five</span><span aria-hidden="true">${shown}</span></p>`);
    expect(after("★".repeat(40))).toBe("Skip\n\nRated four of five");
    expect(after("★".repeat(41))).toBe("Skip\n\nRated");
  });

  it("an aside named as an infobox is the article's box of facts: kept, its group titles in bold and each fact on a line of its own", () => {
    const prose = "A paragraph of the article, long enough to be read as prose, with a comma, and another one.";
    const fact = (label: string, value: string) => `<div class="pi-item pi-data"><h3 class="pi-data-label">${label}</h3><div class="pi-data-value">${value}</div></div>`;
    const box = (name: string) =>
      `<aside class="${name}"><h2 class="pi-title">Ilsabet Morrow</h2><section class="pi-group"><h2 class="pi-header">Biographical information</h2>` +
      `${fact("Born", '3E 412, <a href="/wiki/Saltreach">Saltreach</a>')}${fact("Family:", "Aldric Morrow (father)<br>Wenna Morrow (sister)")}${fact("Joined", "March 3, 2014")}</section></aside>`;
    const page = (name: string) => `<body><main><h1>Ilsabet Morrow</h1>${box(name)}<p>${prose}</p><h2>Biography</h2><p>${prose}</p></main></body>`;
    // Its values are kept as they are: a link, a line break, a date that elsewhere reads as a dateline.
    expect(md(page("portable-infobox pi-theme-wardens"))).toBe(
      `# Ilsabet Morrow\n\n**Ilsabet Morrow**\n\n**Biographical information**\n\n**Born:** 3E 412, [Saltreach](https://example.test/wiki/Saltreach)\n\n**Family:** Aldric Morrow (father)  \nWenna Morrow (sister)\n\n**Joined:** March 3, 2014\n\n${prose}\n\n## Biography\n\n${prose}`,
    );
    // Another aside beside the text is left out.
    expect(md(page("pi-theme-wardens"))).toBe(`# Ilsabet Morrow\n\n${prose}\n\n## Biography\n\n${prose}`);
  });

  it("a wiki's edit links beside its section headings are left out, the headings kept (MediaWiki's mw-editsection)", () => {
    const prose = "A paragraph of the article, long enough to be read as prose, with a comma, and another one.";
    const edit = (section: number) => `<span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?action=edit&amp;section=${section}">edit</a><span class="mw-editsection-bracket">]</span></span>`;
    expect(
      md(`<body><main><h1>Tent</h1><p>${prose}</p><div class="mw-heading mw-heading2"><h2 id="Use">Use</h2>${edit(1)}</div><p>${prose}</p><h2><span class="mw-headline">Old markup</span>${edit(2)}</h2><p>${prose}</p></main></body>`),
    ).toBe(`# Tent\n\n${prose}\n\n## Use\n\n${prose}\n\n## Old markup\n\n${prose}`);
  });

  it("a web component's declarative shadow root is read as a browser shows it, its slots filled", () => {
    expect(
      md('<article-card><template shadowrootmode="open"><h2><slot name="title"></slot></h2><slot></slot><p>Own text</p></template><span slot="title">Headline</span><p>Light text</p></article-card>'),
    ).toBe("## Headline\n\nLight text\n\nOwn text");
  });

  it("a tab widget's panels are all read, the ones it does not show too, however it hides them", () => {
    expect(
      md('<div role="tablist"><button role="tab">npm</button><button role="tab">Yarn</button></div><div role="tabpanel"><p>npm install a</p></div><div role="tabpanel" hidden><p>yarn add a</p></div><div role="tabpanel" aria-hidden="true" style="display: none"><p>pnpm add a</p></div>'),
    ).toBe("**npm**\n\nnpm install a\n\n**Yarn**\n\nyarn add a\n\npnpm add a");
  });

  it("each tab panel is written under its tab's name, found by aria-labelledby, aria-controls or order; the tab list is not written", () => {
    const tablist = '<ul class="nav nav-tabs" role="tablist"><li role="presentation"><button id="mac-tab" role="tab" aria-controls="mac">macOS</button></li><li role="presentation"><button id="win-tab" role="tab" aria-controls="win"><b>Windows</b> 11</button></li><li><a role="tab" href="#linux">Linux</a></li></ul>';
    // Out of the tabs' order: the names follow the panels, by either attribute, then by the first in order not used.
    expect(md(`${tablist}<div class="tab-content"><div role="tabpanel" aria-labelledby="x win-tab"><p>Run the installer.</p></div><div role="tabpanel" id="mac"><p>Use Homebrew.</p></div><div role="tabpanel"><p>Use apt.</p></div></div>`)).toBe(
      "**Windows 11**\n\nRun the installer.\n\n**macOS**\n\nUse Homebrew.\n\n**Linux**\n\nUse apt.",
    );
    // MUI wraps the list twice, its panels standing after the wrapper; a name on two lines is written on one.
    expect(md('<div class="tabs"><div class="scroller"><div role="tablist"><button role="tab">One</button><button role="tab">Tab<br>two</button></div></div></div><div role="tabpanel"><p>First.</p></div><div role="tabpanel"><p>Second.</p></div>')).toBe(
      "**One**\n\nFirst.\n\n**Tab two**\n\nSecond.",
    );
  });

  it("a tab panel rendered only when chosen (Headless UI's), empty here, is left out with its tab's name", () => {
    expect(
      md('<div role="tablist"><button role="tab">npm</button><button role="tab">pnpm</button><button role="tab"><svg></svg></button><button role="tab">yarn</button></div><div role="tabpanel"><pre><code>npm i a</code></pre></div><div role="tabpanel" hidden></div><div role="tabpanel"><p>By icon.</p></div><div role="tabpanel" hidden> </div>'),
    ).toBe("**npm**\n\n```\nnpm i a\n```\n\nBy icon.");
    // A tab without a name over an empty panel takes nothing written before it, a paragraph or a line not yet ended.
    expect(md('<p>Before.</p><div role="tablist"><span role="tab"><svg></svg></span></div><div role="tabpanel"></div>')).toBe("Before.");
    expect(md('<div role="tablist"><span role="tab"><svg></svg></span></div><div>Lead line<div role="tabpanel"></div></div>')).toBe("Lead line");
  });

  it("a tab widget named as a list (Docusaurus' tabList) is the text of its panels, found among its first four elements", () => {
    const prose = "<p>The client caches each response for as long as its headers allow, and serves it again.</p>".repeat(2);
    const panels = '<div><div role="tabpanel"><pre><code>npm install cache</code></pre></div><div role="tabpanel" hidden><pre><code>yarn add cache</code></pre></div></div>';
    const page = (lead: string) => `<main><article><h1>Install</h1>${prose}<div class="tabs-container tabList__CuJ">${lead}<ul role="tablist"><li role="tab">npm</li><li role="tab">Yarn</li></ul>${panels}</div>${prose}</article></main>`;
    const written = "**npm**\n\n```\nnpm install cache\n```\n\n**Yarn**\n\n```\nyarn add cache\n```";
    expect(md(page("<span></span>".repeat(3)))).toContain(written);
    // A tab list past the first four elements is not the box's own: a box named as a list, with little prose, goes.
    expect(md(page("<span></span>".repeat(4)))).not.toContain("npm install");
  });

  it("each answer of a question-and-answer page (schema.org) is set apart by a thematic break, but not at the start", () => {
    const answer = (n: number, how: string) => `<div ${how} itemscope itemtype="https://schema.org/Answer"><div itemprop="text"><p>Answer ${n}.</p></div></div>`;
    expect(md(`<div itemscope itemtype="https://schema.org/Question"><p>The question?</p></div>${answer(1, 'itemprop="acceptedAnswer"')}${answer(2, 'itemprop="suggestedAnswer"')}`)).toBe(
      "The question?\n\n---\n\n**Accepted answer**\n\nAnswer 1.\n\n---\n\nAnswer 2.",
    );
    expect(md('<div itemprop="suggestedAnswer"><p>Only an answer.</p></div><div itemprop="suggestedAnswer"><p>Another.</p></div>')).toBe("Only an answer.\n\n---\n\nAnother.");
  });

  it("an answer opens with its score and whether it was accepted, where the page shows them as a bare number beside it", () => {
    const answer = (how: string, votes: string, comment = "") =>
      `<div ${how} itemscope itemtype="https://schema.org/Answer"><div class="votecell">${votes}</div><div itemprop="text"><p>The answer.</p></div>${comment}</div>`;
    const question = '<div itemscope itemtype="https://schema.org/Question"><p>The question?</p></div>';
    expect(md(question + answer('itemprop="acceptedAnswer"', '<div itemprop="upvoteCount" data-value="3528">3.5k</div>') + answer('itemprop="suggestedAnswer"', '<span itemprop="upvoteCount">1</span>'))).toBe(
      "The question?\n\n---\n\n**Accepted answer** (3528 votes)\n\nThe answer.\n\n---\n\n**Answer** (1 vote)\n\nThe answer.",
    );
    // A meta's content; a count that is no number says nothing; a nested item's votes are its own.
    expect(md(question + answer('itemprop="suggestedAnswer"', '<meta itemprop="upvoteCount" content="-2">'))).toBe("The question?\n\n---\n\n**Answer** (-2 votes)\n\nThe answer.");
    expect(md(question + answer('itemprop="suggestedAnswer"', '<span itemprop="upvoteCount">many</span>'))).toBe("The question?\n\n---\n\nmany\n\nThe answer.");
    expect(md(question + answer('itemprop="suggestedAnswer"', '<span itemprop="upvoteCount">x12</span>'))).toBe("The question?\n\n---\n\nx12\n\nThe answer.");
    expect(md(question + answer('itemprop="suggestedAnswer"', '<span itemprop="upvoteCount">−1</span>'))).toBe("The question?\n\n---\n\n**Answer** (−1 vote)\n\nThe answer.");
    const comment = '<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="upvoteCount">7</span> <span itemprop="text">Thanks.</span></div>';
    expect(md(question + answer('itemprop="suggestedAnswer"', "", comment))).toBe("The question?\n\n---\n\nThe answer.");
  });

  it("a tab names one panel: panels sharing its id are not each written under it", () => {
    const panels = Array.from({ length: 1000 }, (_, n) => `<div role="tabpanel" id="p"><p>x${n}</p></div>`).join("");
    const content = md(`<div role="tablist"><span role="tab" aria-controls="p">${"Long name ".repeat(100)}</span></div><div>${panels}</div>`);
    expect(content.split("**Long name").length - 1).toBe(1);
    expect(content).toContain("x0\n\nx1\n\n");
    expect(content).toContain("x999");
  });

  it("tabs made of radio buttons and labels name their panels in order (MkDocs Material, VitePress); other labelled radio buttons stay", () => {
    const mkdocs = '<div class="tabbed-set"><input checked id="t1" name="g" type="radio"><input id="t2" name="g" type="radio"><div class="tabbed-labels"><label for="t1">pip</label><label for="t2">conda</label></div><div class="tabbed-content"><div class="tabbed-block"><p>pip install a</p></div><div class="tabbed-block"><p>conda install a</p></div></div></div>';
    expect(md(mkdocs)).toBe("**pip**\n\npip install a\n\n**conda**\n\nconda install a");
    const vitepress = '<div class="vp-code-group"><div class="tabs"><input type="radio" name="group-1" id="tab-a" checked><label for="tab-a">npm</label><input type="radio" name="group-1" id="tab-b"><label for="tab-b">pnpm</label></div><div class="blocks"><div><p>npm add a</p></div><div><p>pnpm add a</p></div></div></div>';
    expect(md(vitepress)).toBe("**npm**\n\nnpm add a\n\n**pnpm**\n\npnpm add a");
    // A poll: its choices are not followed by panels of one kind; a form's text box is no tab.
    expect(md('<form><div><input type="radio" name="v" id="y"><label for="y">Yes</label><input type="radio" name="v" id="n"><label for="n">No</label></div><div><p>Results</p><span>after voting</span></div></form>')).toContain("YesNo");
    expect(md('<div><div><label for="q">Search</label><label for="r">Where</label><input id="q" type="text"><input id="r" type="text"></div><div><p>one</p><p>two</p></div></div>')).toBe("Search Where\n\none\n\ntwo");
  });

  it("panels name their tabs only within reach: three levels up from the tab list, among the first four children of the element after it", () => {
    const tabs = '<div role="tablist"><span role="tab">One</span> <span role="tab">Two</span></div>';
    const panels = '<div role="tabpanel"><p>First.</p></div><div role="tabpanel"><p>Second.</p></div>';
    // Panels after the fourth element around the list (three wrappers up), or after four other children, are not the list's.
    expect(md(`<div><div><div>${tabs}</div></div></div>${panels}`)).toBe("One Two\n\nFirst.\n\nSecond.");
    expect(md(`${tabs}<div><p>a</p><p>b</p><p>c</p><p>d</p>${panels}</div>`)).toBe("One Two\n\na\n\nb\n\nc\n\nd\n\nFirst.\n\nSecond.");
    expect(md(`${tabs}<div><p>a</p><p>b</p><p>c</p>${panels}</div>`)).toBe("a\n\nb\n\nc\n\n**One**\n\nFirst.\n\n**Two**\n\nSecond.");
  });

  it("a tab widget inside a panel names its own panels; tabs with no panels after them are a list of links, written as one", () => {
    const inner = '<div role="tablist"><span role="tab">A</span><span role="tab">B</span></div><div role="tabpanel"><p>a</p></div><div role="tabpanel"><p>b</p></div>';
    expect(md(`<div role="tablist"><span role="tab">Outer 1</span><span role="tab">Outer 2</span></div><div role="tabpanel">${inner}</div><div role="tabpanel"><p>o2</p></div>`)).toBe(
      "**Outer 1**\n\n**A**\n\na\n\n**B**\n\nb\n\n**Outer 2**\n\no2",
    );
    expect(md('<ul role="tablist"><li><a role="tab" href="/news">News</a></li><li><a role="tab" href="/sport">Sport</a></li></ul><p>The page has no panels.</p>')).toBe(
      "- [News](https://example.test/news)\n- [Sport](https://example.test/sport)\n\nThe page has no panels.",
    );
  });

  it('hidden="until-found" is collapsed content a reader opens, not hidden', () => {
    expect(md('<h2>Question</h2><div hidden="until-found"><p>Answer</p></div><div hidden=" Until-Found "><p>Second</p></div><p hidden="hidden">h</p><p hidden="">e</p>')).toBe(
      "## Question\n\nAnswer\n\nSecond",
    );
  });

  it("elements hidden by a framework's class name (hidden, hide, d-none, is-hidden), unless shown again from a screen width on", () => {
    expect(
      md('<div class="article hidden"><p>Copy</p></div><p class="hide">h</p><p class="Print d-none">dn</p><section class="print is-hidden">ih</section><p class="hidden-xs">xs</p><p class="d-none d-lg-block">wide</p><p class="hidden xl:flex">flex</p><p class="note visible-md hidden">md</p><p class="unhidden">shown</p>'),
    ).toBe("xs\n\nwide\n\nflex\n\nmd\n\nshown");
    // A disclosure so named says what it hides until opened (MyST-NB's code cell behind "Show code cell source").
    expect(md('<p>Before.</p><details class="hide above-input"><summary>Show source</summary><pre><code class="language-python">x = 1</code></pre></details><div class="hide"><p>Gone.</p></div>')).toBe(
      "Before.\n\nShow source\n\n```python\nx = 1\n```",
    );
  });

  it("nav, aside, search, page-level header and footer, and furniture ARIA roles", () => {
    expect(
      md('<body><header><h1>Site</h1></header><nav><a href="/">Home</a></nav><search><p>Find</p></search><div role="search">Search</div><div role="navigation">Nav</div><div role="banner">Banner</div><div role="complementary">Compl</div><p>Content</p><aside>Aside</aside><footer>Copyright</footer><div role="contentinfo">Info</div></body>'),
    ).toBe("Content");
  });

  it("keeps header and footer that belong to a section", () => {
    expect(md("<body><section><header><h2>Sec</h2></header><p>Body</p><footer>Sec footer</footer></section></body>")).toBe("## Sec\n\nBody\n\nSec footer");
  });

  it("class and id names that mark cookie banners, share bars, ads, comments, sidebars, breadcrumbs and menus", () => {
    expect(
      md(
        '<body><div class="cookie-banner">Accept</div><div id="gdpr-consent">Consent</div><div class="share_bar">Share</div><div class="socialShare">Social</div><div class="ad">Ad</div><div class="ad-slot">Slot</div><div id="comments">Comments</div><div class="sidebar">Side</div><ol class="breadcrumb"><li>Home</li></ol><ul class="main-menu"><li>Menu</li></ul><div class="header">Head-ish</div><div class="shadow loaded">Kept</div><p class="lead">Lead</p></body>',
      ),
    ).toBe("Head-ish\n\nKept\n\nLead");
  });

  it("table cells are never dropped for class names, so columns stay aligned", () => {
    expect(md('<table><tr><th>k</th><th class="comment">v</th></tr><tr><td class="ad">x</td><td>1</td></tr></table>')).toBe(
      "| k | v |\n| --- | --- |\n| x | 1 |",
    );
  });

  it("state and taxonomy classes (has-sidebar, tag-ads) do not drop the element", () => {
    expect(md('<body><div class="wrapper has-sidebar"><article class="post tag-ads category-social"><p>Story</p></article></div></body>')).toBe("Story");
  });

  it("a class name with a letter that grows when lower-cased (İ) is still read word by word", () => {
    expect(md('<body><div class="İlan-sidebar">Side</div><div class="haberİçerik sidebarBox">Box</div><p>Kept</p></body>')).toBe("Kept");
  });

  it("a link in a sentence keeps its words whatever its names (an annotation popup); a share button beside a byline still goes", () => {
    expect(
      md(`<body><article><p>I am a man who has been filled with the conviction that <a href="javascript:void(0);" class="popup">the easiest way of life is the best</a>. Hence I keep to it.</p>
        <p class="posted">Posted by Ann <a href="https://x.test/share" class="twitter-share-button">Tweet</a></p></article></body>`),
    ).toBe("I am a man who has been filled with the conviction that the easiest way of life is the best. Hence I keep to it.\n\nPosted by Ann");
  });

  it("a page-wide wrapper with a furniture-like name (menu-open) is kept; furniture inside it still goes", () => {
    expect(md('<body><div class="page menu-open"><p>All content</p><div class="sidebar">Side</div></div><nav>Nav</nav></body>')).toBe("All content");
  });
});

describe("html: main content", () => {
  it("prefers <main>", () => {
    expect(md("<body><div>Outside</div><main><h1>Title</h1><header>Main header</header><p>Inside</p></main><div>After</div></body>")).toBe(
      "# Title\n\nMain header\n\nInside",
    );
  });

  it("prefers [role=main]", () => {
    expect(md('<body><p>Outside</p><div role="main"><p>Inside</p></div></body>')).toBe("Inside");
  });

  it("prefers a single <article>, keeping its own header and footer", () => {
    expect(md("<body><p>Promo</p><article><header><h1>Post</h1></header><p>Body</p><footer>By Ann</footer></article></body>")).toBe(
      "# Post\n\nBody\n\nBy Ann",
    );
  });

  it("articles in an aside (related posts) do not compete with the main article", () => {
    expect(md("<body><p>Promo</p><article><p>Main story</p></article><aside><article><p>Related</p></article></aside></body>")).toBe("Main story");
  });

  it("several articles are a listing: the body is used", () => {
    expect(md("<body><h1>Blog</h1><article><p>One</p></article><article><p>Two</p></article></body>")).toBe("# Blog\n\nOne\n\nTwo");
  });

  it("ignores a hidden <main> and falls back to the body when <main> renders nothing", () => {
    expect(md('<body><main hidden><p>Old</p></main><p>Visible</p></body>')).toBe("Visible");
    expect(md('<body><main><div id="app"></div></main><p>Server text</p></body>')).toBe("Server text");
  });

  it("works on fragments without <html> or <body>", () => {
    expect(md("Just <b>text</b>")).toBe("Just **text**");
  });
});

describe("html: title and metadata", () => {
  const head = `<!doctype html><html lang="en-GB"><head>
    <title> The   Title </title>
    <meta name="description" content=" A page. ">
    <meta property="og:site_name" content="Example Site">
    <meta name="author" content="Ann Author">
    <meta property="article:published_time" content="2024-05-01T10:00:00Z">
    <link rel="alternate canonical" href="/canonical/page">
  </head><body><p>x</p></body></html>`;

  it("reads every key it finds", () => {
    const out = extract(head);
    expect(out.title).toBe("The Title");
    expect(out.metadata).toEqual({
      description: "A page.",
      siteName: "Example Site",
      author: "Ann Author",
      publishedTime: "2024-05-01T10:00:00Z",
      language: "en-GB",
      canonical: "https://example.test/canonical/page",
    });
  });

  it("falls back to og:description and JSON-LD (author via @id reference, datePublished)", () => {
    const out = extract(`<head><meta property="og:description" content="OG desc">
      <script type="application/ld+json">{ broken</script>
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"Person","@id":"#ann","name":"Ann"},
        {"@type":"BlogPosting","headline":"H","author":{"@id":"#ann"},"datePublished":"2023-02-03"}]}</script>
      </head><body><p>x</p></body>`);
    expect(out.metadata).toEqual({ description: "OG desc", author: "Ann", publishedTime: "2023-02-03" });
  });

  it("has no metadata when the page declares none", () => {
    expect(extract("<p>x</p>")).toEqual({ content: "x", signals: { bodyTextChars: 1, scriptTags: 0 } });
  });

  it("title falls back to og:title, then the first <h1>; an <svg> <title> is not the page title", () => {
    expect(extract('<head><meta property="og:title" content="OG Title"></head><body><h1>H</h1></body>').title).toBe("OG Title");
    expect(extract("<body><svg><title>Icon</title></svg><h1>First <em>H1</em></h1><h1>Second</h1></body>").title).toBe("First H1");
  });
});

describe("html: the headline", () => {
  const headline = (body: string) => {
    const info = readPageInfo(parseHtml(`<html><head><title>Quotation of the day « My Blog</title></head><body>${body}</body></html>`), "https://blog.test/q");
    return info.headline && { tag: info.headline.name, text: textContent(info.headline), repeats: info.headlineRepeatsTitle };
  };

  it("is the <h1> that repeats the title, else an <h2> or <h3> that reads as the whole title (a post's title under the blog's name), else the first <h1>", () => {
    expect(headline("<h2>My Blog</h2><h2>Archives</h2><h2>Quotation of the day</h2>")).toEqual({ tag: "h2", text: "Quotation of the day", repeats: true });
    expect(headline('<h1><a href="/"><img src="/logo.png" alt=""></a></h1><h3>Quotation of the day</h3>')).toEqual({ tag: "h3", text: "Quotation of the day", repeats: true });
    expect(headline("<h3>Quotation of the day</h3><h1>Quotation of the day</h1>")).toEqual({ tag: "h1", text: "Quotation of the day", repeats: true });
    expect(headline("<h1>Welcome</h1><h2>Archives</h2><h2 hidden>Quotation of the day</h2>")).toEqual({ tag: "h1", text: "Welcome", repeats: false });
  });

  it("is no heading longer than a title's line: one left open holds the page, and nested ones would each be read whole", () => {
    const open = `<h1>Quotation of the day <i>${"quotation of the day ".repeat(60)}</i></h1>`;
    expect(headline(`${open}<h2>Quotation of the day</h2>`)).toEqual({ tag: "h2", text: "Quotation of the day", repeats: true });
    // Under the 1,000 characters a title line may have, the same heading repeats the title.
    expect(headline(`<h1>Quotation of the day <i>${"quotation of the day ".repeat(40)}</i></h1>`)).toMatchObject({ tag: "h1", repeats: true });
  });
});

describe("html: signals", () => {
  it("counts every <script> and the visible body text with whitespace collapsed", () => {
    const out = extract(`<html><head><script src="a.js"></script><script type="application/ld+json">{}</script><title>Long title text</title></head>
      <body>
        <p>  Hello   world  </p>
        <div hidden>hidden text</div><noscript>enable</noscript><style>p{}</style>
        <script>render()</script>
        <nav>Menu</nav>
      </body></html>`);
    // "Hello world Menu": navigation is visible text too; only hidden and non-rendered elements are excluded.
    expect(out.signals).toEqual({ bodyTextChars: 16, scriptTags: 3 });
  });

  it("a script-rendered shell has almost no body text, and an empty app root", () => {
    expect(extract('<html><body><div id="root"></div><script src="/app.js"></script></body></html>').signals).toEqual({
      bodyTextChars: 0,
      scriptTags: 1,
      emptyAppRoot: true,
    });
  });

  it("counts shown text up to 10,000 characters, and still sees text in an app root that comes after them", () => {
    const long = `<p>${"word ".repeat(3_000)}</p>`;
    expect(extract(`<html><body>${long}<div id="app"></div></body></html>`).signals).toEqual({ bodyTextChars: 10_000, scriptTags: 0, emptyAppRoot: true });
    expect(extract(`<html><body>${long}<div id="app"><p>Filled on the server.</p></div></body></html>`).signals).toEqual({ bodyTextChars: 10_000, scriptTags: 0 });
  });

  it("finds an empty mount point of any common framework, and not one the server filled", () => {
    const root = (html: string) => extract(`<html><body><header>Site name and menu</header>${html}<script src="/app.js"></script></body></html>`).signals?.emptyAppRoot;
    for (const empty of ['<div id="app"><div class="spinner"></div></div>', '<div id="__next"></div>', '<div id="__nuxt"> </div>', "<app-root></app-root>", "<div data-reactroot></div>", '<div id="___gatsby"><!-- --></div>']) {
      expect(root(empty), empty).toBe(true);
    }
    for (const filled of ['<div id="root"><article><p>Rendered on the server.</p></article></div>', '<div id="application"></div>', '<div class="root"></div>', '<div id="app" hidden></div>']) {
      expect(root(filled), filled).toBeUndefined();
    }
  });

  it("finds a <noscript> asking for JavaScript, not one holding a fallback image or other words", () => {
    const asks = (noscript: string) => extract(`<html><body><p>Shell</p><noscript>${noscript}</noscript></body></html>`).signals?.noscriptAsksForScript;
    for (const text of ["You need to enable JavaScript to run this app.", "This site requires JavaScript.", "JavaScript is disabled in your browser.", "<p>Please turn on <b>JavaScript</b> and reload.</p>", "JavaScript must be enabled"]) {
      expect(asks(text), text).toBe(true);
    }
    for (const text of ['<img src="/pixel.gif" alt="">', "Your browser does not support frames.", "<style>.js-only{display:none}</style>", "Learn JavaScript in our course. Enable notifications below."]) {
      expect(asks(text), text).toBeUndefined();
    }
  });
});

describe("html: robustness", () => {
  it("caps hostile nesting instead of failing, and keeps the text", () => {
    const html = "<div>".repeat(5000) + "deep text" + "</div>".repeat(5000) + "<ul><li>".repeat(40) + "item";
    const out = md(html);
    expect(out.startsWith("deep text\n\n- ")).toBe(true);
    expect(out.endsWith("item")).toBe(true);
  });

  it("tolerates unclosed and stray tags", () => {
    expect(md("<p>one<p>two</span></div><li>three")).toBe("one\n\ntwo\n\nthree");
  });
});
