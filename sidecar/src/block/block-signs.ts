import type { BlockSign } from "./block-sign.ts";
import { blockPage } from "./block-page.ts";
import { browserCheckPage } from "./browser-check-page.ts";
import { captchaPage } from "./captcha-page.ts";
import { mitigationHeader } from "./mitigation-header.ts";

/** Every sign, the surest first (a header says it outright; a page's shape and wording are read after). */
export const BLOCK_SIGNS: readonly BlockSign[] = [mitigationHeader, browserCheckPage, captchaPage, blockPage];
