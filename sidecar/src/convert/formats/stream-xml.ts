import { fail, ok, type Result } from "@edge-web/shared";
import { Parser } from "htmlparser2";
import { bomEncoding } from "../../extract/bom.ts";
import { localName } from "./local-name.ts";

/** Callbacks for a streamed XML part; names are local names (prefixes dropped). */
export interface XmlEvents {
  /** Returning false stops the parse there: the reader has what it needs. */
  open(name: string, attributes: Record<string, string>): boolean | void;
  text(text: string): void;
  close(name: string): void;
}

/** Sheets nest a handful of levels; deeper nesting is an attack on the parser (its open-element stack is an array). */
const MAX_DEPTH = 256;
/** Decoded and parsed this many bytes at a time, checking the deadline in between: a few milliseconds of work, so reading stops close to its time. */
const CHUNK_BYTES = 16 * 1024;

/**
 * Parses a large XML part (a worksheet, the shared strings, an ODS content.xml) without building a tree:
 * memory stays at the part's bytes. Answers "stopped" when the events stopped it and "timeout" when the
 * deadline passed part way; what the events saw until then stands.
 */
export function streamXml(bytes: Uint8Array, events: XmlEvents, deadlineMs: number): Result<"complete" | "stopped" | "timeout", "CONVERT_FAILED"> {
  let depth = 0;
  let tooDeep = false;
  let stopped = false;
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        if (++depth > MAX_DEPTH) {
          tooDeep = true;
          parser.pause();
          return;
        }
        if (events.open(localName(name), attributes) === false) {
          stopped = true;
          parser.pause();
        }
      },
      ontext: (text) => events.text(text),
      onclosetag(name) {
        depth--;
        events.close(localName(name));
      },
    },
    { xmlMode: true },
  );
  const decoder = new TextDecoder(bomEncoding(bytes) ?? "utf-8");
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
    if (Date.now() >= deadlineMs) return ok("timeout");
    parser.write(decoder.decode(bytes.subarray(at, at + CHUNK_BYTES), { stream: true }));
    if (tooDeep) return fail("CONVERT_FAILED", `The document's XML is nested more than ${MAX_DEPTH} levels deep; it is not read.`);
    if (stopped) return ok("stopped");
  }
  parser.end();
  return ok("complete");
}
