import { deadlineIn, displayUrl, fail, failWith, type ConvertErrorCode, type ConvertLimits, type FetchOptions, type RobotsEntry, type SidecarConvertAnswer } from "@edge-web/shared";
import type { FetchContentDeps } from "../../fetch/egress-types.ts";
import { robotsExchange, robotsReport, type RobotsExchange } from "../../fetch/robots-exchange.ts";
import { robotsGuard } from "../../fetch/robots-guard.ts";
import { fetchResource, type ResourceFailureKind } from "../../fetch/fetch-resource.ts";
import { parseUrl } from "../../fetch/parse-url.ts";
import { convertBytes } from "./convert-bytes.ts";
import type { ConvertPool } from "./convert-pool.ts";

const ACCEPT = "application/pdf,application/vnd.openxmlformats-officedocument.*,application/vnd.oasis.opendocument.*,text/html;q=0.9,*/*;q=0.5";

/** The name a download offers (Content-Disposition), else the URL's last path segment. */
function fileNameOf(url: URL, disposition: string | undefined): string | undefined {
  const declared = /filename\*=(?:UTF-8'')?([^;]+)|filename="?([^";]+)"?/i.exec(disposition ?? "");
  const raw = declared ? (declared[1] ?? declared[2] ?? "") : (url.pathname.split("/").pop() ?? "");
  try {
    return decodeURIComponent(raw.trim()) || undefined;
  } catch {
    return raw.trim() || undefined;
  }
}

const FETCH_CODES: Partial<Record<ResourceFailureKind, ConvertErrorCode>> = {
  "invalid-url": "INVALID_INPUT",
  config: "INVALID_INPUT",
  blocked: "PRIVATE_NETWORK_BLOCKED",
  timeout: "CONVERT_TIMEOUT",
  "queue-timeout": "CONVERT_TIMEOUT",
  cancelled: "CONVERT_TIMEOUT",
  aborted: "CONVERT_TIMEOUT",
};

type ConvertUrlRequest = { url: string; options: FetchOptions; limits: ConvertLimits; budgetMs?: number; robotsRecord?: RobotsEntry };
type ConvertDeps = FetchContentDeps & { converter: ConvertPool };

/**
 * A document at a URL: downloaded through the whole fetch pipeline, then converted on a converter
 * thread; the answer reports the robots.txt records read for it (the worker's, `robotsRecord`, first).
 */
export async function convertUrl(req: ConvertUrlRequest, deps: ConvertDeps, signal?: AbortSignal): Promise<SidecarConvertAnswer> {
  const robots = robotsExchange(req.robotsRecord);
  const answer = await downloadAndConvert(req, deps, robots, signal);
  return { ...answer, ...robotsReport(robots) };
}

async function downloadAndConvert(req: ConvertUrlRequest, deps: ConvertDeps, robots: RobotsExchange, signal?: AbortSignal): Promise<SidecarConvertAnswer> {
  const deadline = deadlineIn(req.budgetMs ?? req.limits.timeoutMs);
  const raw = req.url.trim();
  // "localhost:8080/x.pdf" or "example.com:443/x" parse as schemes; they are URLs missing http(s)://.
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme && scheme !== "http" && scheme !== "https" && !scheme.includes(".") && scheme !== "localhost") {
    return fail("UNSUPPORTED_PROTOCOL", `The URL scheme "${scheme}:" is not supported; convert_content reads http(s) URLs, and uploaded files by attachmentId.`);
  }
  const parsed = parseUrl(raw);
  if (!parsed.ok) return fail("INVALID_INPUT", parsed.error.message);
  const url = parsed.value;
  const shown = displayUrl(url);
  const { maxResponseBytes } = req.limits;
  const guard = robotsGuard(req.options, deps, deadline, robots, signal);
  const fetched = await fetchResource({ url, accept: ACCEPT, maxResponseBytes, deadline, ...(guard && { guard }), ...(signal && { signal }) }, req.options, deps);
  if (!fetched.ok) {
    const { code, message } = fetched.error;
    const sentence = code === "queue-timeout" || code === "cancelled" ? `Downloading ${shown} ${message}.` : message;
    if (code === "busy") return failWith("NETWORK_ERROR", sentence, { fault: "unavailable" });
    // The convert family's codes: robots.txt's refusal is CONVERT_FAILED, its fault telling it apart (403).
    if (code === "robots") return failWith("CONVERT_FAILED", sentence, { fault: "robots" });
    return fail(FETCH_CODES[code] ?? "NETWORK_ERROR", sentence);
  }
  const response = fetched.value;
  const { status } = response;
  if (status === 404 || status === 410) {
    return failWith("FILE_NOT_FOUND", `${shown} answered HTTP ${status}: there is no document at this URL.`, { fault: "not-found", upstreamStatus: status });
  }
  if (status < 200 || status > 299) {
    const code = status >= 500 || status === 429 ? "NETWORK_ERROR" : "CONVERT_FAILED";
    return failWith(code, `${shown} answered HTTP ${status}; the document could not be downloaded.`, { fault: "upstream", upstreamStatus: status });
  }
  if (response.truncated) {
    return fail("FILE_TOO_LARGE", `${shown} is larger than ${maxResponseBytes} bytes (convert.maxResponseBytes, counted decompressed); convert a smaller document.`);
  }
  const fileName = fileNameOf(new URL(response.url), response.headers["content-disposition"]);
  const hints = { url: response.url, ...(response.headers["content-type"] && { contentType: response.headers["content-type"] }), ...(fileName && { fileName }) };
  return convertBytes(response.url, response.bytes, hints, req.limits, deadline, deps, signal);
}
