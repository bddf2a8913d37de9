// The playground: one session of the HTTP API — its four tools, agent turns, the live stream and
// the stats. Everything a response carries is shown as text (textContent / text nodes), never as HTML.
// URLs are relative, so the page works under any base path.

const KEYS = {
  token: "edge-web-tools.playground.token",
  session: "edge-web-tools.playground.session",
  echoes: "edge-web-tools.playground.echoes",
};
/** The server's `: keep-alive` comment interval by default; the stream's own comments correct it. */
const HEARTBEAT_MS = 15_000;
/** A stream that stays silent for this many keep-alives, and at least the floor, is taken for dead. */
const SILENCE_HEARTBEATS = 3;
const SILENCE_FLOOR_MS = 45_000;
/** Reconnection backoff: doubling from the first delay up to the cap, each delay jittered. */
const RETRY_FIRST_MS = 1000;
const RETRY_CAP_MS = 15_000;
const MAX_SHOWN_CHARS = 100_000;
/** The stream log keeps this many entries (messages, notes, approvals), dropping the oldest. */
const MAX_LOG_ENTRIES = 200;

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Kept in this tab only: sessionStorage, never the address or localStorage. */
const tabStore = {
  get(key) {
    try {
      return sessionStorage.getItem(key) ?? "";
    } catch {
      return "";
    }
  },
  set(key, value) {
    try {
      if (value) sessionStorage.setItem(key, value);
      else sessionStorage.removeItem(key);
    } catch {
      // Storage refused (private mode, quota): the page still works, it just forgets on reload.
    }
  },
};

/**
 * An element with attributes and children. Strings become text nodes; `text` sets textContent.
 * Response data must only ever reach the page through here (or textContent).
 */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child);
  return node;
}

/** A link only for http(s) URLs (never javascript: or data:); anything else is plain text. */
function safeLink(raw, label = raw) {
  try {
    const url = new URL(String(raw));
    if (url.protocol === "http:" || url.protocol === "https:") {
      return h("a", { href: url.href, rel: "noopener noreferrer nofollow", target: "_blank" }, String(label));
    }
  } catch {
    // not a URL
  }
  return h("span", {}, String(label));
}

const lines = (text) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The shown start of a text of `total` characters, and how many more there are. */
const clipped = (shown, total) => (total > shown.length ? `${shown}\n\n… (${total - shown.length} more characters not shown)` : shown);
const clip = (text) => clipped(text.slice(0, MAX_SHOWN_CHARS), text.length);

