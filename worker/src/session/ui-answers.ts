import { fail, ok, type Result, type UiResponseRequest, type UiRpcRequest } from "@edge-web/shared";
import { answerUiRpc } from "../agent/commands/ui-rpc.ts";
import type { AgentLoop } from "../agent/turn/agent-loop.ts";
import type { SessionParts } from "./session-parts.ts";
import type { SessionStores } from "./session-stores.ts";
import { statsOf } from "./session-view.ts";

/** POST /ui-response: answers an approval the running turn waits for. */
export function answerApproval(loop: AgentLoop, response: UiResponseRequest): Result<{ ok: true }> {
  if (!loop.gate()?.answer(response)) {
    return fail("UNKNOWN_EXTENSION_UI", `No request "${response.id}" waits for an answer: it is unknown or was answered already.`);
  }
  return ok({ ok: true });
}

/** POST /ui-rpc: answered on the stream as a `ui-rpc` control frame. */
export function answerOnStream(parts: SessionParts, stores: SessionStores, request: UiRpcRequest): Result<{ ok: true }> {
  const { held, stream } = parts;
  const response = answerUiRpc(request, { results: () => stores.results.summaries(), result: (id) => stores.results.get(id), stats: () => statsOf(held, stores) });
  stream.sink(stores, () => Number.POSITIVE_INFINITY).control({ control: "ui-rpc", response });
  held.flush();
  return ok({ ok: true });
}
