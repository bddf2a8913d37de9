import type { BlockSign, PageAnswer } from "./block-sign.ts";
import { isRefusal } from "./page-traits.ts";

interface Mitigation {
  header: string;
  /** Whether the value (lower case) marks this answer as a challenge or a block. */
  marks: (value: string, answer: PageAnswer) => boolean;
  who: string;
}

/**
 * Headers with which CDNs and bot managers mark the answer they give instead of the page. DataDome
 * and Kasada send theirs on every answer of a protected site, so those count with a refusing status only.
 */
const MITIGATIONS: readonly Mitigation[] = [
  { header: "cf-mitigated", marks: (value) => value === "challenge", who: "Cloudflare's challenge" },
  { header: "x-vercel-mitigated", marks: (value) => value === "challenge" || value === "deny", who: "Vercel's security checkpoint" },
  { header: "x-amzn-waf-action", marks: (value) => value === "captcha" || value === "challenge" || value === "block", who: "AWS WAF" },
  { header: "x-datadome", marks: (_value, answer) => isRefusal(answer), who: "DataDome" },
  { header: "x-kpsdk-ct", marks: (_value, answer) => isRefusal(answer), who: "Kasada" },
];

export const mitigationHeader: BlockSign = {
  name: "mitigation-header",
  recognise(answer) {
    for (const { header, marks, who } of MITIGATIONS) {
      const value = answer.headers[header];
      if (value !== undefined && marks(value.trim().toLowerCase(), answer)) return `${who} (${header}: ${value.trim().slice(0, 40)})`;
    }
    return undefined;
  },
};
