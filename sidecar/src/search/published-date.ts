const UNIT_MS: Record<string, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};
const RELATIVE = /^(\d+|an?)\s+(second|minute|hour|day|week|month|year)s?\s+ago$/i;
/** A date and time with no zone (SearXNG's and Brave's page_age): read as UTC, not the machine's zone. */
const ZONELESS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
const HAS_ZONE = /(?:Z|GMT|UTC|[+-]\d{2}:?\d{2})$/i;

/**
 * A provider's date as ISO 8601: absolute dates in the forms providers write ("2024-03-05",
 * "2024-03-05T10:00:00", "Mar 5, 2024", "Tue, 05 Mar 2024 10:00:00 GMT"), and relative ones
 * ("3 days ago") counted back from `now`. Anything else, or a non-string, is no date.
 */
export function publishedDate(value: unknown, now: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const relative = RELATIVE.exec(text);
  if (relative) {
    const count = /^\d+$/.test(relative[1]!) ? Number(relative[1]) : 1;
    return new Date(now - count * UNIT_MS[relative[2]!.toLowerCase()]!).toISOString();
  }
  if (text === "") return undefined;
  const zoned = ZONELESS_ISO.test(text) ? `${text}Z` : /^\d{4}-\d{2}-\d{2}$/.test(text) || HAS_ZONE.test(text) ? text : `${text} UTC`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
