import type { ChildNode, Document, ParentNode } from "domhandler";
import { DomHandler, Parser, type QuoteType } from "htmlparser2";
import { FastForwardTokenizer } from "./fast-forward-tokenizer.ts";
import { isNoncharacter, NONCHARACTERS } from "./markdown-emphasis.ts";

/**
 * Elements nested deeper than this are not opened; their content joins the deepest open element
 * (browsers cap nesting the same way). htmlparser2 keeps its open-element stack in an array it
 * unshifts and searches per tag, so unbounded nesting makes parsing quadratic: 200,000 nested
 * divs took 16 s. The cap also bounds recursion depth for everything that walks the tree.
 */
const MAX_NESTING = 256;

/**
 * What may stand in <head> and after it without starting the body (HTML's "in head" and "after head" insertion
 * modes); a <noscript> may stand in the head, but one after it starts the body.
 */
const HEAD_CONTENT = new Set(["base", "basefont", "bgsound", "link", "meta", "title", "noframes", "style", "script", "template"]);
const OUTSIDE_BODY = new Set(["html", "head", "body", "frameset", "frame"]);
/** The tags of a document's frame, which a browser reads once. */
const DOCUMENT_TAGS = new Set(["html", "head", "body"]);

/** The parser's own members this subclass uses; private in the typings (htmlparser2 12). */
interface ParserInternals {
  /** Open elements, innermost first. */
  stack: string[];
  /** The attributes of the tag being read, or null when nothing takes them. */
  attribs: Record<string, string> | null;
  /** The name and value of the attribute being read. */
  attribname: string;
  attribvalue: string;
  getSlice(start: number, end: number): string;
  /** Where the next node starts. */
  startIndex: number;
  /** The tag being opened; "" when it is ignored. */
  tagname: string;
  popElement(implied: boolean): void;
  emitOpenTag(name: string): void;
  endOpenTag(implied: boolean): void;
}

class NestingCappedParser extends Parser {
  private headSeen = false;
  /** Set as the body is opened, explicitly or implied (the patched emitOpenTag below). */
  private bodySeen = false;

  private readonly html: boolean;

  constructor(handler: DomHandler, html: boolean) {
    super(handler, { xmlMode: !html, Tokenizer: FastForwardTokenizer });
    this.html = html;
  }

  override onopentagname(start: number, endIndex: number): void {
    const parser = this as unknown as ParserInternals;
    const { stack } = parser;
    if (stack.length >= MAX_NESTING) return;
    const top = stack[0];
    // Only elements at the top of the document are read here: the check costs nothing further down.
    if (this.html && !this.bodySeen && (top === "head" || top === "html" || top === undefined)) this.beforeBody(parser, parser.getSlice(start, endIndex).toLowerCase());
    super.onopentagname(start, endIndex);
  }

  /**
   * After the body started, </body> and </html> close nothing: text after them is still shown in the body (documents
   * pasted together by server-side includes are one body, as a browser shows them). Only four-letter names are read.
   */
  override onclosetag(start: number, endIndex: number): void {
    const parser = this as unknown as ParserInternals;
    if (this.bodySeen && endIndex - start === 4 && DOCUMENT_TAGS.has(parser.getSlice(start, endIndex).toLowerCase())) {
      this.endIndex = endIndex;
      parser.startIndex = endIndex + 1;
      return;
    }
    super.onclosetag(start, endIndex);
  }

  /** A noncharacter written as a reference is dropped as it is decoded (see NoncharacterFreeHandler). */
  override ontextentity(cp: number, endIndex: number): void {
    if (!isNoncharacter(cp)) super.ontextentity(cp, endIndex);
  }

  override onattribentity(cp: number): void {
    if (!isNoncharacter(cp)) super.onattribentity(cp);
  }

  /**
   * An attribute's first value is kept, as htmlparser2 keeps it, told by a read of the prototype-free map (see
   * emitOpenTag below) where htmlparser2 asks Object.hasOwn: 6 % of parsing an article page. No handler here takes
   * the onattribute event it also reports.
   */
  override onattribend(_quote: QuoteType, endIndex: number): void {
    const parser = this as unknown as ParserInternals;
    this.endIndex = endIndex;
    const { attribs, attribname } = parser;
    if (attribs && attribs[attribname] === undefined) attribs[attribname] = parser.attribvalue;
    parser.attribvalue = "";
  }

