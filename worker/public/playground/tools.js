// @ts-check
// The Tools panel: one form per tool, its call (convert_content from a file uploads it first), the answer in Result.

import { answerNodes, attachmentLine, IN_PANEL, responseIdLine } from "./answers.js";
import { api, sessionPath, uploadAttachment } from "./api.js";
import { $, h, show } from "./dom.js";
import { formatBytes, json, lines } from "./format.js";
import { ensureSession, forgetSession } from "./session.js";
import { crawlNodes, followCrawl, mapNodes } from "./site-jobs.js";
import { state } from "./state.js";
import { refreshStats } from "./stats.js";
import { errorBox, setStatus } from "./status.js";

/** @template {keyof import("./api.js").Shared} K @typedef {import("./api.js").Sent<K>} Sent */
/** @template T @typedef {import("./api.js").Answer<T>} Answer */
/** @typedef {import("./api.js").Shape<"AttachmentSchema">} Attachment */

/**
 * A tool form's fields as the tool's parameters.
 * @param {string} tool
 */
function toolParams(tool) {
  const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value.trim();
  const checked = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).checked;
  if (tool === "web_search") {
    const queries = lines(value("ws-queries"));
    /** @type {Sent<"WebSearchParamsSchema">} */
    const params = queries.length === 1 ? { query: queries[0] } : { queries };
    if (value("ws-num")) params.numResults = Number(value("ws-num"));
    if (checked("ws-content")) params.includeContent = true;
    if (value("ws-max-age")) params.maxAge = Number(value("ws-max-age"));
    if (value("ws-recency")) params.recency = /** @type {Sent<"WebSearchParamsSchema">["recency"]} */ (value("ws-recency"));
    const include = lines(value("ws-include"));
    const exclude = lines(value("ws-exclude"));
    if (include.length > 0) params.includeDomains = include;
    if (exclude.length > 0) params.excludeDomains = exclude;
    // One name asks that provider alone; several (comma or space separated) are asked at once and merged.
    const providers = value("ws-provider").split(/[\s,]+/).filter(Boolean);
    if (providers.length > 0) params.provider = /** @type {Sent<"WebSearchParamsSchema">["provider"]} */ (providers.length === 1 ? providers[0] : providers);
    return params;
  }
  if (tool === "fetch_content") {
    const urls = lines(value("fc-urls"));
    /** @type {Sent<"FetchContentParamsSchema">} */
    const params = urls.length === 1 ? { url: urls[0] } : { urls };
    if (value("fc-query")) params.query = value("fc-query");
    if (value("fc-passages")) params.maxPassages = Number(value("fc-passages"));
    if (value("fc-max")) params.maxChars = Number(value("fc-max"));
    if (value("fc-max-age")) params.maxAge = Number(value("fc-max-age"));
    const include = lines(value("fc-include"));
    if (include.length) params.includeSelectors = include;
    const exclude = lines(value("fc-exclude"));
    if (exclude.length) params.excludeSelectors = exclude;
    if (checked("fc-reader")) params.preferReader = true;
    return params;
  }
  if (tool === "map") {
    /** @type {Sent<"MapParamsSchema">} */
    const params = { url: value("map-url"), sources: /** @type {Sent<"MapParamsSchema">["sources"]} */ (value("map-sources")) };
    if (value("map-search")) params.search = value("map-search");
    if (value("map-limit")) params.limit = Number(value("map-limit"));
    return params;
  }
  if (tool === "crawl") {
    /** @type {Sent<"CrawlParamsSchema">} */
    const params = { url: value("crawl-url"), sources: /** @type {Sent<"CrawlParamsSchema">["sources"]} */ (value("crawl-sources")) };
    if (value("crawl-limit")) params.limit = Number(value("crawl-limit"));
    if (value("crawl-depth")) params.maxDepth = Number(value("crawl-depth"));
    const include = lines(value("crawl-include"));
    if (include.length) params.includePaths = include;
    const exclude = lines(value("crawl-exclude"));
    if (exclude.length) params.excludePaths = exclude;
    return params;
  }
  if (tool === "convert_content") {
    /** @type {Sent<"ConvertContentParamsSchema">} */
    const params = convertFrom() === "url" ? { url: value("cc-url") } : {};
    if (value("cc-pages")) params.pages = value("cc-pages");
    if (value("cc-max")) params.maxContentChars = Number(value("cc-max"));
    return params;
  }
  /** @type {Sent<"GetSearchContentParamsSchema">} */
  const params = { responseId: value("gs-id") };
  if (value("gs-query")) params.query = value("gs-query");
  if (value("gs-query-index")) params.queryIndex = Number(value("gs-query-index"));
  if (value("gs-url")) params.url = value("gs-url");
  if (value("gs-url-index")) params.urlIndex = Number(value("gs-url-index"));
  if (value("gs-result-index")) params.resultIndex = Number(value("gs-result-index"));
  if (value("gs-offset")) params.offset = Number(value("gs-offset"));
  if (value("gs-max")) params.maxChars = Number(value("gs-max"));
  if (value("gs-find")) params.find = value("gs-find");
  return params;
}

