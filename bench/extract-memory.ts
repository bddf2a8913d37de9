import { htmlHandler } from "../sidecar/src/extract/html-handler.ts";
import { largePage } from "./extract-large-page.ts";

/**
 * Run as its own process by bench/extract.ts: the peak resident memory of extracting one 10 MB page,
 * against the process's peak before it (Node itself, the modules and the page string). One JSON line.
 */
const PAGE_BYTES = 10 * 1024 * 1024;
const mb = (kilobytes: number): number => Math.round(kilobytes / 1024);

const page = largePage(PAGE_BYTES);
const before = process.resourceUsage().maxRSS;
const { content } = htmlHandler.extract({ text: page, url: "https://example.test/large", mime: "text/html" });
const after = process.resourceUsage().maxRSS;
console.log(JSON.stringify({ pageMB: +(page.length / 1024 / 1024).toFixed(1), contentMB: +(content.length / 1024 / 1024).toFixed(1), peakRssBeforeMB: mb(before), peakRssMB: mb(after) }));
