import type { Document } from "domhandler";
import { DomHandler, Parser } from "htmlparser2";

/**
 * Elements nested deeper than this are not opened; their content joins the deepest open element
 * (browsers cap nesting the same way). htmlparser2 keeps its open-element stack in an array it
 * unshifts and searches per tag, so unbounded nesting makes parsing quadratic: 200,000 nested
 * divs took 16 s. The cap also bounds recursion depth for everything that walks the tree.
 */
const MAX_NESTING = 256;

class NestingCappedParser extends Parser {
  override onopentagname(start: number, endIndex: number): void {
    // `stack` is private in the typings but is the parser's own list of open elements (htmlparser2 12).
    if ((this as unknown as { stack: readonly string[] }).stack.length < MAX_NESTING) super.onopentagname(start, endIndex);
  }
}

/** Parses HTML (or XML with xmlMode) into htmlparser2's DOM, with entities decoded and nesting capped. */
export function parseMarkup(markup: string, xmlMode = false): Document {
  const handler = new DomHandler(null, { xmlMode });
  new NestingCappedParser(handler, { xmlMode }).end(markup);
  return handler.root;
}
