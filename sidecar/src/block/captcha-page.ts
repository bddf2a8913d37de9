import type { BlockSign } from "./block-sign.ts";
import { ASKS_FOR_A_HUMAN, isRefusal, isShort, wording } from "./page-traits.ts";

/** An element of this class (a token of its class attribute): where a captcha widget mounts. */
const widget = (name: string) => new RegExp(`\\bclass\\s*=\\s*["']?[^"'>]*?(?<![\\w-])${name}(?![\\w-])`);

/** Captcha widgets and their scripts: Turnstile, hCaptcha, reCAPTCHA, Friendly Captcha, GeeTest, and bot managers' own (DataDome, HUMAN/PerimeterX). */
const CAPTCHAS: readonly { marker: RegExp; name: string }[] = [
  { marker: widget("cf-turnstile"), name: "Turnstile" },
  { marker: /challenges\.cloudflare\.com\/turnstile\//, name: "Turnstile" },
  { marker: widget("h-captcha"), name: "hCaptcha" },
  { marker: /hcaptcha\.com\/1\/api\.js/, name: "hCaptcha" },
  { marker: widget("g-recaptcha"), name: "reCAPTCHA" },
  { marker: /\/recaptcha\/(?:api|enterprise)\.js/, name: "reCAPTCHA" },
  { marker: widget("frc-captcha"), name: "Friendly Captcha" },
  { marker: /static\.geetest\.com\//, name: "GeeTest" },
  { marker: /captcha-delivery\.com\//, name: "DataDome's captcha" },
  { marker: /\bid\s*=\s*["']?px-captcha\b/, name: "HUMAN's press-and-hold check" },
];
/** A sign-in form, or a form to write in (a comment, a message), may carry a captcha too: that is a page to use, not a wall. */
const FORM_TO_USE = /<input\b[^>]*\btype\s*=\s*["']?password\b|<textarea\b/i;

/** A short page built around a captcha, answered with a refusing status or asking the reader to prove they are human. */
export const captchaPage: BlockSign = {
  name: "captcha-page",
  recognise(answer) {
    if (!isShort(answer) || FORM_TO_USE.test(answer.body)) return undefined;
    const captcha = CAPTCHAS.find(({ marker }) => marker.test(answer.body));
    if (!captcha) return undefined;
    if (isRefusal(answer)) return `a ${captcha.name} page answered with HTTP ${answer.status}`;
    if (ASKS_FOR_A_HUMAN.test(wording(answer))) return `a ${captcha.name} page asking to prove a human is reading`;
    return undefined;
  },
};
