import { readFileSync } from "node:fs";

/** The product token robots.txt rules name us by. */
export const PRODUCT_TOKEN = "EdgeWebTools";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** Sent with every outbound request, so site owners can tell us apart: the product token and the sidecar's version. */
export const USER_AGENT = `${PRODUCT_TOKEN}/${version} (web tools for AI agents)`;

/** The User-Agent with the operator's page about this deployment (web.userAgentUrl) as a comment of its own, when there is one. */
export const withContactUrl = (userAgent: string, url: string): string => (url ? `${userAgent} (+${url})` : userAgent);
