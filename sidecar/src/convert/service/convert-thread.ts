import { parentPort } from "node:worker_threads";
import { failWith } from "@edge-web/shared";
import { getResolvedPDFJS } from "unpdf";
import { errorReason } from "../../error-reason.ts";
import type { ConverterResult } from "../formats/document-converter.ts";
import { convertDocument } from "./convert-document.ts";
import type { ConvertJob } from "./convert-pool.ts";

// The PDF reader loads while the thread waits for its first document: threads are replaced after a document
// that left them large, and the next PDF should not pay for the load.
getResolvedPDFJS().catch(() => {});

/** A converter thread: one job at a time, each answered with its outcome. */
parentPort!.on("message", async (job: ConvertJob) => {
  let outcome: ConverterResult;
  try {
    outcome = readersFault(await convertDocument(job.bytes, job.hints, job.options));
  } catch (error) {
    // A converter bug or a hostile file it did not expect: the message names neither bytes nor secrets.
    console.error("convert: converter threw", errorReason(error));
    outcome = failWith("CONVERT_FAILED", "The document could not be converted; it may be corrupt or use features that are not supported.", { fault: "unreadable" });
  }
  parentPort!.postMessage(outcome);
});

/** What a converter could not read is the document's fault (422), unless it said otherwise. */
function readersFault(outcome: ConverterResult): ConverterResult {
  if (outcome.ok || outcome.error.code !== "CONVERT_FAILED" || outcome.error.details) return outcome;
  return failWith(outcome.error.code, outcome.error.message, { fault: "unreadable" });
}
