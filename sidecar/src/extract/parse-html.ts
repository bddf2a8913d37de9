import { Document, Element, ProcessingInstruction, Text } from "domhandler";
import { decodeHTML, decodeHTMLAttribute } from "entities/decode";
import { composeShadowRoot } from "./compose-shadow-root.ts";
import { isElement, textContent, walk } from "./dom.ts";

/**
 * Elements nested deeper than this are not opened; their content joins the deepest open element (browsers cap
 * nesting the same way). It bounds the open-element stack each end tag searches and the recursion depth of everything
 * that walks the tree.
 */
export const MAX_NESTING = 256;

const SPACE = 0x20;
const BANG = 0x21;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const DASH = 0x2d;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;

const isSpace = (c: number): boolean => c === SPACE || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
/** What ends a tag's name or an attribute's name (NaN, past the end, ends nothing). */
const endsName = (c: number): boolean => c === SLASH || c === GT || isSpace(c);
const isAsciiLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** Elements whose text is not markup up to their end tag: raw (scripts, styles) or with references decoded (RCDATA). */
const RAW = 1;
const RCDATA = 2;
/** <plaintext>: everything after it is its text. */
const PLAINTEXT = 3;
const TEXT_ONLY = new Map([
  ["script", RAW],
  ["style", RAW],
  ["iframe", RAW],
  ["noembed", RAW],
  ["noframes", RAW],
  ["xmp", RAW],
  ["title", RCDATA],
  ["textarea", RCDATA],
  ["plaintext", PLAINTEXT],
]);

const VOID = new Set(["area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img", "input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"]);