const json = (value) => {
  try {
    return clip(JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    return String(value);
  }
};

function formatBytes(n) {
  if (typeof n !== "number") return String(n ?? "—");
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

// ---------------------------------------------------------------- status and errors

function setStatus(text, kind = "info") {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = kind;
}

function hintFor(error, status) {
  if (status === 401 || error.code === "UNAUTHORIZED") return "This server needs an API token: enter one in the API token field under Access, then try again.";
  if (error.code === "FORBIDDEN") return "This token may not use that: a session belongs to the token that created it; create a new session.";
  if (error.code === "SESSION_NOT_FOUND") return "The session no longer exists; create a new one.";
  if (error.code === "SESSION_ENDED") return "The session ended (it was idle); create a new one.";
  if (error.code === "SESSION_BUSY") return "A turn is running: wait for it to finish, or press Abort.";
  if (error.code === "MODEL_NOT_CONFIGURED") return "No model is configured; see docs/agent.md (AGENT_CONFIG or PUT /api/config/auth).";
  if (error.code === "NETWORK_ERROR") return status ? "The document could not be downloaded (DNS, connection or a 5xx answer from its server)." : "Check that the server is running and reachable.";
  if (error.code === "PRIVATE_NETWORK_BLOCKED") return "The URL points at a private or denied address; the network policy (web.allowHosts, web.allowPrivateNetwork) decides what may be fetched.";
  if (error.code === "UNSUPPORTED_PROTOCOL") return "Only http: and https: URLs can be read; for a file on this computer, choose “A file from this computer”.";
  if (error.code === "FILE_TOO_LARGE") return "The document is over web.convert.maxResponseBytes; try a smaller file.";
  if (error.code === "PAYLOAD_TOO_LARGE") return "The file is over the upload limit (ATTACHMENT_MAX_BYTES, 25 MiB by default).";
  if (error.code === "CONVERT_TIMEOUT") return "Nothing could be converted in time: try fewer pages.";
  if (error.code === "CONVERT_FAILED") return "Usually the document is unsupported, encrypted, corrupt or scanned (no text layer): PDF, DOCX, XLSX, ODS, PPTX and pages can be read.";
  return "";
}

/** The API's error body `{error:{code,message,fields}}`, or what a response without one amounts to. */
function errorOf(status, data, text = "") {
  const error = data && typeof data === "object" ? (data.error ?? data) : undefined;
  if (error && typeof error.code === "string") {
    return { code: error.code, message: typeof error.message === "string" ? error.message : "", fields: Array.isArray(error.fields) ? error.fields.map(String) : undefined };
  }
  return { code: `HTTP_${status}`, message: text.trim().slice(0, 500) || "The server answered with an error and no details." };
}

/** `"CODE: message"` (tool-output-error) as code and message. */
function splitErrorText(text) {
  const match = /^([A-Z][A-Z0-9_]+): ([\s\S]*)$/.exec(String(text ?? ""));
  return match ? { code: match[1], message: match[2] } : { code: "ERROR", message: String(text ?? "") };
}

function errorBox(error, status, { alert = true } = {}) {
  const box = h("div", { class: "error-box", role: alert ? "alert" : undefined });
  box.append(h("p", {}, h("span", { class: "error-code" }, error.code), status ? ` — HTTP ${status}` : ""));
  if (error.message) box.append(h("p", { class: "error-message" }, error.message));
  if (error.fields?.length) box.append(h("p", { class: "meta" }, `Fields: ${error.fields.join(", ")}`));
  const hint = hintFor(error, status);
  if (hint) box.append(h("p", { class: "meta" }, hint));
  return box;
}

const show = (slot, ...nodes) => $(slot).replaceChildren(...nodes);

// ---------------------------------------------------------------- requests

const tokenInput = /** @type {HTMLInputElement} */ ($("token"));
let token = tabStore.get(KEYS.token);

function authHeaders() {
  const headers = new Headers();
  if (token) headers.set("authorization", `Bearer ${token}`);
  return headers;
}

/** One JSON request to the API: `{ok, status, data}` or `{ok:false, status, error}`; never throws but for an abort. */
async function api(method, path, body) {
  const headers = authHeaders();
  if (body !== undefined) headers.set("content-type", "application/json");
  return request(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
}

/** A file to the session's attachments (multipart/form-data, field `file`): `{attachment, displayUrl}` on success. */
async function uploadAttachment(id, file) {
  const form = new FormData();
  form.append("file", file, file.name);
  // No content-type of our own: the browser writes the multipart boundary.
  return request("POST", sessionPath(id, "attachments"), authHeaders(), form);
}

/** A response's body as text, and as JSON when it is JSON. */
async function readBody(res) {
  const text = await res.text().catch(() => "");
  try {
    return { text, data: text ? JSON.parse(text) : undefined };
  } catch {
    return { text, data: undefined };
  }
}

/** A request with its answer read as JSON; `api()` and `uploadAttachment()` go through here. */
async function request(method, path, headers, body) {
  let res;
  try {
    res = await fetch(path, { method, headers, body, cache: "no-store", credentials: "same-origin" });
  } catch {
    return { ok: false, status: 0, error: { code: "NETWORK_ERROR", message: "The request did not reach the server." } };
  }
  const { text, data } = await readBody(res);
  if (res.ok) return { ok: true, status: res.status, data, headers: res.headers };
  return { ok: false, status: res.status, error: errorOf(res.status, data, text) };
}

const sessionPath = (id, tail) => `api/sessions/${encodeURIComponent(id)}${tail ? `/${tail}` : ""}`;

// ---------------------------------------------------------------- session

let sessionId = tabStore.get(KEYS.session);

function setSession(id) {
  sessionId = id;
  tabStore.set(KEYS.session, id);
  $("session-id").textContent = id || "none";
  for (const button of ["session-delete", "stream-reconnect", "stream-replay", "stats-refresh"]) /** @type {HTMLButtonElement} */ ($(button)).disabled = !id;
  /** @type {HTMLButtonElement} */ ($("chat-abort")).disabled = !id;
}

async function createSession() {
  setStatus("Creating a session…");
  const res = await api("POST", "api/sessions", { source: "playground" });
  if (!res.ok) {
    show("access-message", errorBox(res.error, res.status));
    setStatus(`Could not create a session: ${res.error.code}${res.status ? ` (HTTP ${res.status})` : ""}.`, "error");
    return false;
  }
  show("access-message");
  stopStream();
  echoes.clear();
  setSession(res.data.sessionId);
  setStatus("Session created.", "ok");
  startStream({ fromStart: true });
  void refreshStats();
  if (!catalogLoaded) void loadModels();
  else if (chosenModel) void applyModel(chosenModel);
  else void loadSessionModel();
  return true;
}

const ensureSession = async () => (sessionId ? true : createSession());

function forgetSession(reason) {
  stopStream();
  settle(view.current);
  echoes.clear();
  setSession("");
  show("stats", h("p", { class: "placeholder" }, "No session yet."));
  if (reason) setStatus(reason, "error");
}

$("session-new").addEventListener("click", () => void createSession());

$("session-delete").addEventListener("click", async () => {
  if (!sessionId) return;
  const id = sessionId;
  const res = await api("DELETE", sessionPath(id));
  if (!res.ok && res.error.code !== "SESSION_NOT_FOUND") {
    show("access-message", errorBox(res.error, res.status));
    setStatus(`Could not delete the session: ${res.error.code}.`, "error");
    return;
  }
  show("access-message");
  forgetSession();
  resetView();
  setStatus("Session deleted.", "ok");
});

// ---------------------------------------------------------------- token

tokenInput.value = token;
tokenInput.addEventListener("input", () => {
  token = tokenInput.value.trim();
  tabStore.set(KEYS.token, token);
});
$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  token = tokenInput.value.trim();
  tabStore.set(KEYS.token, token);
  setStatus(token ? "Token set for this tab." : "No token: requests go without Authorization.", "ok");
  show("access-message");
  void loadModels();
  if (sessionId) {
    stream.retry = 0;
    startStream({ fromStart: false });
    void refreshStats();
  }
});
$("token-clear").addEventListener("click", () => {
  tokenInput.value = "";
  token = "";
  tabStore.set(KEYS.token, "");
  setStatus("Token cleared from this tab.", "ok");
  tokenInput.focus();
});

// ---------------------------------------------------------------- tools

function toolParams(tool) {
  const value = (id) => /** @type {HTMLInputElement} */ ($(id)).value.trim();
  const checked = (id) => /** @type {HTMLInputElement} */ ($(id)).checked;
  if (tool === "web_search") {
    const queries = lines(value("ws-queries"));
    const params = queries.length === 1 ? { query: queries[0] } : { queries };
    if (value("ws-num")) params.numResults = Number(value("ws-num"));
    if (checked("ws-content")) params.includeContent = true;
    return params;
  }
  if (tool === "fetch_content") {
    const urls = lines(value("fc-urls"));
    const params = urls.length === 1 ? { url: urls[0] } : { urls };
    if (checked("fc-reader")) params.preferReader = true;
    return params;
  }
  if (tool === "convert_content") {
    const params = convertFrom() === "url" ? { url: value("cc-url") } : {};
    if (value("cc-pages")) params.pages = value("cc-pages");
    if (value("cc-max")) params.maxContentChars = Number(value("cc-max"));
    return params;
  }
  const params = { responseId: value("gs-id") };
  if (value("gs-query")) params.query = value("gs-query");
  if (value("gs-query-index")) params.queryIndex = Number(value("gs-query-index"));
  if (value("gs-url")) params.url = value("gs-url");
  if (value("gs-url-index")) params.urlIndex = Number(value("gs-url-index"));
  return params;
}

// convert_content reads a URL or a file: the chosen one's field is shown (and required), the other hidden.
const convertFrom = () => (/** @type {HTMLInputElement} */ ($("cc-from-file")).checked ? "file" : "url");
const convertFile = /** @type {HTMLInputElement} */ ($("cc-file"));

function showConvertSource() {
  const fromFile = convertFrom() === "file";
  $("cc-url-field").hidden = fromFile;
  $("cc-file-field").hidden = !fromFile;
  /** @type {HTMLInputElement} */ ($("cc-url")).disabled = fromFile;
  convertFile.disabled = !fromFile;
  convertFile.required = fromFile;
}
for (const id of ["cc-from-url", "cc-from-file"]) $(id).addEventListener("change", showConvertSource);
showConvertSource();

/** The last file uploaded for convert_content: converting it again (other pages, say) reuses its attachment. */
let uploaded = /** @type {{file: File, sessionId: string, attachment: any} | null} */ (null);

/**
 * A chosen file as an attachment of this session: uploaded unless it already is.
 * Answers `{ok, attachment, again}` or the failed upload `{ok:false, status, error}`.
 */
async function attachmentFor(file) {
  if (uploaded && uploaded.file === file && uploaded.sessionId === sessionId) return { ok: true, attachment: uploaded.attachment, again: true };
  setStatus(`Uploading ${file.name}…`);
  show("result", h("p", { class: "placeholder" }, `Uploading ${file.name} (${formatBytes(file.size)})…`));
  const res = await uploadAttachment(sessionId, file);
  const attachment = res.ok ? res.data?.attachment : undefined;
  if (!res.ok) return res;
  if (!attachment || typeof attachment.id !== "string") return { ok: false, status: res.status, error: { code: "UPLOAD_FAILED", message: "The upload answered without an attachment id." } };
  uploaded = { file, sessionId, attachment };
  return { ok: true, attachment, again: false };
}

/** Runs a tool form's call; convert_content from a file uploads it first. */
async function runTool(tool) {
  const params = toolParams(tool);
  if (tool !== "convert_content" || convertFrom() === "url") return { res: await api("POST", sessionPath(sessionId, `tools/${tool}`), params) };
  const file = convertFile.files?.[0];
  if (!file) return { res: { ok: false, status: 0, error: { code: "NO_FILE", message: "Choose a file to convert." } } };
  const attached = await attachmentFor(file);
  if (!attached.ok) return { res: attached, failedUpload: file };
  setStatus(`Running ${tool}…`);
  show("result", h("p", { class: "placeholder" }, `Running ${tool} on ${file.name}…`));
  return { res: await api("POST", sessionPath(sessionId, `tools/${tool}`), { ...params, attachmentId: attached.attachment.id }), attached };
}

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
    if (failedUpload) setStatus(`The upload of ${failedUpload.name} failed: ${res.error.code}.`, "error");
    else setStatus(res.ok ? `${tool} answered in ${ms} ms.` : `${tool} failed: ${res.error.code}.`, res.ok ? "ok" : "error");
    if (res.status === 404 && res.error?.code === "SESSION_NOT_FOUND") forgetSession("The session no longer exists; create a new one.");
    void refreshStats();
  });
}

