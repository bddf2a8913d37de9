import type { OperatorUrls } from "@edge-web/shared";

/** Every search provider's URL as the operator's: for tests whose settings stand for the environment's. */
export const OPERATOR_URLS_ONLY: OperatorUrls = { ddgs: true, brave: true, tavily: true, serper: true, openserp: true, searxng: true };
