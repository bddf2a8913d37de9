import type { ChildNode, Document, ParentNode } from "domhandler";
import { DomHandler, Parser, type QuoteType } from "htmlparser2";
import { FastForwardTokenizer } from "./fast-forward-tokenizer.ts";
import { MAX_NESTING } from "./parse-html.ts";

/** The parser's own members this subclass uses; private in the typings (htmlparser2 12). */
interface ParserInternals {
  /** Open elements, innermost first. */
  stack: string[];
  /** The attributes of the tag being read, or null when nothing takes them. */
  attribs: Record<string, string> | null;
  /** The name and value of the attribute being read. */
  attribname: string;
  attribvalue: string;
  emitOpenTag(name: string): void;
}

/**
 * Elements nested deeper than MAX_NESTING are not opened; their content joins the deepest open element. htmlparser2
 * keeps its open-element stack in an array it unshifts and searches per tag, so unbounded nesting makes parsing
 * quadratic: 200,000 nested elements took 16 s.
 */
class NestingCappedParser extends Parser {
  constructor(handler: DomHandler) {
    super(handler, { xmlMode: true, Tokenizer: FastForwardTokenizer });
  }

  override onopentagname(start: number, endIndex: number): void {
    if ((this as unknown as ParserInternals).stack.length >= MAX_NESTING) return;
    super.onopentagname(start, endIndex);
  }

  /** An attribute's first value is kept, as htmlparser2 keeps it, told by a read of the prototype-free map (see emitOpenTag below). */
  override onattribend(_quote: QuoteType, endIndex: number): void {
    const parser = this as unknown as ParserInternals;
    this.endIndex = endIndex;
    const { attribs, attribname } = parser;
    if (attribs && attribs[attribname] === undefined) attribs[attribname] = parser.attribvalue;
    parser.attribvalue = "";
  }
}

/** Every element's attributes go into a map without a prototype: attribute names are the document's own. */
const stockEmitOpenTag = (Parser.prototype as unknown as ParserInternals).emitOpenTag;
(NestingCappedParser.prototype as unknown as ParserInternals).emitOpenTag = function (this: ParserInternals, name: string): void {
  stockEmitOpenTag.call(this, name);
  if (this.attribs) this.attribs = Object.create(null) as Record<string, string>;
};

/**
 * htmlparser2's DOM, built for less: without comment nodes (no step reads them), the text on either side of one
 * staying two text nodes as it was with the comment between, and each node linked to the sibling before it without
 * reading index -1 of an empty child list, as domhandler's addNode does for every first child.
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
 * Parses XML (the parts of office documents, feeds, SVG) into htmlparser2's DOM, with entities decoded, comments
 * dropped and nesting capped.
 */
export function parseXml(markup: string): Document {
  const handler = new LeanDomHandler(null, { xmlMode: true });
  new NestingCappedParser(handler).end(markup);
  return handler.root;
}