function renderResult(tool, res, ms, { attached, failedUpload } = {}) {
  const nodes = [];
  const cache = res.headers?.get("x-cache");
  const what = failedUpload ? `upload of ${failedUpload.name} failed, ` : "";
  nodes.push(h("p", { class: "meta" }, h("code", {}, tool), ` — ${what}${res.status ? `HTTP ${res.status}` : "no answer"}, ${ms} ms${cache ? `, cache ${cache}` : ""}`));
  if (attached) nodes.push(attachmentLine(attached));
  if (!res.ok) {
    nodes.push(errorBox(res.error, res.status));
    show("result", ...nodes);
    return;
  }
  const data = res.data ?? {};
  if (typeof data.responseId === "string") nodes.push(responseIdLine(data.responseId));
  nodes.push(...answerNodes(data, IN_PANEL));
  nodes.push(h("details", { class: "raw" }, h("summary", {}, "Raw JSON"), h("pre", {}, json(data))));
  show("result", ...nodes);
}

function responseIdLine(responseId) {
  const use = h("button", { type: "button", class: "secondary small" }, "Read again");
  use.addEventListener("click", () => {
    const input = /** @type {HTMLInputElement} */ ($("gs-id"));
    input.value = responseId;
    input.focus();
  });
  return h("p", { class: "meta" }, "responseId ", h("code", {}, responseId), " ", use);
}

/**
 * Where a tool's answer is shown: in the Result panel (under its h2, the Markdown open) or in a tool
 * card on the stream (under the card's h4, the Markdown folded away). The renderers below serve both.
 */
const IN_PANEL = { heading: "h3", fold: false };
const IN_CARD = { heading: "h5", fold: true };

/** A tool answer by its shape: web_search, fetch_content, convert_content, or get_search_content's stored result. */
function answerNodes(data, layout) {
  if (!data || typeof data !== "object") return [];
  if (Array.isArray(data.queries)) return queryResults(data.queries, layout);
  if (typeof data.query === "string" && Array.isArray(data.results)) return queryResults([data], layout);
  if (Array.isArray(data.results)) return pages(data.results, layout);
  if (typeof data.content === "string" && typeof data.source === "string") return [convertedDocument(data, layout)];
  if (typeof data.content === "string") return pages([data], layout);
  if (data.result && typeof data.result === "object") return answerNodes(data.result, layout);
  return [];
}

/** A page's or document's Markdown as preformatted text; folded in a card, its summary giving the size. */
function markdownBlock(content, label, truncated, layout) {
  const text = String(content ?? "");
  const pre = h("pre", { class: "markdown", "aria-label": label, text: clip(text) });
  if (!layout.fold) return pre;
  return h("details", {}, h("summary", {}, `Markdown (${text.length} characters${truncated ? ", truncated" : ""})`), pre);
}

/** fetch_content results: each page's title, facts and Markdown. */
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
    if (page.truncated) facts.push("truncated");
    if (facts.length) item.append(h("p", { class: "meta" }, facts.join(" · ")));
    if (page.parseWarning) item.append(h("p", { class: "meta" }, `Parse warning: ${page.parseWarning}`));
    if (page.metadata && typeof page.metadata === "object") {
      const meta = Object.entries(page.metadata).map(([k, v]) => `${k}: ${v}`);
      if (meta.length) item.append(h("p", { class: "meta" }, meta.join(" · ")));
    }
    item.append(markdownBlock(page.content, `Markdown of ${page.url ?? `page ${index + 1}`}`, page.truncated, layout));
    return item;
  });
}

function attachmentLine({ attachment, again }) {
  return h(
    "p",
    { class: "meta" },
    again ? "Attachment " : "Uploaded as attachment ",
    h("code", {}, String(attachment.id)),
    ` — ${String(attachment.name ?? "")}, ${String(attachment.mimeType ?? "")}, ${formatBytes(attachment.size)}${again ? " (already uploaded)" : ""}`,
  );
}

/** What a convert_content answer says of its document, beyond the Markdown. */
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

