/**
 * The proxy bypass rule that sends loopback through the proxy too. Chromium bypasses proxies for
 * loopback unless told not to, and Playwright's own default rule can be turned off by an
 * environment variable (PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK), so the browser and
 * every page's context are given it explicitly.
 */
export const PROXIED_LOOPBACK = "<-loopback>";
