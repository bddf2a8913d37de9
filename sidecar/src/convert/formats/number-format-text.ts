import { format, getFormatFromId, getFormatInfo } from "numfmt";

/**
 * A cell format's number format code: its own, else the built-in one its id names (ECMA-376 18.8.30, numfmt's
 * table). The built-in currency formats are left out: they show the currency of the reader's locale, which a
 * file does not say, so those numbers are shown as stored.
 */
export function numberFormatCode(formatId: number, formatCode: string | undefined): string | undefined {
  if (formatCode !== undefined) return formatCode;
  const builtIn = getFormatFromId(formatId);
  return getFormatInfo(builtIn).type === "currency" ? undefined : builtIn;
}

/**
 * A currency tag's locale ([$€-407]) names the currency's country; the separators stay the reader's, as spreadsheet
 * applications show them, where numfmt would take that locale's (1.234,50). A locale tag alone ([$-409]) goes too.
 */
const withoutLocales = (code: string) => code.replace(/\[\$([^\]-]*)-[\da-f]+\]/gi, (_tag, symbol: string) => (symbol ? `[$${symbol}]` : ""));

/**
 * Longer codes are not read: numfmt reads some in time growing with the square of their length (40,000 characters
 * of "[$" took 5 s, for each cell), and real codes are a few dozen characters.
 */
const MAX_FORMAT_CODE_CHARS = 255;

/**
 * The number as the format code shows it, by numfmt: decimals, thousands, percent, scientific notation, fractions,
 * conditions ([>=100]), up to four sections, literal text and currency symbols. Undefined when the code is General
 * or text, shows nothing, cannot be read or is longer than MAX_FORMAT_CODE_CHARS: the number is then shown as stored.
 */
export function numberFormatText(value: number, code: string): string | undefined {
  if (!Number.isFinite(value) || code.length > MAX_FORMAT_CODE_CHARS || /^\s*(general|@)?\s*$/i.test(code)) return undefined;
  return format(withoutLocales(code), value, { throws: false, invalid: "" }).trim() || undefined;
}