/** A convert_content answer: the document's title, source and facts, its Markdown as preformatted text. */
function convertedDocument(doc, layout) {
  const item = h("article", { class: "result-item" });
  item.append(h(layout.heading, {}, String(doc.metadata?.title || doc.metadata?.fileName || doc.source || "Document")));
  item.append(h("p", { class: "meta" }, "Source ", safeLink(doc.source)));
  item.append(h("p", { class: "meta" }, documentFacts(doc).join(" · ")));
  if (doc.truncated) item.append(h("p", { class: "meta" }, "Truncated: more pages or characters than this answer holds (see Pages and Max characters)."));
  item.append(markdownBlock(doc.content, `Markdown of ${doc.source ?? "the document"}`, doc.truncated, layout));
  return item;
}

/** web_search queries: each result's title, URL, snippet and (when fetched) content. */
function queryResults(queries, layout) {
  return queries.map((query) => {
    const item = h("section", { class: "result-item" });
    item.append(h(layout.heading, {}, `“${String(query?.query ?? "")}”`));
    const results = Array.isArray(query?.results) ? query.results : [];
    if (results.length === 0) {
      item.append(h("p", { class: "placeholder" }, "No results."));
      return item;
    }
    const list = h("ol", { class: "result-list" });
    for (const result of results) {
      const li = h("li", {}, h("strong", {}, safeLink(result?.url, result?.title || result?.url)));
      li.append(h("p", { class: "meta" }, String(result?.url ?? ""), result?.source ? ` · ${result.source}` : ""));
      if (result?.snippet) li.append(h("p", {}, String(result.snippet)));
      if (result?.content && typeof result.content.content === "string") {
        li.append(h("details", {}, h("summary", {}, `Page content (${result.content.content.length} characters)`), h("pre", { class: "markdown", text: clip(result.content.content) })));
      }
      list.append(li);
    }
    item.append(list);
    return item;
  });
}

// ---------------------------------------------------------------- models and chat

let catalog = { models: [] };
let catalogLoaded = false;
let chosenModel = null;
const modelSelect = /** @type {HTMLSelectElement} */ ($("model"));
const chatInput = /** @type {HTMLTextAreaElement} */ ($("chat-input"));
const chatSend = /** @type {HTMLButtonElement} */ ($("chat-send"));

async function loadModels() {
  const res = await api("GET", "api/config/models");
  chatInput.disabled = false;
  chatSend.disabled = false;
  if (!res.ok) {
    $("model-field").hidden = true;
    show("model-message", errorBox(res.error, res.status));
    setStatus(res.status === 401 ? "401 UNAUTHORIZED: this server needs an API token — enter it under Access." : `Could not list the models: ${res.error.code}.`, "error");
    return;
  }
  catalog = { models: res.data?.models ?? [] };
  catalogLoaded = true;
  if (catalog.models.length === 0) {
    $("model-field").hidden = true;
    show(
      "model-message",
      h(
        "div",
        { class: "notice" },
        h("p", {}, h("strong", {}, "No model is configured"), ", so the agent cannot answer yet."),
        h(
          "p",
          {},
          "Start the server with ",
          h("code", {}, "AGENT_CONFIG"),
          " naming a model provider, e.g. ",
          h("code", {}, `AGENT_CONFIG='{"modelProviders":{"local":{"api":"openai-compatible","baseURL":"http://127.0.0.1:11434/v1","apiKey":"none"}},"defaultModel":"llama3.1"}' npm start`),
          ", or store one with ",
          h("code", {}, "PUT /api/config/auth"),
          " (",
          h("code", {}, "modelProviders"),
          "). See docs/agent.md.",
        ),
        h("p", {}, "Slash commands need no model: ", h("code", {}, "/search <query>"), ", ", h("code", {}, "/fetch <url>"), ", ", h("code", {}, "/convert <url>"), ", ", h("code", {}, "/get <responseId>"), "."),
      ),
    );
    if (!sessionId) setStatus("Ready. No model is configured; the tools work.", "ok");
    return;
  }
  show("model-message");
  modelSelect.replaceChildren(h("option", { value: "" }, "Server default"));
  catalog.models.forEach((model, index) => {
    modelSelect.append(h("option", { value: String(index) }, `${model.provider} · ${model.name || model.id}`));
  });
  $("model-field").hidden = false;
  if (sessionId) void loadSessionModel();
  else setStatus(`Ready. ${catalog.models.length} model${catalog.models.length === 1 ? "" : "s"} available.`, "ok");
}

async function loadSessionModel() {
  if (!sessionId || catalog.models.length === 0) return;
  const res = await api("GET", sessionPath(sessionId, "state"));
  if (!res.ok) return;
  const current = res.data?.state?.model;
  const index = current ? catalog.models.findIndex((m) => m.provider === current.provider && m.id === current.id) : -1;
  modelSelect.value = index >= 0 ? String(index) : "";
}

async function applyModel(model) {
  if (!sessionId) return;
  const res = await api("POST", sessionPath(sessionId, "model"), { provider: model.provider, modelId: model.id });
  if (res.ok) {
    show("chat-message");
    setStatus(`Model: ${model.provider} · ${model.name || model.id}.`, "ok");
  } else show("chat-message", errorBox(res.error, res.status));
}

modelSelect.addEventListener("change", () => {
  const model = modelSelect.value === "" ? null : catalog.models[Number(modelSelect.value)];
  chosenModel = model ?? null;
  if (model) void applyModel(model);
});

chatInput.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey && !event.isComposing) {
    event.preventDefault();
    /** @type {HTMLFormElement} */ ($("chat-form")).requestSubmit();
  }
});

$("chat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const message = chatInput.value;
  if (!message.trim() || chatSend.disabled) return;
  chatSend.disabled = true;
  try {
    if (!(await ensureSession())) {
      show("chat-message", errorBox({ code: "NO_SESSION", message: "A message needs a session; it could not be created (see Access)." }));
      return;
    }
    const echo = echoes.add(message);
    const res = await api("POST", sessionPath(sessionId, "messages"), { message });
    if (!res.ok) {
      echoes.remove(echo);
      show("chat-message", errorBox(res.error, res.status));
      setStatus(`The message was not sent: ${res.error.code}.`, "error");
      return;
    }
    chatInput.value = "";
    show("chat-message");
    setStatus("Message sent; the answer streams below.", "ok");
  } finally {
    chatSend.disabled = false;
    chatInput.focus();
  }
});

$("chat-abort").addEventListener("click", async () => {
  if (!sessionId) return;
  const res = await api("POST", sessionPath(sessionId, "abort"));
  if (res.ok) setStatus("Abort sent.", "ok");
  else show("chat-message", errorBox(res.error, res.status));
});

// ---------------------------------------------------------------- the stream view

