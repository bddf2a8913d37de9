// @ts-check
// A tool's answer as the page shows it: searches, pages and converted documents, in the Result panel or a stream card.

import { $, h, safeLink } from "./dom.js";
import { clip, formatBytes } from "./format.js";

/** @typedef {import("../../../shared/src/index.ts").QueryResultData} QueryResultData */
/** @typedef {import("../../../shared/src/index.ts").ConvertedDocument} ConvertedDocument */
/** @typedef {import("../../../shared/src/index.ts").GetSearchContentSuccess} GetSearchContentSuccess */
/** @typedef {import("../../../shared/src/index.ts").Passage} Passage */
/** A page as fetch_content answers it, or as get_search_content reads it back (without when it was fetched). */
/** @typedef {import("../../../shared/src/index.ts").ExtractedContent & Partial<import("../../../shared/src/index.ts").PageResult>} Page */
/** @typedef {{heading: "h3" | "h5", fold: boolean}} Layout */

/**
 * Where a tool's answer is shown: in the Result panel (under its h2, the Markdown open) or in a tool
 * card on the stream (under the card's h4, the Markdown folded away). The renderers below serve both.
 */
export const IN_PANEL = /** @type {Layout} */ ({ heading: "h3", fold: false });
export const IN_CARD = /** @type {Layout} */ ({ heading: "h5", fold: true });

/**
 * A tool answer by its shape: web_search, fetch_content, convert_content, or get_search_content's stored result.
 * @param {unknown} data
 * @param {Layout} layout
 * @returns {HTMLElement[]}
 */
export function answerNodes(data, layout) {
  if (!data || typeof data !== "object") return [];
  const answer = /** @type {Record<string, unknown>} */ (data);
  if (Array.isArray(answer.queries)) return queryResults(/** @type {QueryResultData[]} */ (answer.queries), layout);
  if (typeof answer.query === "string" && Array.isArray(answer.results)) return queryResults([/** @type {QueryResultData} */ (data)], layout);
  if (Array.isArray(answer.results)) return pages(/** @type {Page[]} */ (answer.results), layout);
  if (typeof answer.content === "string" && typeof answer.source === "string") return [convertedDocument(/** @type {ConvertedDocument} */ (data), layout)];
  if (typeof answer.content === "string") return pages([/** @type {Page} */ (data)], layout);
  if (Array.isArray(answer.passages)) return [foundPassages(/** @type {GetSearchContentSuccess} */ (data))];
  if (answer.result && typeof answer.result === "object") {
    return [...(typeof answer.totalChars === "number" ? [windowFacts(/** @type {GetSearchContentSuccess} */ (data))] : []), ...answerNodes(answer.result, layout)];
  }
  return [];
}

/**
 * Where a window of a stored page lies, and a button that fills the form for the next one.
 * @param {GetSearchContentSuccess} data
 */
function windowFacts(data) {
  const facts = h("p", { class: "meta" }, `characters ${data.offset}–${data.end} of ${data.totalChars}`);
  if (typeof data.nextOffset === "number") {
    const next = h("button", { type: "button", class: "secondary small" }, "Next window");
    next.addEventListener("click", () => {
      /** @type {HTMLInputElement} */ ($("gs-offset")).value = String(data.nextOffset);
    });
    facts.append(" ", next);
  }
  return facts;
}

/**
 * get_search_content's find answer: each passage with its page and where it starts.
 * @param {GetSearchContentSuccess} data
 */
function foundPassages(data) {
  const list = h("ol", { class: "result-list" });
  for (const passage of data.passages ?? []) {
    list.append(
      h("li", {}, h("p", { class: "meta" }, safeLink(passage?.url, String(passage?.url ?? "")), ` · at ${passage?.offset}`), h("pre", { class: "markdown", text: clip(String(passage?.text ?? "")) })),
    );
  }
  const count = `${data.matchCount} match${data.matchCount === 1 ? "" : "es"} for ${data.find}${data.capped ? ` (stopped at the ${data.capped} limit)` : ""}`;
  return h("section", { class: "result-item", "aria-label": "Found passages" }, h("p", { class: "meta" }, count), list);
}

/**
 * A result's responseId, with a button that fills it in get_search_content's form.
 * @param {string} responseId
 */
