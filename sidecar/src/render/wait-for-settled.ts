import type { Page } from "playwright-core";
import { within } from "./within.ts";

/** The page's DOM counts as settled after this long without a mutation (and without a request starting or ending). */
export const QUIET_MS = 500;
/**
 * How long a page that shows no text yet must stay quiet: a shell fills itself from a timer or a script that a loaded
 * machine runs late (a 300 ms timer's article came after 500 ms of quiet while two browsers started), and taken early it
 * reads as an empty page. Bounded by the deadline like every wait.
 */
export const EMPTY_QUIET_MS = 2_000;
const POLL_MS = 100;

/** Installed before the page's scripts: how long since the DOM last changed. A page that tampers with it only delays itself to its deadline. */
export const QUIET_PROBE_SCRIPT = `(() => {
  let last = performance.now();
  const observer = new MutationObserver(() => { last = performance.now(); });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  Object.defineProperty(window, "__renderQuietMs", { value: () => performance.now() - last });
  Object.defineProperty(window, "__renderShowsText", { value: () => !!document.body && /\\S/.test(document.body.innerText) });
})();`;

/**
 * Waits until neither the DOM nor the network has changed for QUIET_MS (EMPTY_QUIET_MS while the page shows no text),
 * and `selector`, when given, is in the DOM, or until `until` (epoch ms) or `stop`, whichever comes first. A page that
 * never settles (polling, animation) is taken as it is at `until`. The selector is read as CSS only (the caller's
 * input was checked as CSS; Playwright's other selector engines stay out).
 */
export async function waitForSettled(page: Page, lastNetworkActivity: () => number, until: number, stop: AbortSignal, selector?: string): Promise<void> {
  if (selector) await within(page.waitForSelector(`css=${selector}`, { state: "attached", timeout: Math.max(1, until - Date.now()) }), until - Date.now(), stop);
  while (Date.now() < until && !stop.aborted) {
    const domQuiet = (await within(page.evaluate("window.__renderQuietMs ? window.__renderQuietMs() : 0") as Promise<number>, until - Date.now(), stop)) ?? 0;
    const quiet = Math.min(domQuiet, Date.now() - lastNetworkActivity());
    // Text is read only once the page is quiet: innerText lays the page out.
    if (quiet >= EMPTY_QUIET_MS) return;
    if (quiet >= QUIET_MS && (await within(page.evaluate("window.__renderShowsText ? window.__renderShowsText() : true") as Promise<boolean>, until - Date.now(), stop)) !== false) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, until - Date.now()))));
  }
}