const log = $("stream-log");
const view = {
  /** The message record chunks without an id belong to. */
  current: null,
  /** toolCallId → tool card, for the cards still in the log. */
  tools: new Map(),
  /** After a resync: chunks of messages the history already showed are skipped. */
  skipUntilNewStart: false,
  shownIds: new Set(),
  /** A message's article → its record, so that what the view keeps of it goes when the article does. */
  records: new WeakMap(),
};

function resetView() {
  view.tools.clear();
  view.current = null;
  view.skipUntilNewStart = false;
  view.shownIds.clear();
  log.replaceChildren(h("p", { class: "placeholder" }, "The session's stream appears here: tool calls, agent turns, control frames."));
  echoes.unrender();
}

/** Changes the log, keeping it scrolled to the end when it was there. */
function keepAtEnd(update) {
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
  update();
  if (atEnd) log.scrollTop = log.scrollHeight;
}

/** Appends an entry to the log; past MAX_LOG_ENTRIES the oldest entries go (never the message still streaming). */
function appendToLog(node) {
  keepAtEnd(() => {
    log.querySelector(":scope > .placeholder")?.remove();
    log.append(node);
    for (let entry = log.firstElementChild; entry && log.childElementCount > MAX_LOG_ENTRIES; ) {
      const next = entry.nextElementSibling;
      if (entry !== view.current?.article) {
        entry.remove();
        forgetEntry(entry);
      }
      entry = next;
    }
  });
}

/** Drops what the view kept of a message that left the log: its id, its tool cards, its echo. */
function forgetEntry(entry) {
  const record = view.records.get(entry);
  if (!record) return;
  view.records.delete(entry);
  if (record.messageId) view.shownIds.delete(record.messageId);
  for (const toolCallId of record.toolCallIds) view.tools.delete(toolCallId);
  echoes.forget(entry);
}

/** A message in the log; a streaming one is aria-busy until it settles, so screen readers read it once, whole. */
function newMessage(role, messageId, { streaming = false } = {}) {
  const body = h("div", { class: "msg-body" });
  const head = h("p", { class: "msg-head" }, role === "user" ? "you" : "assistant", messageId ? ` · ${messageId}` : "");
  const article = h("article", { class: `msg ${role}`, "aria-label": role === "user" ? "Your message" : "Assistant message", "aria-busy": streaming ? "true" : undefined }, head, body);
  const record = { article, body, parts: new Map(), toolCallIds: [], messageId };
  view.records.set(article, record);
  appendToLog(article);
  return record;
}

/** A streamed message is complete (finished, failed, aborted or cut short): no longer busy. */
function settle(record) {
  record?.article.removeAttribute("aria-busy");
}

const currentMessage = () => (view.current ??= newMessage("assistant", undefined, { streaming: true }));

/** A text or reasoning part: its element, and the one text node its deltas are added to. */
function textPart(id) {
  const message = currentMessage();
  let part = message.parts.get(`text:${id}`);
  if (!part) {
    const node = document.createTextNode("");
    part = { element: h("div", { class: "text-part" }, node), node };
    message.parts.set(`text:${id}`, part);
    message.body.append(part.element);
  }
  return part;
}

function reasoningPart(id) {
  const message = currentMessage();
  let part = message.parts.get(`reasoning:${id}`);
  if (!part) {
    const node = document.createTextNode("");
    part = { element: h("details", { class: "reasoning", open: true }, h("summary", {}, "Reasoning"), h("div", { class: "reasoning-text" }, node)), node };
    message.parts.set(`reasoning:${id}`, part);
    message.body.append(part.element);
  }
  return part;
}

const addText = (part, text) => {
  part.node.data += String(text ?? "");
};

function toolCard(toolCallId, toolName) {
  let card = view.tools.get(toolCallId);
  if (!card) {
    const state = h("span", { class: "tool-state" }, "input streaming");
    const name = h("code", {}, String(toolName ?? "tool"));
    const input = document.createTextNode("");
    const output = h("div", { class: "tool-output" });
    const element = h(
      "details",
      { class: "tool-call", open: true, "data-state": "input" },
      h("summary", {}, "Tool call ", name, " — ", state),
      h("p", { class: "meta" }, "call ", h("code", {}, String(toolCallId))),
      h("h4", {}, "Input"),
      h("pre", { class: "tool-input" }, input),
      output,
    );
    // Of streamed input only what is shown is kept: its first MAX_SHOWN_CHARS characters, and the length of the whole.
    card = { element, state, name, input, output, inputShown: "", inputLength: 0, toolName };
    view.tools.set(toolCallId, card);
    const message = currentMessage();
    message.toolCallIds.push(toolCallId);
    message.body.append(element);
  }
  if (toolName && !card.toolName) {
    card.toolName = toolName;
    card.name.textContent = String(toolName);
  }
  return card;
}

function setToolInput(card, text) {
  card.input.data = text;
  card.inputShown = "";
  card.inputLength = 0;
}

function streamToolInput(card, delta) {
  const room = MAX_SHOWN_CHARS - card.inputShown.length;
  card.inputLength += delta.length;
  if (card.inputLength <= MAX_SHOWN_CHARS) {
    card.inputShown += delta;
    card.input.data += delta;
    return;
  }
  if (room > 0) card.inputShown += delta.slice(0, room);
  card.input.data = clipped(card.inputShown, card.inputLength);
}

function setToolState(card, state, label) {
  card.element.dataset.state = state;
  card.state.textContent = label;
}

/** A tool's output in its card: rendered as in the Result panel, the Markdown folded; other shapes as JSON. */
function toolOutput(card, output) {
  const nodes = [h("h4", {}, "Output")];
  if (typeof output?.responseId === "string") nodes.push(responseIdLine(output.responseId));
  const shown = answerNodes(output, IN_CARD);
  if (shown.length) nodes.push(...shown);
  else nodes.push(h("pre", { text: typeof output === "string" ? clip(output) : json(output) }));
  card.output.replaceChildren(...nodes);
}

function frameNote(text, kind = "") {
  return h("p", { class: `frame-note ${kind}` }, text);
}

