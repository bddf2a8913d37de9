/** The longest reason given: it is shown to the agent as part of one line. */
const MAX_CHARS = 160;

/**
 * The first line of an error's message: enough to act on, without a stack or the excerpt some parsers print
 * after it (YAML's first line ends in ":" before a code excerpt), and cut to 160 characters.
 */
export function errorReason(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).trim();
  const line = (text.split("\n", 1)[0] ?? "").trim().replace(/:$/, "");
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line || "unknown error";
}
