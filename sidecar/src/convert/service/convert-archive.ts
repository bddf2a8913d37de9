import { ok } from "@edge-web/shared";
import type { ConverterOptions, ConverterResult } from "../formats/document-converter.ts";
import { formatSize } from "../formats/format-size.ts";
import type { ZipArchive } from "../formats/zip-archive.ts";
import { escapeInline, oneLineCodeSpan } from "../../extract/markdown-syntax.ts";
import { oneLine } from "../../extract/whitespace.ts";

/** Files past this many are named, not converted. */
const MAX_FILES = 100;

/** Folders, dot files and macOS's resource forks are not the archive's documents. */
const isDocument = (name: string) => !name.endsWith("/") && !name.startsWith("__MACOSX/") && !name.split("/").some((part) => part.startsWith("."));

/** Why a file was not converted, as one line of plain text: the reason may quote entry names, which are anyone's. */
const notConverted = (reason: string) => `(not converted: ${escapeInline(oneLine(reason))})`;

/**
 * A ZIP archive of files (not an Office document) as its files' Markdown in the archive's order, each
 * under a `## File: path` heading (the path as inline code on one line: a name cannot forge a heading or a section) and converted as it would be alone (`convertFile`); a file that cannot be
 * converted (or is damaged) says why. The archive's declared size was
 * checked against maxUnzippedBytes before anything was inflated; reading stops at stopMs, past
 * maxContentChars, after MAX_FILES files, or at a file that would unpack past what the whole archive may
 * (FILE_TOO_LARGE: the files' own unpacking counts too), and the answer is then truncated.
 */
export async function convertArchive(
  archive: ZipArchive,
  options: ConverterOptions,
  convertFile: (bytes: Uint8Array, fileName: string) => Promise<ConverterResult>,
): Promise<ConverterResult> {
  const files = archive.names().filter(isDocument);
  const sections: string[] = [];
  let chars = 0;
  let truncated = files.length > MAX_FILES;
  let stopped: string | undefined;
  // One file inflated at a time, when its turn comes: a damaged file is that file's failure, not the archive's.
  for (const [index, name] of files.slice(0, MAX_FILES).entries()) {
    if (Date.now() >= options.stopMs || chars > options.maxContentChars) {
      truncated = true;
      break;
    }
    const fileName = name.split("/").pop() ?? name;
    const data = archive.read(name);
    let body: string;
    let overBudget = false;
    if (!data.ok) body = notConverted(data.error.message);
    else if (!data.value || data.value.length === 0) body = "(an empty file)";
    else {
      const converted = await convertFile(data.value, fileName);
      body = converted.ok ? converted.value.content : notConverted(converted.error.message);
      if (converted.ok && converted.value.truncated) truncated = true;
      overBudget = !converted.ok && converted.error.code === "FILE_TOO_LARGE";
    }
    const section = `## File: ${oneLineCodeSpan(name)}\n\n${body}`;
    sections.push(section);
    chars += section.length;
    if (overBudget) {
      truncated = true;
      const left = files.length - index - 1;
      const more = left === 0 ? "" : left === 1 ? " 1 more file in the archive is not converted." : ` ${left} more files in the archive are not converted.`;
      stopped = `(Reading stopped there: the archive unpacks to more than ${formatSize(options.maxUnzippedBytes)}.${more})`;
      break;
    }
  }
  if (stopped) sections.push(stopped);
  else if (files.length > MAX_FILES) sections.push(`(${files.length - MAX_FILES} more files in the archive are not converted.)`);
  return ok({ provider: "zip", contentType: "application/zip", content: sections.join("\n\n") || "(the archive holds no files)", truncated });
}
