/**
 * Spreadsheet dates are numbers (days since an epoch) that only their number format shows as dates. Cells
 * whose format is plainly a date or time are written as ISO dates and times; every other number stays a number.
 */

export type DateStyle = "date" | "time" | "datetime";

/** Built-in formats (ECMA-376 18.8.30 and the East Asian ones) that show dates or times; 46 ([h]:mm:ss) is a duration. */
const BUILT_IN: ReadonlyMap<number, DateStyle> = new Map([
  ...[14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58].map((id): [number, DateStyle] => [id, "date"]),
  ...[18, 19, 20, 21, 32, 33, 45, 47, 55, 56].map((id): [number, DateStyle] => [id, "time"]),
  [22, "datetime"],
]);

/** The style a number format shows, if it shows a date or time. */
export function dateStyleOf(formatId: number, formatCode: string | undefined): DateStyle | undefined {
  if (formatCode === undefined) return BUILT_IN.get(formatId);
  // The positive section, without quoted text, escapes, fill and padding characters.
  const code = (formatCode.split(";")[0] ?? "").replace(/"[^"]*"|\\.|[_*]./g, "");
  // Elapsed time ([h], [mm]) is a duration, not a time of day.
  if (/\[(?:h+|m+|s+)\]/i.test(code)) return undefined;
  const tokens = code.replace(/\[[^\]]*\]/g, "");
  const date = /[dy]/i.test(tokens);
  const time = /[hs]|AM\/PM|A\/P/i.test(tokens);
  if (date && time) return "datetime";
  if (date) return "date";
  if (time) return "time";
  // Months alone (mmm-yy without the year is still "m").
  return /m/i.test(tokens) ? "date" : undefined;
}

/** Serial 1 is 1900-01-01; Lotus's phantom 1900-02-29 (serial 60) shifts later serials by a day. */
const EPOCH_1900_EARLY = Date.UTC(1899, 11, 31);
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);
/** 9999-12-31, the last day spreadsheets know. */
const MAX_SERIAL = 2_958_465;

/** A serial date in the style, or undefined when the number is no date (negative, past 9999). */
export function formatSerialDate(serial: number, style: DateStyle, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > MAX_SERIAL) return undefined;
  const epoch = date1904 ? EPOCH_1904 : serial < 60 ? EPOCH_1900_EARLY : EPOCH_1900;
  const at = new Date(epoch + Math.round(serial * 86_400) * 1000);
  const iso = at.toISOString();
  // Seconds only when there are any.
  const time = iso.slice(11, iso.slice(17, 19) === "00" ? 16 : 19);
  if (style === "date") return iso.slice(0, 10);
  if (style === "time") return time;
  return `${iso.slice(0, 10)} ${time}`;
}
