// @ts-check
// The Model list (GET /api/config/models): the session's model, chosen per session (POST /model).

import { api, sessionPath } from "./api.js";
import { $, h, show } from "./dom.js";
import { state } from "./state.js";
import { errorBox, setStatus } from "./status.js";

/** @typedef {import("./state.js").Model} Model */
/** @template T @typedef {import("./api.js").Answer<T>} Answer */
/** @template {keyof import("./api.js").Shared} K @typedef {import("./api.js").Shape<K>} Shape */

const modelSelect = () => /** @type {HTMLSelectElement} */ ($("model"));

/** The server's models: the Model list, or how to configure one when there is none; the chat opens either way. */
export async function loadModels() {
  const res = /** @type {Answer<Shape<"ModelCatalogSchema">>} */ (await api("GET", "api/config/models"));
  /** @type {HTMLTextAreaElement} */ ($("chat-input")).disabled = false;
  /** @type {HTMLButtonElement} */ ($("chat-send")).disabled = false;
  if (!res.ok) {
    $("model-field").hidden = true;
    show("model-message", errorBox(res.error, res.status));
    setStatus(res.status === 401 ? "401 UNAUTHORIZED: this server needs an API token — enter it under Access." : `Could not list the models: ${res.error.code}.`, "error");
    return;
  }
  state.catalog = { models: res.data?.models ?? [] };
  state.catalogLoaded = true;
  if (state.catalog.models.length === 0) {
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
    if (!state.sessionId) setStatus("Ready. No model is configured; the tools work.", "ok");
    return;
  }
  show("model-message");
  modelSelect().replaceChildren(h("option", { value: "" }, "Server default"));
  state.catalog.models.forEach((model, index) => {
    modelSelect().append(h("option", { value: String(index) }, `${model.provider} · ${model.name || model.id}`));
  });
  $("model-field").hidden = false;
  if (state.sessionId) void loadSessionModel();
  else setStatus(`Ready. ${state.catalog.models.length} model${state.catalog.models.length === 1 ? "" : "s"} available.`, "ok");
}

/** The Model list shows the session's model. */
async function loadSessionModel() {
  if (!state.sessionId || state.catalog.models.length === 0) return;
  const res = /** @type {Answer<{state: Shape<"SessionStateSchema">}>} */ (await api("GET", sessionPath(state.sessionId, "state")));
  if (!res.ok) return;
  const current = res.data?.state?.model;
  const index = current ? state.catalog.models.findIndex((m) => m.provider === current.provider && m.id === current.id) : -1;
  modelSelect().value = index >= 0 ? String(index) : "";
}

/**
 * A model for the session (POST /model).
 * @param {Model} model
 */
async function applyModel(model) {
  if (!state.sessionId) return;
  /** @type {import("./api.js").Sent<"SetModelRequestSchema">} */
  const request = { provider: model.provider, modelId: model.id };
  const res = await api("POST", sessionPath(state.sessionId, "model"), request);
  if (res.ok) {
    show("chat-message");
    setStatus(`Model: ${model.provider} · ${model.name || model.id}.`, "ok");
  } else show("chat-message", errorBox(res.error, res.status));
}

/** A new session gets the model chosen in this tab, or shows the one it has. */
export function modelForNewSession() {
  if (!state.catalogLoaded) void loadModels();
  else if (state.chosenModel) void applyModel(state.chosenModel);
  else void loadSessionModel();
}

export function wireModels() {
  const select = modelSelect();
  select.addEventListener("change", () => {
    const model = select.value === "" ? null : state.catalog.models[Number(select.value)];
    state.chosenModel = model ?? null;
    if (model) void applyModel(model);
  });
}
