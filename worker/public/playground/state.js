// @ts-check
// What the page keeps between its modules, and what the tab keeps across a reload.

/** A model of the catalog (GET /api/config/models): whole for the admin, its id, provider and name for other callers. */
/** @typedef {import("./api.js").Shape<"ModelCatalogSchema">["models"][number]} Model */

export const KEYS = {
  token: "edge-web-tools.playground.token",
  session: "edge-web-tools.playground.session",
  echoes: "edge-web-tools.playground.echoes",
};

/** Kept in this tab only: sessionStorage, never the address or localStorage. */
export const tabStore = {
  get(/** @type {string} */ key) {
    try {
      return sessionStorage.getItem(key) ?? "";
    } catch {
      return "";
    }
  },
  set(/** @type {string} */ key, /** @type {string} */ value) {
    try {
      if (value) sessionStorage.setItem(key, value);
      else sessionStorage.removeItem(key);
    } catch {
      // Storage refused (private mode, quota): the page still works, it just forgets on reload.
    }
  },
};

/** The page's shared state: the token and session of this tab, and the server's model catalog. */
export const state = {
  /** Sent as `Authorization: Bearer …` when set. */
  token: tabStore.get(KEYS.token),
  /** The session every call goes to; "" when there is none. */
  sessionId: tabStore.get(KEYS.session),
  catalog: /** @type {{models: Model[]}} */ ({ models: [] }),
  catalogLoaded: false,
  /** The model chosen in this tab, applied to each new session; null keeps the server's default. */
  chosenModel: /** @type {Model | null} */ (null),
};