  /**
   * As an HTML parser does: an element that cannot be in <head> ends it, and one after the head starts the body.
   * Without this, a page whose markup breaks near the top (an unclosed attribute, a <body> written by script)
   * has all its text in <head> or outside any body, and shows nothing.
   */
  private beforeBody(parser: ParserInternals, name: string): void {
    // The body is seen as it is opened (see emitOpenTag below).
    if (name === "body" || name === "frameset") return;
    if (name === "head") this.headSeen = true;
    if (HEAD_CONTENT.has(name) || OUTSIDE_BODY.has(name)) return;
    if (parser.stack[0] === "head") {
      if (name === "noscript") return;
      parser.popElement(true);
    }
    // A fragment (no <html>, no <head>) has no body to start: all of it is the body.
    if (parser.stack[0] === "html" || (parser.stack.length === 0 && this.headSeen)) {
      parser.emitOpenTag("body");
      parser.endOpenTag(true);
    }
  }
}

/** The subclass's own state that the patched emitOpenTag reads and sets. */
interface BodyState {
  readonly html: boolean;
  bodySeen: boolean;
}

/**
 * Every element's attributes, those the parser implies (a <body>, a <p> for a stray </p>) included, go into a map
 * without a prototype: attribute names are the page's own, thousands of them, and a plain object changes shape with
 * every new name (5 % of parsing an article page). No name reaches a prototype.
 */
const stockEmitOpenTag = (Parser.prototype as unknown as ParserInternals).emitOpenTag;
(NestingCappedParser.prototype as unknown as ParserInternals).emitOpenTag = function (this: ParserInternals & BodyState, name: string): void {
  // Once the body is open, a later document's <html>, <head> or <body> is ignored (HTML's in-body mode), the way
  // htmlparser2 ignores a second <form>: no element, no attributes; what follows is shown in the body.
  if (this.bodySeen && DOCUMENT_TAGS.has(name)) {
    this.tagname = "";
    return;
  }
  if (this.html && (name === "body" || name === "frameset")) this.bodySeen = true;
  stockEmitOpenTag.call(this, name);
  if (this.attribs) this.attribs = Object.create(null) as Record<string, string>;
};

/**
 * htmlparser2's DOM, built for less: without comment nodes (no step reads them; building them took 4.6 % of an
 * extraction on the article pages: scripts and markup commented out, conditional comments), the text on either side
 * of one staying two text nodes as it was with the comment between; and each node linked to the sibling before it
 * without reading index -1 of an empty child list, as domhandler's addNode does for every first child (in V8 a
 * property lookup through the prototypes: 4 % of an extraction on WCEB's pages).
 */
class LeanDomHandler extends DomHandler {
  override oncomment(): void {}

  override addNode(node: ChildNode): void {
    const parent = this.tagStack.at(-1) as ParentNode;
    const { children } = parent;
    if (children.length > 0) {
      const previous = children[children.length - 1] as ChildNode;
      node.prev = previous;
      previous.next = node;
    }
    children.push(node);
    node.parent = parent;
    this.lastNode = null;
  }
}

/**
 * Noncharacters are the Markdown renderer's placeholders: they are dropped from the decoded text and attribute
 * values, so none reaches the renderer. Those written as characters are dropped here, on the pages that have any;
 * those written as numeric references, by the parser as it decodes them.
 */
class NoncharacterFreeHandler extends LeanDomHandler {
  override ontext(data: string): void {
    super.ontext(data.replace(NONCHARACTERS, ""));
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    for (const key of Object.keys(attribs)) attribs[key] = attribs[key]!.replace(NONCHARACTERS, "");
    super.onopentag(name, attribs);
  }
}

/** Whether the markup holds a noncharacter U+FDD0–U+FDEF written as one. */
const HOLDS_NONCHARACTERS = new RegExp(NONCHARACTERS.source);

/**
 * Parses HTML (or XML with xmlMode) into htmlparser2's DOM, with entities decoded, comments and noncharacters
 * dropped, nesting capped and, in HTML, the body started where an HTML parser starts it.
 */
export function parseMarkup(markup: string, xmlMode = false): Document {
  // Dropping them costs a replace per text and attribute (about 4 % of an extraction); most pages have none to drop.
  const handler = HOLDS_NONCHARACTERS.test(markup) ? new NoncharacterFreeHandler(null, { xmlMode }) : new LeanDomHandler(null, { xmlMode });
  new NestingCappedParser(handler, !xmlMode).end(markup);
  return handler.root;
}
