import type { Document } from "domhandler";
import { DomHandler, Parser } from "htmlparser2";
import { NONCHARACTERS } from "./markdown-emphasis.ts";

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

/**
 * Noncharacters are the Markdown renderer's placeholders: they are dropped from the decoded text and
 * attribute values, so none reaches the renderer, whether written as characters or as entities.
 */
class NoncharacterFreeHandler extends DomHandler {
  override ontext(data: string): void {
    super.ontext(data.replace(NONCHARACTERS, ""));
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    for (const key of Object.keys(attribs)) attribs[key] = attribs[key]!.replace(NONCHARACTERS, "");
    super.onopentag(name, attribs);
  }
}

/** Parses HTML (or XML with xmlMode) into htmlparser2's DOM, with entities decoded, noncharacters dropped and nesting capped. */
export function parseMarkup(markup: string, xmlMode = false): Document {
  const handler = new NoncharacterFreeHandler(null, { xmlMode });
  new NestingCappedParser(handler, { xmlMode }).end(markup);
  return handler.root;
}
