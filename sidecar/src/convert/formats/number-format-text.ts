/**
 * A number as a spreadsheet number format code shows it: decimals, thousands separators, percent, scientific
 * notation, literal text and currency symbols, a section for negatives and zero. Fractions and conditions are
 * not drawn: those (and General, and text formats) answer undefined, and the number is shown as stored.
 */

/** Splits a code into its sections at the semicolons outside quotes. */
function sections(code: string): string[] {
  const out: string[] = [""];
  let quoted = false;
  for (let i = 0; i < code.length; i++) {
    const char = code[i] as string;
    if (char === '"') quoted = !quoted;
    if (char === "\\" && !quoted) {
      out[out.length - 1] += code.slice(i, i + 2);
      i++;
      continue;
    }
    if (char === ";" && !quoted) out.push("");
    else out[out.length - 1] += char;
  }
  return out;
}

interface Pattern {
  prefix: string;
  suffix: string;
  integerZeros: number;
  decimals: number;
  minDecimals: number;
  thousands: boolean;
  percent: number;
  scale: number;
  exponent?: { sign: boolean; zeros: number };
  /** A section of text alone ("zero", "-"): the number is not shown. */
  textOnly?: boolean;
}

/** One section as literal text around a numeric pattern; undefined for what is not drawn here. */
function parse(section: string): Pattern | undefined {
  let prefix = "";
  let suffix = "";
  let digits = "";
  let seenDigits = false;
  let percent = 0;
  let exponent: Pattern["exponent"];
  for (let i = 0; i < section.length; i++) {
    const char = section[i] as string;
    const literal = (text: string) => {
      if (seenDigits) suffix += text;
      else prefix += text;
    };
    if (char === '"') {
      const end = section.indexOf('"', i + 1);
      literal(section.slice(i + 1, end < 0 ? undefined : end));
      i = end < 0 ? section.length : end;
    } else if (char === "\\") {
      literal(section[i + 1] ?? "");
      i++;
    } else if (char === "_") {
      literal(" ");
      i++;
    } else if (char === "*") i++;
    else if (char === "[") {
      const end = section.indexOf("]", i);
      const inside = section.slice(i + 1, end < 0 ? undefined : end);
      // [$€-407] is a currency symbol; colours, locales and conditions ([Red], [$-409], [>100]) draw nothing.
      if (/^[<>=]/.test(inside)) return undefined;
      const currency = /^\$([^-]*)/.exec(inside)?.[1];
      if (currency) literal(currency);
      i = end < 0 ? section.length : end;
    } else if ("0#?.,".includes(char) && (!seenDigits || !suffix)) {
      digits += char;
      seenDigits = true;
    } else if ((char === "E" || char === "e") && seenDigits && /[+-]/.test(section[i + 1] ?? "")) {
      const zeros = /^[0#?]+/.exec(section.slice(i + 2))?.[0].length ?? 0;
      exponent = { sign: section[i + 1] === "+", zeros: Math.max(zeros, 1) };
      i += 1 + zeros;
    } else if (char === "%") {
      percent++;
      literal("%");
    } else if (char === "/" || char === "@") return undefined;
    else literal(char);
  }
  if (!seenDigits) return prefix.trim() ? { prefix, suffix: "", integerZeros: 0, decimals: 0, minDecimals: 0, thousands: false, percent: 0, scale: 0, textOnly: true } : undefined;
  // Commas after the last digit place scale by a thousand each.
  const trailing = /,+$/.exec(digits)?.[0].length ?? 0;
  const body = digits.slice(0, digits.length - trailing);
  const [integer = "", fraction = ""] = body.split(".");
  return {
    prefix,
    suffix,
    integerZeros: (integer.match(/0/g) ?? []).length,
    decimals: (fraction.match(/[0#?]/g) ?? []).length,
    minDecimals: (fraction.match(/0/g) ?? []).length,
    thousands: integer.includes(","),
    percent,
    scale: trailing,
    ...(exponent && { exponent }),
  };
}

function digitsOf(value: number, pattern: Pattern): string {
  if (pattern.exponent) {
    const [mantissa = "0", power = "0"] = value.toExponential(pattern.decimals).split("e");
    const exponent = Math.abs(Number(power)).toString().padStart(pattern.exponent.zeros, "0");
    const sign = Number(power) < 0 ? "-" : pattern.exponent.sign ? "+" : "";
    return `${mantissa}E${sign}${exponent}`;
  }
  let [integer = "0", fraction = ""] = value.toFixed(pattern.decimals).split(".");
  // Optional places (#) drop their trailing zeros.
  while (fraction.length > pattern.minDecimals && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  if (integer === "0" && pattern.integerZeros === 0) integer = "";
  integer = integer.padStart(pattern.integerZeros, "0");
  if (pattern.thousands) integer = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (fraction ? `${integer}.${fraction}` : integer) || "0";
}

/** The number as the format code shows it; undefined when the code is General, text, or draws what is not drawn here. */
export function numberFormatText(value: number, code: string): string | undefined {
  if (!Number.isFinite(value) || /^\s*(general|@)?\s*$/i.test(code)) return undefined;
  const parts = sections(code);
  const negativeSection = value < 0 && parts.length > 1;
  const section = value === 0 && parts.length > 2 ? parts[2] : negativeSection ? parts[1] : parts[0];
  const pattern = parse(section ?? "");
  if (!pattern) return undefined;
  if (pattern.textOnly) return pattern.prefix.trim();
  const magnitude = (Math.abs(value) * 100 ** pattern.percent) / 1000 ** pattern.scale;
  const digits = digitsOf(magnitude, pattern);
  const sign = value < 0 && !negativeSection && Number(digits.replace(/[^\d.]/g, "")) !== 0 ? "-" : "";
  return `${sign}${pattern.prefix}${digits}${pattern.suffix}`.trim();
}
