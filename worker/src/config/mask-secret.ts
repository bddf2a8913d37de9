/** Secrets shorter than this are shown as "***" alone: three characters would give away too much of them. */
export const MIN_REVEAL_LENGTH = 12;

/** How a secret is shown: its first 3 characters then "***" ("sk-***"), or just "***" when short. */
export function maskSecret(secret: string): string {
  return secret.length < MIN_REVEAL_LENGTH ? "***" : `${secret.slice(0, 3)}***`;
}

/** Whether a written value looks like a mask rather than a secret. */
export const looksMasked = (value: string): boolean => value.endsWith("***");