// convert_content reads a URL or a file: the chosen one's field is shown (and required), the other hidden.
const convertFrom = () => (/** @type {HTMLInputElement} */ ($("cc-from-file")).checked ? "file" : "url");
const convertFile = () => /** @type {HTMLInputElement} */ ($("cc-file"));

function showConvertSource() {
  const fromFile = convertFrom() === "file";
  $("cc-url-field").hidden = fromFile;
  $("cc-file-field").hidden = !fromFile;
  /** @type {HTMLInputElement} */ ($("cc-url")).disabled = fromFile;
  convertFile().disabled = !fromFile;
  convertFile().required = fromFile;
}

/** The last file uploaded for convert_content: converting it again (other pages, say) reuses its attachment. */
let uploaded = /** @type {{file: File, sessionId: string, attachment: Attachment} | null} */ (null);

/**
 * A chosen file as an attachment of this session: uploaded unless it already is.
 * Answers `{ok, attachment, again}` or the failed upload `{ok:false, status, error}`.
 * @param {File} file
 * @returns {Promise<{ok: true, attachment: Attachment, again: boolean} | Extract<Answer<unknown>, {ok: false}>>}
 */
async function attachmentFor(file) {
  if (uploaded && uploaded.file === file && uploaded.sessionId === state.sessionId) return { ok: true, attachment: uploaded.attachment, again: true };
  setStatus(`Uploading ${file.name}…`);
  show("result", h("p", { class: "placeholder" }, `Uploading ${file.name} (${formatBytes(file.size)})…`));
  const res = /** @type {Answer<import("./api.js").Shape<"UploadResponseSchema">>} */ (await uploadAttachment(state.sessionId, file));
  const attachment = res.ok ? res.data?.attachment : undefined;
  if (!res.ok) return res;
  if (!attachment || typeof attachment.id !== "string") return { ok: false, status: res.status, error: { code: "UPLOAD_FAILED", message: "The upload answered without an attachment id." } };
  uploaded = { file, sessionId: state.sessionId, attachment };
  return { ok: true, attachment, again: false };
}

/**
 * Runs a tool form's call; convert_content from a file uploads it first.
 * @param {string} tool
 * @returns {Promise<{res: Answer<unknown>, attached?: {attachment: Attachment, again: boolean}, failedUpload?: File}>}
 */
async function runTool(tool) {
  const params = toolParams(tool);
  // The map and crawls have routes of their own beside the tools'.
  if (tool === "map" || tool === "crawl") return { res: await api("POST", sessionPath(state.sessionId, tool === "map" ? "map" : "crawls"), params) };
  if (tool !== "convert_content" || convertFrom() === "url") return { res: await api("POST", sessionPath(state.sessionId, `tools/${tool}`), params) };
  const file = convertFile().files?.[0];
  if (!file) return { res: { ok: false, status: 0, error: { code: "NO_FILE", message: "Choose a file to convert." } } };
  const attached = await attachmentFor(file);
  if (!attached.ok) return { res: attached, failedUpload: file };
  setStatus(`Running ${tool}…`);
  show("result", h("p", { class: "placeholder" }, `Running ${tool} on ${file.name}…`));
  return { res: await api("POST", sessionPath(state.sessionId, `tools/${tool}`), { ...params, attachmentId: attached.attachment.id }), attached };
}