/** One UI-message chunk (shared/src/sse-frame.ts lists them). */
function renderChunk(chunk) {
  if (!chunk || typeof chunk.type !== "string") return;
  if (view.skipUntilNewStart) {
    if (chunk.type !== "start" || (chunk.messageId && view.shownIds.has(chunk.messageId))) return;
    view.skipUntilNewStart = false;
  }
  switch (chunk.type) {
    case "start":
      settle(view.current);
      view.current = newMessage("assistant", chunk.messageId, { streaming: true });
      break;
    case "start-step":
    case "finish-step":
    case "message-metadata":
    case "text-end":
      break;
    case "text-start":
      textPart(chunk.id);
      break;
    case "text-delta":
      keepAtEnd(() => addText(textPart(chunk.id), chunk.delta));
      break;
    case "reasoning-start":
      reasoningPart(chunk.id);
      break;
    case "reasoning-delta":
      keepAtEnd(() => addText(reasoningPart(chunk.id), chunk.delta));
      break;
    case "reasoning-end":
      reasoningPart(chunk.id).element.open = false;
      break;
    case "tool-input-start":
      toolCard(chunk.toolCallId, chunk.toolName);
      break;
    case "tool-input-delta": {
      keepAtEnd(() => streamToolInput(toolCard(chunk.toolCallId), String(chunk.inputTextDelta ?? "")));
      break;
    }
    case "tool-input-available": {
      const card = toolCard(chunk.toolCallId, chunk.toolName);
      setToolInput(card, json(chunk.input));
      setToolState(card, "running", "running");
      break;
    }
    case "tool-input-error": {
      const card = toolCard(chunk.toolCallId, chunk.toolName);
      setToolInput(card, json(chunk.input));
      setToolState(card, "error", "invalid input");
      card.output.replaceChildren(errorBox(splitErrorText(chunk.errorText), undefined, { alert: false }));
      break;
    }
    case "tool-approval-request":
      setToolState(toolCard(chunk.toolCallId), "input", "waiting for approval");
      break;
    case "tool-approval-response":
      setToolState(toolCard(chunk.toolCallId), chunk.approved ? "running" : "error", chunk.approved ? "approved" : `denied${chunk.reason ? `: ${chunk.reason}` : ""}`);
      break;
    case "tool-output-available": {
      const card = toolCard(chunk.toolCallId);
      toolOutput(card, chunk.output);
      setToolState(card, chunk.preliminary ? "running" : "done", chunk.preliminary ? "partial output" : "done");
      break;
    }
    case "tool-output-error": {
      const card = toolCard(chunk.toolCallId);
      setToolState(card, "error", "failed");
      card.output.replaceChildren(h("h4", {}, "Error"), errorBox(splitErrorText(chunk.errorText), undefined, { alert: false }));
      break;
    }
    case "tool-output-denied":
      setToolState(toolCard(chunk.toolCallId), "error", "denied");
      break;
    case "error":
      keepAtEnd(() => currentMessage().body.append(errorBox(splitErrorText(chunk.errorText), undefined, { alert: false })));
      settle(view.current);
      break;
    case "abort":
      keepAtEnd(() => currentMessage().body.append(frameNote(`Aborted${chunk.reason ? `: ${chunk.reason}` : ""}.`, "warn")));
      settle(view.current);
      break;
    case "finish":
      keepAtEnd(() => currentMessage().body.append(frameNote(`Finished${chunk.finishReason ? ` (${chunk.finishReason})` : ""}.`)));
      settle(view.current);
      view.current = null;
      scheduleStats();
      break;
    case "source-url":
      keepAtEnd(() => currentMessage().body.append(h("p", { class: "meta" }, "Source: ", safeLink(chunk.url, chunk.title || chunk.url))));
      break;
    case "source-document":
      keepAtEnd(() => currentMessage().body.append(h("p", { class: "meta" }, `Source document: ${chunk.title} (${chunk.mediaType})`)));
      break;
    case "file":
      keepAtEnd(() => currentMessage().body.append(h("p", { class: "meta" }, `File: ${chunk.mediaType}`)));
      break;
    default:
      if (chunk.type.startsWith("data-")) {
        const data = chunk.data;
        const text = chunk.type === "data-steer" && data && typeof data === "object" && typeof (data.text ?? data.message) === "string" ? String(data.text ?? data.message) : json(data);
        keepAtEnd(() => currentMessage().body.append(h("p", { class: "frame-note" }, `${chunk.type}: `, text)));
      } else {
        keepAtEnd(() => currentMessage().body.append(frameNote(`Unknown chunk ${chunk.type}.`, "warn")));
      }
  }
}

/** A control frame: stream errors, resync, approvals, ui-rpc answers. */
async function renderControl(payload) {
  if (!payload || typeof payload.control !== "string") return;
  if (payload.control === "error") {
    appendToLog(h("div", { class: "frame-note warn" }, errorBox({ code: String(payload.code ?? "error"), message: String(payload.message ?? "") }, undefined, { alert: false })));
    if (payload.code === "deleted" || payload.code === "idle") {
      forgetSession(payload.code === "deleted" ? "The session was deleted; create a new one." : "The session ended after being idle; create a new one.");
      setStreamState("closed", `closed: ${payload.code}`);
    }
    return;
  }
  if (payload.control === "resync") {
    appendToLog(frameNote(`Frames after ${payload.lastEventId} are no longer buffered (oldest ${payload.oldestAvailableId}); showing the stored history.`, "warn"));
    await showHistory();
    return;
  }
  if (payload.control === "extension-ui" && payload.request) {
    appendToLog(approvalBox(payload.request));
    return;
  }
  if (payload.control === "ui-rpc") {
    appendToLog(frameNote(`ui-rpc answer ${payload.response?.correlationId ?? ""}: ${payload.response?.ok ? "ok" : String(payload.response?.error ?? "failed")}`));
    return;
  }
  appendToLog(frameNote(`Control frame ${payload.control}.`));
}

function approvalBox(request) {
  const box = h("div", { class: "approval", role: "group", "aria-label": String(request.title ?? "Approval") });
  const answer = async (confirmed) => {
    for (const button of box.querySelectorAll("button")) /** @type {HTMLButtonElement} */ (button).disabled = true;
    const res = await api("POST", sessionPath(sessionId, "ui-response"), { id: request.id, confirmed });
    box.append(res.ok ? frameNote(confirmed ? "Allowed." : "Denied.") : errorBox(res.error, res.status));
  };
  box.append(
    h("p", {}, h("strong", {}, String(request.title ?? "Approval needed"))),
    h("p", { class: "text-part" }, String(request.message ?? "")),
    h("div", { class: "row" }, h("button", { type: "button", onclick: () => void answer(true) }, "Allow"), h("button", { type: "button", class: "secondary", onclick: () => void answer(false) }, "Deny")),
  );
  return box;
}