export function responseIdLine(responseId) {
  const use = h("button", { type: "button", class: "secondary small" }, "Read again");
  use.addEventListener("click", () => {
    const input = /** @type {HTMLInputElement} */ ($("gs-id"));
    input.value = responseId;
    input.focus();
  });
  return h("p", { class: "meta" }, "responseId ", h("code", {}, responseId), " ", use);
}

/**
 * A page's or document's Markdown as preformatted text; folded in a card, its summary giving the size.
 * @param {string | undefined} content
 * @param {string} label
 * @param {boolean | undefined} truncated
 * @param {Layout} layout
 */
function markdownBlock(content, label, truncated, layout) {
  const text = String(content ?? "");
  const pre = h("pre", { class: "markdown", "aria-label": label, text: clip(text) });
  if (!layout.fold) return pre;
  return h("details", {}, h("summary", {}, `Markdown (${text.length} characters${truncated ? ", truncated" : ""})`), pre);
}

/**
 * fetch_content results: each page's title, facts and Markdown.
 * @param {Page[]} results
 * @param {Layout} layout
 */
function pages(results, layout) {
  if (!Array.isArray(results)) return [];
  return results.map((page, index) => {
    const item = h("article", { class: "result-item" });
    item.append(h(layout.heading, {}, String(page?.title || page?.url || `Page ${index + 1}`)));
    if (!page || typeof page !== "object") return item;
    item.append(h("p", { class: "meta" }, safeLink(page.url)));
    const facts = [];
    if (page.contentType) facts.push(String(page.contentType));
    if (typeof page.content === "string") facts.push(`${page.content.length} characters`);
    if (typeof page.totalChars === "number") facts.push(`cut at ${page.content?.length} of ${page.totalChars} characters`);
    else if (page.truncated) facts.push("truncated");
    if (typeof page.fetchedAt === "string") facts.push(page.fromCache ? `cached copy, read ${page.fetchedAt}` : `read ${page.fetchedAt}`);
    if (facts.length) item.append(h("p", { class: "meta" }, facts.join(" · ")));
    if (page.note) item.append(h("p", { class: "meta" }, String(page.note)));
    if (page.parseWarning) item.append(h("p", { class: "meta" }, `Parse warning: ${page.parseWarning}`));
    if (page.metadata && typeof page.metadata === "object") {
      const meta = Object.entries(page.metadata).map(([k, v]) => `${k}: ${v}`);
      if (meta.length) item.append(h("p", { class: "meta" }, meta.join(" · ")));
    }
    if (Array.isArray(page.passages)) item.append(passageList(page.passages, `Passages of ${page.url ?? `page ${index + 1}`}`));
    item.append(markdownBlock(page.content, `Markdown of ${page.url ?? `page ${index + 1}`}`, page.truncated, layout));
    return item;
  });
}

/**
 * A page's passages for a question, best first: each with its heading, where it lies and its score.
 * @param {Passage[]} passages
 * @param {string} label
 */
function passageList(passages, label) {
  const section = h("section", { class: "passages", "aria-label": label });
  if (passages.length === 0) {
    section.append(h("p", { class: "placeholder" }, "No passage fits the question."));
    return section;
  }
  const list = h("ol", { class: "result-list" });
  for (const passage of passages) {
    const where = `characters ${passage?.offset}–${passage?.end} · score ${passage?.score}`;
    list.append(h("li", {}, h("p", { class: "meta" }, passage?.heading ? `${String(passage.heading)} · ${where}` : where), h("pre", { class: "markdown", text: clip(String(passage?.text ?? "")) })));
  }
  section.append(list);
  return section;
}

/**
 * The attachment a converted file was uploaded as (or already was).
 * @param {{attachment: import("./api.js").Shape<"AttachmentSchema">, again: boolean}} attached
 */
export function attachmentLine({ attachment, again }) {
  return h(
    "p",
    { class: "meta" },
    again ? "Attachment " : "Uploaded as attachment ",
    h("code", {}, String(attachment.id)),
    ` — ${String(attachment.name ?? "")}, ${String(attachment.mimeType ?? "")}, ${formatBytes(attachment.size)}${again ? " (already uploaded)" : ""}`,
  );
}

/**
 * What a convert_content answer says of its document, beyond the Markdown.
 * @param {ConvertedDocument} doc
 */
