import { ok, type Result } from "@edge-web/shared";
import { streamXml } from "./stream-xml.ts";

/**
 * The workbook's shared strings (xl/sharedStrings.xml), in order: cells of type "s" hold an index into them.
 * Rich text is read as plain text; phonetic guides (rPh) are left out.
 */
export function readSharedStrings(bytes: Uint8Array, deadlineMs: number): Result<string[] | "timeout", "CONVERT_FAILED"> {
  const strings: string[] = [];
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  const outcome = streamXml(
    bytes,
    {
      open(name) {
        if (name === "si") current = "";
        else if (name === "rPh") phonetic++;
        else if (name === "t") inText = phonetic === 0 && current !== undefined;
      },
      text(text) {
        if (inText) current += text;
      },
      close(name) {
        if (name === "t") inText = false;
        else if (name === "rPh") phonetic--;
        else if (name === "si" && current !== undefined) {
          strings.push(current);
          current = undefined;
        }
      },
    },
    deadlineMs,
  );
  if (!outcome.ok) return outcome;
  return ok(outcome.value === "timeout" ? "timeout" : strings);
}