/** After a resync: the stored messages (AI SDK UIMessages), then only the frames of newer messages. */
async function showHistory() {
  if (!sessionId) return;
  const res = await api("GET", sessionPath(sessionId, "messages"));
  if (!res.ok) {
    appendToLog(errorBox(res.error, res.status, { alert: false }));
    return;
  }
  settle(view.current);
  for (const message of res.data?.messages ?? []) {
    const record = newMessage(message.role === "user" ? "user" : "assistant", message.id);
    view.current = record;
    if (message.id) view.shownIds.add(message.id);
    for (const part of message.parts ?? []) {
      if (part.type === "text") addText(textPart(`h${record.parts.size}`), part.text);
      else if (part.type === "reasoning") {
        const reasoning = reasoningPart(`h${record.parts.size}`);
        addText(reasoning, part.text);
        reasoning.element.open = false;
      } else if (typeof part.type === "string" && (part.type.startsWith("tool-") || part.type === "dynamic-tool")) {
        const card = toolCard(part.toolCallId ?? `h${record.parts.size}`, part.toolName ?? part.type.slice(5));
        setToolInput(card, json(part.input));
        if (part.state === "output-available") {
          toolOutput(card, part.output);
          setToolState(card, "done", "done");
        } else if (part.state === "output-error") {
          card.output.replaceChildren(h("h4", {}, "Error"), errorBox(splitErrorText(part.errorText), undefined, { alert: false }));
          setToolState(card, "error", "failed");
        } else setToolState(card, "running", String(part.state ?? ""));
      }
    }
  }
  view.current = null;
  view.skipUntilNewStart = true;
}

// ---------------------------------------------------------------- user messages (kept so a reload shows them)

/** The stream carries no user messages: the ones sent from this tab are kept with the event id they followed. */
const echoes = {
  list: /** @type {{after:number,text:string,rendered?:boolean}[]} */ (
    (() => {
      try {
        const parsed = JSON.parse(tabStore.get(KEYS.echoes) || "[]");
        return Array.isArray(parsed) ? parsed.filter((e) => e && typeof e.text === "string" && typeof e.after === "number") : [];
      } catch {
        return [];
      }
    })()
  ),
  save() {
    tabStore.set(KEYS.echoes, this.list.length ? JSON.stringify(this.list.map(({ after, text }) => ({ after, text }))) : "");
  },
  render(echo) {
    const record = newMessage("user");
    record.body.append(h("div", { class: "text-part" }, echo.text));
    echo.rendered = true;
    echo.element = record.article;
  },
  add(text) {
    const echo = { after: stream.lastEventId, text };
    this.list.push(echo);
    // No more are kept than the log shows.
    if (this.list.length > MAX_LOG_ENTRIES) this.list.splice(0, this.list.length - MAX_LOG_ENTRIES);
    this.save();
    this.render(echo);
    return echo;
  },
  remove(echo) {
    echo.element?.remove();
    this.list = this.list.filter((e) => e !== echo);
    this.save();
  },
  /** A shown message left the log. */
  forget(element) {
    for (const echo of this.list) if (echo.element === element) echo.element = undefined;
  },
  /** Shows the messages sent before event `id`. */
  before(id) {
    for (const echo of this.list) if (!echo.rendered && echo.after < id) this.render(echo);
  },
  unrender() {
    for (const echo of this.list) echo.rendered = false;
  },
  clear() {
    this.list = [];
    this.save();
  },
};

// ---------------------------------------------------------------- the SSE connection

const stream = {
  /** The connection's AbortController; a connection that is no longer this one stops quietly. */
  controller: /** @type {AbortController | null} */ (null),
  lastEventId: 0,
  /** Failed connections in a row; only a connection that delivers something (a frame or a keep-alive) ends the row. */
  retry: 0,
  /** The keep-alive interval: the server's default until the stream shows its own. */
  heartbeatMs: HEARTBEAT_MS,
  wanted: false,
  timer: 0,
  watchdog: 0,
  queue: Promise.resolve(),
  /** Set on load with a stored session, until its stream is live. */
  resuming: false,
};

function setStreamState(state, label) {
  const badge = $("stream-state");
  badge.dataset.state = state;
  badge.textContent = label;
}

function setLastEventId(id) {
  stream.lastEventId = id;
  $("stream-last-id").textContent = String(id);
}

/** Server-sent events parsed from text as it arrives: `id:`, `event:`, `data:` lines, comments, blank-line dispatch. */
function sseParser(onFrame, onComment) {
  let buffer = "";
  let data = [];
  let event = "";
  let id;
  const line = (text) => {
    if (text === "") {
      if (data.length) onFrame({ id, event: event || "message", data: data.join("\n") });
      data = [];
      event = "";
      id = undefined;
      return;
    }
    if (text.startsWith(":")) return onComment(text.slice(1).trim());
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
  };
  return {
    push(text) {
      buffer += text;
      const ends = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = ends.exec(buffer); match; match = ends.exec(buffer)) {
        // A lone \r at the end may be the first half of \r\n.
        if (match[0] === "\r" && match.index === buffer.length - 1) break;
        line(buffer.slice(start, match.index));
        start = ends.lastIndex;
      }
      buffer = buffer.slice(start);
    },
  };
}

function handleFrame(frame) {
  const id = frame.id === undefined ? NaN : Number(frame.id);
  if (Number.isFinite(id)) echoes.before(id);
  let payload;
  try {
    payload = JSON.parse(frame.data);
  } catch {
    appendToLog(frameNote(`A frame that is not JSON (event ${frame.event}).`, "warn"));
  }
  let done;
  if (payload?.kind === "uiMessageChunk") renderChunk(payload.chunk);
  else if (payload?.kind === "control") done = renderControl(payload.payload);
  else if (payload) appendToLog(frameNote(`Frame of kind ${String(payload.kind)}.`, "warn"));
  if (Number.isFinite(id)) setLastEventId(id);
  return done;
}

function stopStream() {
  stream.wanted = false;
  clearTimeout(stream.timer);
  clearTimeout(stream.watchdog);
  stream.controller?.abort();
  stream.controller = null;
  setStreamState("idle", "not connected");
}

/** Follows the session's stream; `fromStart` clears the view and replays every buffered frame. */
function startStream({ fromStart }) {
  stopStream();
  if (!sessionId) return;
  if (fromStart) {
    resetView();
    setLastEventId(0);
  }
  stream.wanted = true;
  void connect(sessionId);
}

/** How long a stream may stay silent: a few missed keep-alives, never less than the floor. */
const silenceLimit = () => Math.max(SILENCE_FLOOR_MS, SILENCE_HEARTBEATS * stream.heartbeatMs);

