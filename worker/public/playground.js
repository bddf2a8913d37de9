// @ts-check
// The playground: one session of the HTTP API — its four tools, agent turns, the live stream and the
// stats — as ES modules in playground/ (no build step). This entry wires the page's controls, then
// resumes the tab's session. Everything a response carries is shown as text, never as HTML (dom.js).

import { wireChat } from "./playground/chat.js";
import { loadModels, wireModels } from "./playground/models.js";
import { forgetSession, setSession, wireAccess } from "./playground/session.js";
import { state } from "./playground/state.js";
import { refreshStats, wireStats } from "./playground/stats.js";
import { setStatus } from "./playground/status.js";
import { resumeStream, wireStream } from "./playground/stream.js";
import { wireTools } from "./playground/tools.js";

wireAccess();
wireTools();
wireModels();
wireChat();
wireStream({ onSessionGone: forgetSession });
wireStats();

setSession(state.sessionId);
void loadModels();
if (state.sessionId) {
  setStatus("Resuming the session of this tab…");
  resumeStream();
  void refreshStats();
}