function documentFacts(doc) {
  const meta = doc.metadata && typeof doc.metadata === "object" ? doc.metadata : {};
  const facts = [];
  if (meta.title && meta.fileName) facts.push(String(meta.fileName));
  if (meta.contentType) facts.push(String(meta.contentType));
  if (typeof meta.fileSize === "number") facts.push(formatBytes(meta.fileSize));
  if (meta.pages && typeof meta.pages === "object") facts.push(`pages ${meta.pages.included} of ${meta.pages.total}`);
  if (typeof doc.content === "string") facts.push(`${doc.content.length} characters`);
  if (doc.truncated) facts.push("truncated");
  if (doc.provider) facts.push(`converted by ${doc.provider}`);
  if (typeof meta.durationMs === "number") facts.push(`${meta.durationMs} ms`);
  return facts;
}

/**
 * A convert_content answer: the document's title, source and facts, its Markdown as preformatted text.
 * @param {ConvertedDocument} doc
 * @param {Layout} layout
 */
function convertedDocument(doc, layout) {
  const item = h("article", { class: "result-item" });
  item.append(h(layout.heading, {}, String(doc.metadata?.title || doc.metadata?.fileName || doc.source || "Document")));
  item.append(h("p", { class: "meta" }, "Source ", safeLink(doc.source)));
  item.append(h("p", { class: "meta" }, documentFacts(doc).join(" · ")));
  if (doc.truncated) item.append(h("p", { class: "meta" }, "Truncated: more pages or characters than this answer holds (see Pages and Max characters)."));
  item.append(markdownBlock(doc.content, `Markdown of ${doc.source ?? "the document"}`, doc.truncated, layout));
  return item;
}

/**
 * web_search queries: each result's title, URL, snippet and (when fetched) content; with several providers asked,
 * who found each result at which rank, what each provider applied of the filters, and which failed and why.
 * @param {QueryResultData[]} queries
 * @param {Layout} layout
 */
function queryResults(queries, layout) {
  return queries.map((query) => {
    const item = h("section", { class: "result-item" });
    item.append(h(layout.heading, {}, `“${String(query?.query ?? "")}”`));
    const applied = Object.entries(query?.applied ?? {}).map(([provider, how]) =>
      `${provider}: ${Object.entries(how ?? {}).map(([filter, way]) => `${filter} ${String(way)}`).join(", ") || "nothing"}`,
    );
    if (applied.length > 0) item.append(h("p", { class: "meta" }, `Filters applied by ${applied.join("; ")}`));
    const failed = Object.entries(query?.providerErrors ?? {});
    if (failed.length > 0) {
      const errors = h("ul", { class: "failures", "aria-label": "Providers that failed" });
      for (const [provider, error] of failed) errors.append(h("li", {}, h("strong", {}, provider), ` failed: ${String(error?.code ?? "")}: ${String(error?.message ?? "")}`));
      item.append(errors);
    }
    const results = Array.isArray(query?.results) ? query.results : [];
    if (results.length === 0) {
      item.append(h("p", { class: "placeholder" }, "No results."));
      return item;
    }
    const list = h("ol", { class: "result-list" });
    for (const result of results) {
      const li = h("li", {}, h("strong", {}, safeLink(result?.url, result?.title || result?.url)));
      const found = Array.isArray(result?.sources) ? result.sources.map((source) => `${source.provider} #${source.rank}`).join(", ") : "";
      const facts = [result?.source, result?.publishedDate && `published ${result.publishedDate}`, found && `found by ${found}`].filter(Boolean);
      li.append(h("p", { class: "meta" }, String(result?.url ?? ""), ...facts.map((fact) => ` · ${fact}`)));
      if (result?.snippet) li.append(h("p", {}, String(result.snippet)));
      if (result?.contentError) li.append(h("p", { class: "failures" }, `No content: ${String(result.contentError.code)}: ${String(result.contentError.message)}`));
      if (result?.content && typeof result.content.content === "string") {
        if (Array.isArray(result.content.passages)) li.append(passageList(result.content.passages, `Passages of ${String(result.url ?? "")}`));
        li.append(h("details", {}, h("summary", {}, `Page content (${result.content.content.length} characters)`), h("pre", { class: "markdown", text: clip(result.content.content) })));
      }
      list.append(li);
    }
    item.append(list);
    return item;
  });
}