function scheduleReconnect(reason) {
  clearTimeout(stream.watchdog);
  stream.controller?.abort();
  stream.controller = null;
  if (!stream.wanted || !sessionId) return;
  // Exponential backoff up to the cap, each delay drawn from its upper half so that pages cut off together do not come back together.
  const ceiling = Math.min(RETRY_FIRST_MS * 2 ** stream.retry, RETRY_CAP_MS);
  const delay = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  stream.retry = Math.min(stream.retry + 1, 30);
  setStreamState("reconnecting", `reconnecting in ${Math.ceil(delay / 1000)} s`);
  setStatus(`${reason}; reconnecting with Last-Event-ID ${stream.lastEventId}.`);
  const id = sessionId;
  stream.timer = setTimeout(() => void connect(id), delay);
}

async function connect(id) {
  const controller = new AbortController();
  stream.controller = controller;
  const mine = () => stream.controller === controller && sessionId === id;
  setStreamState(stream.retry ? "reconnecting" : "connecting", "connecting…");
  const headers = authHeaders();
  headers.set("accept", "text/event-stream");
  headers.set("last-event-id", String(stream.lastEventId));
  let res;
  try {
    res = await fetch(sessionPath(id, "stream"), { headers, cache: "no-store", credentials: "same-origin", signal: controller.signal });
  } catch {
    if (mine()) scheduleReconnect("The stream could not connect");
    return;
  }
  if (!mine()) return;
  if (!res.ok || !res.body) {
    const { text, data } = await readBody(res);
    if (!mine()) return;
    const error = errorOf(res.status, data, text);
    if (res.status >= 500 || res.status === 429) {
      scheduleReconnect(`The stream answered ${error.code}`);
      return;
    }
    stream.wanted = false;
    stream.controller = null;
    setStreamState("closed", `closed: ${error.code}`);
    appendToLog(errorBox(error, res.status));
    if (error.code === "SESSION_NOT_FOUND" || error.code === "SESSION_ENDED") forgetSession(`The stored session can no longer be followed (${error.code}); create a new one.`);
    else setStatus(`The stream was refused: ${error.code} (HTTP ${res.status}).`, "error");
    return;
  }
  const resumed = stream.retry > 0;
  setStreamState("live", "live");
  if (stream.resuming) setStatus("Session resumed: its stream is replayed below.", "ok");
  else if (resumed) setStatus(`The stream is live again, resumed after event ${stream.lastEventId}.`, "ok");
  stream.resuming = false;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  // The backoff starts over once the stream delivers something: one that is accepted and then closes keeps backing off.
  let lastComment = 0;
  const parser = sseParser(
    (frame) => {
      stream.retry = 0;
      stream.queue = stream.queue.then(() => (mine() ? handleFrame(frame) : undefined)).catch(() => {});
    },
    () => {
      stream.retry = 0;
      // The only comments are keep-alives: the time between two is the server's interval (capped, so that waking from sleep does not stretch it).
      const now = performance.now();
      if (lastComment) stream.heartbeatMs = Math.min(now - lastComment, 10 * 60_000);
      lastComment = now;
    },
  );
  try {
    for (;;) {
      clearTimeout(stream.watchdog);
      stream.watchdog = setTimeout(() => {
        if (mine()) scheduleReconnect("The stream went silent");
      }, silenceLimit());
      const { value, done } = await reader.read();
      if (done || !mine()) break;
      parser.push(value);
    }
  } catch {
    // Aborted or cut off: decided below.
  }
  await stream.queue;
  if (!mine()) return;
  scheduleReconnect("The stream ended");
}

$("stream-reconnect").addEventListener("click", () => {
  stream.retry = 0;
  startStream({ fromStart: false });
});
$("stream-replay").addEventListener("click", () => {
  stream.retry = 0;
  startStream({ fromStart: true });
});
window.addEventListener("pagehide", () => stopStream());

// ---------------------------------------------------------------- stats

let statsTimer = 0;
function scheduleStats() {
  clearTimeout(statsTimer);
  statsTimer = setTimeout(() => void refreshStats(), 300);
}

async function refreshStats() {
  if (!sessionId) return;
  const res = await api("GET", sessionPath(sessionId, "stats"));
  if (!res.ok) {
    show("stats", errorBox(res.error, res.status, { alert: false }));
    return;
  }
  const stats = res.data?.stats ?? {};
  const web = stats.web ?? {};
  const tokens = stats.tokens ?? {};
  const count = (value) => (value === undefined || value === null ? "—" : typeof value === "object" ? json(value) : String(value));
  const rows = [
    ["Tool calls", count(stats.toolCalls)],
    ["Tool results", count(stats.toolResults)],
    ["Messages", `${count(stats.totalMessages)} (user ${count(stats.userMessages)}, assistant ${count(stats.assistantMessages)})`],
    ["Tokens", `${count(tokens.total)} (input ${count(tokens.input)}, output ${count(tokens.output)}, cache read ${count(tokens.cacheRead)}, cache write ${count(tokens.cacheWrite)})`],
    ["Cost (USD)", typeof stats.cost === "number" ? stats.cost.toFixed(6) : count(stats.cost)],
    ["Searches", count(web.searches)],
    ["Fetches", count(web.fetches)],
    ["Conversions", count(web.conversions)],
    ["Pages fetched", count(web.pagesFetched)],
    ["Bytes fetched", formatBytes(web.bytesFetched)],
    ["Cache hits / misses", `${count(web.cacheHits)} / ${count(web.cacheMisses)}`],
    ["Errors", web.errors && Object.keys(web.errors).length ? Object.entries(web.errors).map(([code, n]) => `${code} ${n}`).join(", ") : "none"],
    [
      "Providers",
      web.providers && Object.keys(web.providers).length
        ? Object.entries(web.providers)
            .map(([name, p]) => `${name}: ${count(p?.searches)} searches, p50 ${count(p?.p50Ms)} ms`)
            .join("; ")
        : "none",
    ],
  ];
  const table = h("table", {}, h("caption", { class: "meta" }, `Updated ${new Date().toLocaleTimeString()}`));
  const body = h("tbody");
  for (const [name, value] of rows) body.append(h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, value)));
  table.append(body);
  show("stats", table);
}

$("stats-refresh").addEventListener("click", () => void refreshStats());

// ---------------------------------------------------------------- start

setSession(sessionId);
void loadModels();
if (sessionId) {
  setStatus("Resuming the session of this tab…");
  stream.resuming = true;
  startStream({ fromStart: true });
  void refreshStats();
}