/** What an opening tag closes when it finds it open (innermost first, as long as it finds one). */
const CLOSED_BY = new Map<string, ReadonlySet<string>>();
const closes = (opening: string[], closed: string[]): void => {
  const set = new Set(closed);
  for (const name of opening) CLOSED_BY.set(name, set);
};
closes(["tr"], ["tr", "th", "td"]);
closes(["th"], ["th"]);
closes(["td"], ["thead", "th", "td"]);
closes(["body"], ["head", "link", "script"]);
closes(["a"], ["a"]);
closes(["li"], ["li"]);
closes(["h1", "h2", "h3", "h4", "h5", "h6"], ["h1", "h2", "h3", "h4", "h5", "h6", "p"]);
closes(["select", "input", "output", "button", "datalist", "textarea"], ["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
closes(["option"], ["option"]);
closes(["optgroup"], ["optgroup", "option"]);
closes(["dd", "dt"], ["dd", "dt"]);
closes(["rt", "rp"], ["rt", "rp"]);
closes(["tbody", "tfoot"], ["thead", "tbody"]);
closes(
  ["p", "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "main", "nav", "ol", "pre", "section", "table", "ul"],
  ["p"],
);

/** Inside <svg> and <math> the markup is XML-like: a self-closing tag closes, script and style text is markup. */
const HTML_CONTEXT = 0;
const SVG_CONTEXT = 1;
const MATH_CONTEXT = 2;
/** Elements inside foreign content whose content is HTML again. */
const INTEGRATION_POINTS = new Set(["mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignObject", "desc", "title"]);
/** SVG's camel-cased element names, written in any case. */
const SVG_NAMES = new Map(
  [
    "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform", "clipPath", "feBlend", "feColorMatrix",
    "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood",
    "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight",
    "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence", "foreignObject", "glyphRef", "linearGradient", "radialGradient", "textPath",
  ].map((name) => [name.toLowerCase(), name]),
);

/**
 * What may stand in <head> and after it without starting the body (HTML's "in head" and "after head" insertion
 * modes); a <noscript> may stand in the head, but one after it starts the body.
 */
const HEAD_CONTENT = new Set(["base", "basefont", "bgsound", "link", "meta", "title", "noframes", "style", "script", "template"]);
const OUTSIDE_BODY = new Set(["html", "head", "body", "frameset", "frame"]);
/** The tags of a document's frame, which a browser reads once. */
const DOCUMENT_TAGS = new Set(["html", "head", "body"]);

/**
 * What may host a shadow root: a custom element (a name with a hyphen, other than SVG's and MathML's hyphenated names)
 * or one of these (the DOM standard's attachShadow).
 */
const SHADOW_HOSTS = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span"]);
const HYPHENATED_NAMES = new Set(["annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri", "font-face-format", "font-face-name", "missing-glyph"]);
const canHostShadow = (name: string): boolean => SHADOW_HOSTS.has(name) || (name.includes("-") && !HYPHENATED_NAMES.has(name));
const SHADOW_ROOT_MODE = /^(?:open|closed)$/i;

const COMMENT_END = /--!?>/g;

/** Text or an attribute value with its references decoded; most hold none. */
const decoded = (written: string, decode: (text: string) => string): string => (written.includes("&") ? decode(written) : written);

/** A tag's attributes: a map without a prototype, so no attribute name reaches one. */
const noAttributes = (): Record<string, string> => Object.create(null) as Record<string, string>;

/**
 * Builds the tree as it reads: one pass over the markup that finds each `<` with indexOf and reads tags with
 * character loops, where htmlparser2's tokenizer steps a state machine through every character and hands each token
 * to its parser and then to a DOM handler. Measured on the four development corpora: see parseHtml.
 */
class HtmlTreeBuilder {
  readonly document = new Document([]);
  /** Open elements, innermost last. */
  private readonly open: Element[] = [];
  /** Foreign content (svg, math) and the HTML integration points inside it, innermost last. */
  private readonly contexts: number[] = [HTML_CONTEXT];
  /** The text node that text read next joins, until an element, a comment or an end tag comes between. */
  private lastText: Text | null = null;
  private headSeen = false;
  private bodySeen = false;
  /** Declarative shadow roots: each host with the template that holds its shadow tree, in document order. */
  private readonly shadowRoots = new Map<Element, Element>();

  private readonly markup: string;

  constructor(markup: string) {
    this.markup = markup;
  }

  parse(): void {
    const s = this.markup;
    const end = s.length;
    let textStart = 0;
    let at = s.indexOf("<");
    while (at !== -1 && at + 1 < end) {
      const c = s.charCodeAt(at + 1);
      let next: number;
      if (isAsciiLetter(c)) {
        this.text(textStart, at, false);
        next = this.startTag(at + 1);
      } else if (c === SLASH) {
        if (at + 2 >= end) break;
        this.text(textStart, at, false);
        next = this.endTag(at + 2);
      } else if (c === BANG) {
        this.text(textStart, at, false);
        next = this.declaration(at + 2);
      } else if (c === QUESTION) {
        this.text(textStart, at, false);
        next = this.bogusComment(at + 2);
      } else {
        // A `<` that opens nothing is text.
        at = s.indexOf("<", at + 1);
        continue;
      }
      if (next >= end) return;
      textStart = next;
      at = s.indexOf("<", next);
    }
    this.text(textStart, end, false);
  }

  /** Adds the text in [start, end), its references decoded unless raw. */
  private text(start: number, end: number, raw: boolean): void {
    if (start >= end) return;
    const written = this.markup.slice(start, end);
    this.addText(raw ? written : decoded(written, decodeHTML));
  }

  private addText(data: string): void {
    if (data === "") return;
    if (this.lastText) {
      this.lastText.data += data;
      return;
    }
    const node = new Text(data);
    this.add(node);
    this.lastText = node;
  }

  private add(node: Element | Text | ProcessingInstruction): void {
    const open = this.open;
    const parent = open.length > 0 ? (open[open.length - 1] as Element) : this.document;
    const { children } = parent;
    if (children.length > 0) {
      const previous = children[children.length - 1]!;
      node.prev = previous;
      previous.next = node;
    }
    children.push(node);
    node.parent = parent;
    this.lastText = null;
  }

  private get inForeignContent(): boolean {
    return this.contexts[this.contexts.length - 1] !== HTML_CONTEXT;
  }

  private isOpen(name: string): boolean {
    for (let i = this.open.length - 1; i >= 0; i--) if ((this.open[i] as Element).name === name) return true;
    return false;
  }

  /** The element name a tag's name, lower-cased, stands for: SVG's own names in SVG, `img` for `image` in HTML. */
  private elementName(name: string): string {
    const context = this.contexts[this.contexts.length - 1];
    if (context === SVG_CONTEXT) return SVG_NAMES.get(name) ?? name;
    if (this.contexts.length > 1) {
      // An end tag for an SVG element around an integration point (</foreignObject> inside its own content).
      const svgName = SVG_NAMES.get(name);
      if (svgName !== undefined && this.isOpen(svgName)) return svgName;
    }
    return context === HTML_CONTEXT && name === "image" ? "img" : name;
  }

  /** Reads a start tag from its name at `start`; returns where the text after it starts. */
  private startTag(start: number): number {
    const s = this.markup;
    const end = s.length;
    let at = start + 1;
    while (at < end && !endsName(s.charCodeAt(at))) at++;
    if (at >= end) return end;
    const lowerCase = s.slice(start, at).toLowerCase();
    const textOnly = this.inForeignContent ? undefined : TEXT_ONLY.get(lowerCase);
    const name = this.opens(this.elementName(lowerCase));
    const attribs = name === "" ? null : noAttributes();
    // The attributes, up to the tag's end: a name, maybe `=` and a value quoted or not; a `/` before `>` marks it self-closing.
    let selfClosing = false;
    for (;;) {
      let c = s.charCodeAt(at);
      while (isSpace(c)) c = s.charCodeAt(++at);
      if (at >= end) return end;
      if (c === GT) break;
      if (c === SLASH) {
        do c = s.charCodeAt(++at);
        while (isSpace(c));
        if (at >= end) return end;
        if (c === GT) {
          selfClosing = true;
          break;
        }
        continue;
      }
      const nameStart = at;
      c = s.charCodeAt(++at);
      while (at < end && c !== EQUALS && !endsName(c)) c = s.charCodeAt(++at);
      const attribute = s.slice(nameStart, at);
      while (isSpace(c)) c = s.charCodeAt(++at);
      if (at >= end) return end;
      let value = "";
      if (c === EQUALS) {
        do c = s.charCodeAt(++at);
        while (isSpace(c));
        if (at >= end) return end;
        let valueStart = at;
        let valueEnd: number;
        if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
          valueStart = at + 1;
          valueEnd = s.indexOf(c === DOUBLE_QUOTE ? '"' : "'", valueStart);
          if (valueEnd === -1) return end;
          at = valueEnd + 1;
        } else {
          while (at < end && c !== GT && !isSpace(c)) c = s.charCodeAt(++at);
          if (at >= end) return end;
          valueEnd = at;
        }
        value = decoded(s.slice(valueStart, valueEnd), decodeHTMLAttribute);
      }
      if (attribs) {
        const key = attribute.toLowerCase();
        // A repeated attribute keeps its first value.
        if (attribs[key] === undefined) attribs[key] = value;
      }
    }
    if (name !== "") {
      const element = this.openElement(name, attribs as Record<string, string>);
      // In SVG and MathML a self-closing tag closes its element; in HTML it is read as an opening tag.
      if (selfClosing && this.inForeignContent && element && this.open[this.open.length - 1] === element) this.pop();
    }
    const after = at + 1;
    if (textOnly === undefined) return after;
    if (textOnly === PLAINTEXT) {
      this.text(after, end, true);
      return end;
    }
    return this.textOnlyContent(after, lowerCase, textOnly);
  }

  /**
   * What a start tag named `name` opens: the name, or "" when it is ignored (nested too deep, a second document's
   * frame, a form inside a form). Before the body, an element that cannot be in the head ends it and starts the body
   * as an HTML parser does: without this, a page whose markup breaks near the top (an unclosed attribute, a <body>
   * written by script) has all its text in <head> or outside any body, and shows nothing.
   */
  private opens(name: string): string {
    const open = this.open;
    if (open.length >= MAX_NESTING) return "";
    if (!this.bodySeen) {
      const top = open[open.length - 1]?.name;
      if (top === "head" || top === "html" || top === undefined) this.beforeBody(name);
    }
    return this.implyClosed(name);
  }

  private beforeBody(name: string): void {
    if (name === "body" || name === "frameset") return;
    if (name === "head") this.headSeen = true;
    if (HEAD_CONTENT.has(name) || OUTSIDE_BODY.has(name)) return;
    const open = this.open;
    if (open[open.length - 1]?.name === "head") {
      if (name === "noscript") return;
      this.pop();
    }
    // A fragment (no <html>, no <head>) has no body to start: all of it is the body.
    if (open[open.length - 1]?.name === "html" || (open.length === 0 && this.headSeen)) this.openElement(this.implyClosed("body"), noAttributes());
  }

  /**
   * Closes what opening `name` closes and returns the name, or "" when the tag is ignored: once the body is open, a
   * later document's <html>, <head> or <body> (HTML's in-body mode; documents pasted together by server-side includes
   * are one body, as a browser shows them), and a <form> inside a form.
   */
  private implyClosed(name: string): string {
    if (this.bodySeen && DOCUMENT_TAGS.has(name)) return "";
    if (name === "body" || name === "frameset") this.bodySeen = true;
    if (name === "form" && this.isOpen("form")) return "";
    const closed = CLOSED_BY.get(name);
    if (closed) while (this.open.length > 0 && closed.has((this.open[this.open.length - 1] as Element).name)) this.pop();
    return name;
  }

  /** Adds an element and opens it unless it is void. */
  private openElement(name: string, attribs: Record<string, string>): Element | undefined {
    const element = new Element(name, attribs);
    this.add(element);
    if (name === "template" && SHADOW_ROOT_MODE.test(attribs.shadowrootmode ?? "")) this.attachShadow(element);
    if (VOID.has(name)) return undefined;
    this.open.push(element);
    if (name === "svg") this.contexts.push(SVG_CONTEXT);
    else if (name === "math") this.contexts.push(MATH_CONTEXT);
    else if (INTEGRATION_POINTS.has(name)) this.contexts.push(HTML_CONTEXT);
    return element;
  }

  /**
   * A <template shadowrootmode="open|closed"> holds its parent's shadow tree (declarative shadow DOM), as when a browser
   * parses it: if the parent may host one and has none yet; otherwise it is a template like any other.
   */
  private attachShadow(template: Element): void {
    const host = template.parent;
    if (this.inForeignContent || !host || !isElement(host) || !canHostShadow(host.name) || this.shadowRoots.has(host)) return;
    this.shadowRoots.set(host, template);
  }

  /**
   * Renders the declarative shadow roots (see composeShadowRoot). Moving a host's children into its shadow tree's
   * slots nests them deeper, so the tree is capped at MAX_NESTING again afterwards.
   */
  showShadowRoots(): void {
    if (this.shadowRoots.size === 0) return;
    for (const [host, template] of this.shadowRoots) composeShadowRoot(host, template);
    capNesting(this.document);
  }

  private pop(): void {
    const { name } = this.open.pop() as Element;
    if (name === "svg" || name === "math" || INTEGRATION_POINTS.has(name)) this.contexts.pop();
    this.lastText = null;
  }

  /** Reads an end tag from its name at `start` (or whatever follows `</`); returns where the text after it starts. */
  private endTag(start: number): number {
    const s = this.markup;
    const end = s.length;
    const c = s.charCodeAt(start);
    // `</>` is nothing; `</` and something other than a letter opens a bogus comment.
    if (c === GT) return start + 1;
    if (!isAsciiLetter(c)) return this.bogusComment(start);
    let at = start + 1;
    while (at < end && !endsName(s.charCodeAt(at))) at++;
    if (at >= end) return end;
    this.close(s.slice(start, at).toLowerCase());
    const gt = s.indexOf(">", at);
    return gt === -1 ? end : gt + 1;
  }

  /** Closes what an end tag, its name lower-cased, closes. */
  private close(lowerCase: string): void {
    const name = this.elementName(lowerCase);
    // After the body started, </body> and </html> close nothing: text after them is still shown in the body.
    if (this.bodySeen && DOCUMENT_TAGS.has(name)) return;
    if (VOID.has(name)) {
      // </br> is a line break, as browsers read it.
      if (name === "br") this.add(new Element("br", noAttributes()));
      return;
    }
    const open = this.open;
    let index = open.length - 1;
    while (index >= 0 && (open[index] as Element).name !== name) index--;
    if (index >= 0) {
      while (open.length > index) this.pop();
    } else if (name === "p") {
      // A stray </p> is an empty paragraph, as browsers read it.
      const paragraph = this.openElement(this.implyClosed("p"), noAttributes());
      if (paragraph && open[open.length - 1] === paragraph) this.pop();
    }
  }

  /** Reads the text of a script, a style, a title or a textarea up to its end tag; returns where the text after it starts. */
  private textOnlyContent(start: number, name: string, kind: number): number {
    const s = this.markup;
    const end = s.length;
    search: for (let at = s.indexOf("</", start); at !== -1; at = s.indexOf("</", at + 1)) {
      const nameEnd = at + 2 + name.length;
      if (nameEnd >= end) break;
      if (!endsName(s.charCodeAt(nameEnd))) continue;
      for (let i = 0; i < name.length; i++) if ((s.charCodeAt(at + 2 + i) | 0x20) !== name.charCodeAt(i)) continue search;
      this.text(start, at, kind === RAW);
      this.close(name);
      const gt = s.indexOf(">", nameEnd);
      return gt === -1 ? end : gt + 1;
    }
    this.text(start, end, kind === RAW);
    return end;
  }

  /** Reads what follows `<!` at `start`: a comment, a doctype, CDATA or a bogus comment; returns where the text after it starts. */
  private declaration(start: number): number {
    const s = this.markup;
    const end = s.length;
    const c = s.charCodeAt(start);
    if (c === DASH && s.charCodeAt(start + 1) === DASH) return this.comment(start + 2);
    if (c === OPEN_BRACKET && s.startsWith("CDATA[", start + 1)) {
      const contentStart = start + 7;
      const close = s.indexOf("]]>", contentStart);
      if (close === -1) return this.bogusComment(end);
      // CDATA is text in SVG and MathML, a comment in HTML.
      if (this.inForeignContent) this.addText(s.slice(contentStart, close));
      else this.lastText = null;
      return close + 3;
    }
    if (s.slice(start, start + 7).toLowerCase() === "doctype") {
      const gt = s.indexOf(">", start + 7);
      if (gt === -1) return end;
      this.add(new ProcessingInstruction("!doctype", `!${s.slice(start, gt)}`));
      return gt + 1;
    }
    return this.bogusComment(start);
  }

  /** Skips a comment whose text starts at `start`, after `<!--`. */
  private comment(start: number): number {
    const s = this.markup;
    this.lastText = null;
    // <!--> and <!---> end at once.
    if (s.charCodeAt(start) === GT) return start + 1;
    if (s.charCodeAt(start) === DASH && s.charCodeAt(start + 1) === GT) return start + 2;
    COMMENT_END.lastIndex = start;
    const found = COMMENT_END.exec(s);
    return found ? found.index + found[0].length : s.length;
  }

  /** Skips a bogus comment (`<?…>`, `<!…>`, `</ …>`) up to the next `>`. */
  private bogusComment(start: number): number {
    this.lastText = null;
    const gt = this.markup.indexOf(">", start);
    return gt === -1 ? this.markup.length : gt + 1;
  }
}

/**
 * Elements at MAX_NESTING levels keep only their text, as the parser keeps it: what is nested deeper joins them.
 */
function capNesting(document: Document): void {
  let depth = 0;
  walk(
    document,
    (node) => {
      if (!isElement(node)) return false;
      if (depth + 1 === MAX_NESTING && node.children.some(isElement)) {
        const text = new Text(textContent(node));
        text.parent = node;
        node.children = [text];
        return false;
      }
      depth++;
      return true;
    },
    () => depth--,
  );
}

/**
 * Parses HTML into htmlparser2's DOM as htmlparser2 12 builds it (tests compare the two on random markup), with entities
 * decoded, comments dropped, nesting capped, the body started where an HTML parser starts it and declarative shadow
 * roots shown in their hosts.
 * Our own reader rather than htmlparser2's because parsing was the largest part of an extraction:
 * see docs/extraction.md for the measurement.
 */
export function parseHtml(markup: string): Document {
  const builder = new HtmlTreeBuilder(markup);
  builder.parse();
  builder.showShadowRoots();
  return builder.document;
}
