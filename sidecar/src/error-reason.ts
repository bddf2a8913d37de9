/** The first line of an error's message: enough to act on, no stack. */
export function errorReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] || "unknown error";
}
