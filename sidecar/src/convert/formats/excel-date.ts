import { dateFromSerial, getFormatInfo, tokenize } from "numfmt";
import { numberFormatCode } from "./number-format-text.ts";

/**
 * Spreadsheet dates are numbers (days since an epoch) that only their number format shows as dates. Cells
 * whose format is plainly a date or time are written as ISO dates and times; every other number stays a number.
 */

export type DateStyle = "date" | "time" | "datetime";

/** The style a number format (its own code, else the built-in one its id names) shows, if it shows a date or time. */
export function dateStyleOf(formatId: number, formatCode: string | undefined): DateStyle | undefined {
  const code = numberFormatCode(formatId, formatCode);
  if (code === undefined) return undefined;
  const { isDate, type } = getFormatInfo(code);
  // Elapsed time ([h], [mm]) is a duration, not a time of day.
  if (!isDate || tokenize(code).some((token) => token.type === "DURATION")) return undefined;
  return type === "date" || type === "time" || type === "datetime" ? type : undefined;
}

/** 9999-12-31, the last day spreadsheets know. */
const MAX_SERIAL = 2_958_465;
/** Serial 0 of the 1904 date system (1904-01-01) is serial 1462 of the 1900 one, which numfmt counts in. */
const DAYS_FROM_1900_TO_1904 = 1462;

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** A serial date in the style, or undefined when the number is no date (negative, past 9999). */
export function formatSerialDate(serial: number, style: DateStyle, date1904: boolean): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > MAX_SERIAL) return undefined;
  const seconds = Math.round(serial * 86_400);
  // Seconds only when there are any.
  const time = `${pad(Math.floor(seconds / 3600) % 24)}:${pad(Math.floor(seconds / 60) % 60)}${seconds % 60 ? `:${pad(seconds % 60)}` : ""}`;
  if (style === "time") return time;
  // The day by numfmt's calendar of serials, Lotus's phantom 1900-02-29 (serial 60) included.
  const [year, month, day] = dateFromSerial(Math.floor(seconds / 86_400) + (date1904 ? DAYS_FROM_1900_TO_1904 : 0));
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  return style === "date" ? date : `${date} ${time}`;
}
