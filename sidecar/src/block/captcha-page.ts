import type { BlockSign } from "./block-sign.ts";
import { anyRegionHolds, ASKS_FOR_A_HUMAN, hasPasswordField, isRefusal, isShort, wording } from "./page-traits.ts";

/** Each class attribute's value, to its closing quote or the tag's end (a value may hold more "class=" text). */
const CLASS_VALUES = /\bclass\s*=\s*["']?([^"'>]*)/g;

/** An element of this class (a token of its class attribute): where a captcha widget mounts. */
const widget = (name: string) => {
  const token = new RegExp(`(?<![\\w-])${name}(?![\\w-])`);
  return (markup: string) => anyRegionHolds(markup, CLASS_VALUES, token);
};
const script = (pattern: RegExp) => (markup: string) => pattern.test(markup);

/** Captcha widgets and their scripts: Turnstile, hCaptcha, reCAPTCHA, Friendly Captcha, GeeTest, and bot managers' own (DataDome, HUMAN/PerimeterX). */
const CAPTCHAS: readonly { found: (markup: string) => boolean; name: string }[] = [
  { found: widget("cf-turnstile"), name: "Turnstile" },
  { found: script(/challenges\.cloudflare\.com\/turnstile\//), name: "Turnstile" },
  { found: widget("h-captcha"), name: "hCaptcha" },
  { found: script(/hcaptcha\.com\/1\/api\.js/), name: "hCaptcha" },
  { found: widget("g-recaptcha"), name: "reCAPTCHA" },
  { found: script(/\/recaptcha\/(?:api|enterprise)\.js/), name: "reCAPTCHA" },
  { found: widget("frc-captcha"), name: "Friendly Captcha" },
  { found: script(/static\.geetest\.com\//), name: "GeeTest" },
  { found: script(/captcha-delivery\.com\//), name: "DataDome's captcha" },
  { found: script(/\bid\s*=\s*["']?px-captcha\b/), name: "HUMAN's press-and-hold check" },
];
/** A sign-in form, or a form to write in (a comment, a message), may carry a captcha too: that is a page to use, not a wall. */
const formToUse = (markup: string) => hasPasswordField(markup) || /<textarea\b/i.test(markup);

/** A short page built around a captcha, answered with a refusing status or asking the reader to prove they are human. */
export const captchaPage: BlockSign = {
  name: "captcha-page",
  recognise(answer) {
    if (!isShort(answer) || formToUse(answer.body)) return undefined;
    const captcha = CAPTCHAS.find(({ found }) => found(answer.body));
    if (!captcha) return undefined;
    if (isRefusal(answer)) return `a ${captcha.name} page answered with HTTP ${answer.status}`;
    if (ASKS_FOR_A_HUMAN.test(wording(answer))) return `a ${captcha.name} page asking to prove a human is reading`;
    return undefined;
  },
};
