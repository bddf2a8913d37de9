import type { BlockSign } from "./block-sign.ts";
import { ASKS_FOR_A_HUMAN, hasPasswordField, isRefusal, isShort, wording } from "./page-traits.ts";

/** Each class attribute's value, to its closing quote or the tag's end (a value may hold more "class=" text). */
const CLASS_VALUES = /\bclass\s*=\s*["']?([^"'>]*)/g;
/** Captcha widgets (by their class) and scripts: Turnstile, hCaptcha, reCAPTCHA, Friendly Captcha, GeeTest, and bot managers' own (DataDome, HUMAN/PerimeterX). */
const CAPTCHAS: readonly ({ widget: string; name: string } | { script: RegExp; name: string })[] = [
  { widget: "cf-turnstile", name: "Turnstile" },
  { script: /challenges\.cloudflare\.com\/turnstile\//, name: "Turnstile" },
  { widget: "h-captcha", name: "hCaptcha" },
  { script: /hcaptcha\.com\/1\/api\.js/, name: "hCaptcha" },
  { widget: "g-recaptcha", name: "reCAPTCHA" },
  { script: /\/recaptcha\/(?:api|enterprise)\.js/, name: "reCAPTCHA" },
  { widget: "frc-captcha", name: "Friendly Captcha" },
  { script: /static\.geetest\.com\//, name: "GeeTest" },
  { script: /captcha-delivery\.com\//, name: "DataDome's captcha" },
  { script: /\bid\s*=\s*["']?px-captcha\b/, name: "HUMAN's press-and-hold check" },
];
/** The classes the widgets mount on, as tokens of a class attribute (letters and hyphens: nothing to escape). */
const WIDGET_CLASSES = new RegExp(`(?<![\\w-])(?:${CAPTCHAS.flatMap((sign) => ("widget" in sign ? [sign.widget] : [])).join("|")})(?![\\w-])`, "g");

/** The widget classes the markup's class attributes hold, each attribute read once. */
function widgetClasses(markup: string): Set<string> {
  const found = new Set<string>();
  for (const [, value] of markup.matchAll(CLASS_VALUES)) for (const [name] of (value ?? "").matchAll(WIDGET_CLASSES)) found.add(name);
  return found;
}

/** A sign-in form, or a form to write in (a comment, a message), may carry a captcha too: that is a page to use, not a wall. */
const formToUse = (markup: string) => hasPasswordField(markup) || /<textarea\b/i.test(markup);

/** A short page built around a captcha, answered with a refusing status or asking the reader to prove they are human. */
export const captchaPage: BlockSign = {
  name: "captcha-page",
  recognise(answer) {
    if (!isShort(answer) || formToUse(answer.body)) return undefined;
    const widgets = widgetClasses(answer.body);
    const captcha = CAPTCHAS.find((sign) => ("widget" in sign ? widgets.has(sign.widget) : sign.script.test(answer.body)));
    if (!captcha) return undefined;
    if (isRefusal(answer)) return `a ${captcha.name} page answered with HTTP ${answer.status}`;
    if (ASKS_FOR_A_HUMAN.test(wording(answer))) return `a ${captcha.name} page asking to prove a human is reading`;
    return undefined;
  },
};
