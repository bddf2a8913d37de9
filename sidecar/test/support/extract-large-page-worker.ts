import { parentPort, workerData } from "node:worker_threads";
import { largePage } from "../../../bench/extract-large-page.ts";
import { htmlHandler } from "../../src/extract/html-handler.ts";

/** Extracts one generated page of workerData.bytes bytes inside a worker whose heap the test caps. */
const page = largePage(workerData.bytes as number);
const { content } = htmlHandler.extract({ text: page, url: "https://example.test/large", mime: "text/html" });
parentPort?.postMessage({ pageChars: page.length, contentChars: content.length });