/**
 * A call's answer in the Result panel: status and timing, the answer rendered, and its raw JSON.
 * @param {string} tool
 * @param {Answer<unknown>} res
 * @param {number} ms
 * @param {{attached?: {attachment: Attachment, again: boolean} | undefined, failedUpload?: File | undefined}} [outcome]
 */
function renderResult(tool, res, ms, { attached, failedUpload } = {}) {
  /** @type {HTMLElement[]} */
  const nodes = [];
  const cache = res.ok ? res.headers.get("x-cache") : null;
  const what = failedUpload ? `upload of ${failedUpload.name} failed, ` : "";
  nodes.push(h("p", { class: "meta" }, h("code", {}, tool), ` — ${what}${res.status ? `HTTP ${res.status}` : "no answer"}, ${ms} ms${cache ? `, cache ${cache}` : ""}`));
  if (attached) nodes.push(attachmentLine(attached));
  if (!res.ok) {
    nodes.push(errorBox(res.error, res.status));
    show("result", ...nodes);
    return;
  }
  const data = /** @type {{responseId?: unknown}} */ (res.data ?? {});
  if (typeof data.responseId === "string") nodes.push(responseIdLine(data.responseId));
  if (tool === "map") nodes.push(...mapNodes(/** @type {import("./site-jobs.js").MapAnswer} */ (res.data)));
  else if (tool !== "crawl") nodes.push(...answerNodes(data, IN_PANEL));
  nodes.push(h("details", { class: "raw" }, h("summary", {}, "Raw JSON"), h("pre", {}, json(data))));
  show("result", ...nodes);
}

/**
 * A started crawl in the Result panel, read again until it ends: its pages appear as they settle.
 * @param {string} crawlId
 */
async function watchCrawl(crawlId) {
  const sessionId = state.sessionId;
  const last = await followCrawl(sessionId, crawlId, (crawl, pages) => {
    show("result", h("p", { class: "meta" }, h("code", {}, "crawl"), ` — ${crawl.status}`), ...crawlNodes(crawl, pages));
    setStatus(crawl.status === "running" ? `Crawling: ${crawl.counts.fetched} of at most ${crawl.limit} pages fetched…` : `The crawl ${crawl.status}: ${crawl.counts.fetched} pages fetched.`, crawl.status === "running" ? "info" : "ok");
  });
  if (!last.ok) show("result", errorBox(last.error, last.status));
}

export function wireTools() {
  for (const id of ["cc-from-url", "cc-from-file"]) $(id).addEventListener("change", showConvertSource);
  showConvertSource();

  for (const form of document.querySelectorAll("form.tool-form")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const tool = /** @type {HTMLFormElement} */ (form).dataset.tool ?? "";
      const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
      if (!(await ensureSession())) {
        show("result", errorBox({ code: "NO_SESSION", message: "A tool runs inside a session; the session could not be created (see Access)." }));
        return;
      }
      button.disabled = true;
      const result = $("result");
      result.setAttribute("aria-busy", "true");
      show("result", h("p", { class: "placeholder" }, `Running ${tool}…`));
      setStatus(`Running ${tool}…`);
      const started = performance.now();
      const { res, attached, failedUpload } = await runTool(tool);
      const ms = Math.round(performance.now() - started);
      result.removeAttribute("aria-busy");
      button.disabled = false;
      renderResult(tool, res, ms, { attached, failedUpload });
      if (!res.ok && failedUpload) setStatus(`The upload of ${failedUpload.name} failed: ${res.error.code}.`, "error");
      else setStatus(res.ok ? `${tool} answered in ${ms} ms.` : `${tool} failed: ${res.error.code}.`, res.ok ? "ok" : "error");
      if (!res.ok && res.status === 404 && res.error.code === "SESSION_NOT_FOUND") forgetSession("The session no longer exists; create a new one.");
      // A started crawl runs on: it is followed here until it ends, its status line replacing the start's.
      if (tool === "crawl" && res.ok) await watchCrawl(/** @type {{crawlId: string}} */ (res.data).crawlId);
      void refreshStats();
    });
  }
}
