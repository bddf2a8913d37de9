// @ts-check
// The Chat panel: a message to the agent (POST /messages), Enter to send, and Abort; the answer streams in the log.

import { api, sessionPath } from "./api.js";
import { $, show } from "./dom.js";
import { echoes } from "./echoes.js";
import { ensureSession } from "./session.js";
import { state } from "./state.js";
import { errorBox, setStatus } from "./status.js";
import { lastEventId } from "./stream.js";

export function wireChat() {
  const chatInput = /** @type {HTMLTextAreaElement} */ ($("chat-input"));
  const chatSend = /** @type {HTMLButtonElement} */ ($("chat-send"));

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
      const echo = echoes.add(message, lastEventId());
      /** @type {import("./api.js").Sent<"PromptRequestSchema">} */
      const prompt = { message };
      const res = await api("POST", sessionPath(state.sessionId, "messages"), prompt);
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
    if (!state.sessionId) return;
    const res = await api("POST", sessionPath(state.sessionId, "abort"));
    if (res.ok) setStatus("Abort sent.", "ok");
    else show("chat-message", errorBox(res.error, res.status));
  });
}
