import { fail, ok, type Result, type SteerRequest } from "@edge-web/shared";
import { buildUserMessage, type UserInput } from "../agent/context/user-message.ts";
import { resolveModel } from "../agent/model/resolve-model.ts";
import type { Delivery } from "../agent/turn/agent-loop.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { SessionAgent } from "./session-agent.ts";
import type { SessionParts } from "./session-parts.ts";
import type { SessionStores } from "./session-stores.ts";

const busy = () =>
  fail("SESSION_BUSY", "A turn is running; pass streamingBehavior \"steer\" (join the running turn) or \"followUp\" (run after it), or POST /abort first.");

/**
 * A message for the loop (POST /messages, /steer with "steer", /follow_up with "followUp"). Its
 * place is taken before it is built (building awaits storage), so of two messages sent at once to
 * an idle session one starts the turn and the other steers, follows up or is refused.
 */
export async function admitMessage(agent: SessionAgent, stores: SessionStores, input: SteerRequest, settings: Settings, delivery: Delivery | undefined): Promise<Result<{ ok: true }>> {
  const { loop, parts } = agent;
  const admission = loop.admit(delivery);
  if (!admission) return busy();
  const refuse = <E extends { ok: false }>(refusal: E) => {
    const next = admission.release();
    if (next) parts.waitUntil(next);
    return refusal;
  };
  if (admission.starts) {
    const model = resolveModel(settings.agent, parts.held.agent.selection, parts.held.current?.model);
    if (!model.ok) return refuse(model);
  }
  const user = await userMessageFor(parts, stores, input, settings);
  if (!user.ok) return refuse(user);
  await parts.touch();
  const started = admission.hand(user.value.message, user.value.model);
  if (started) parts.waitUntil(started);
  return ok({ ok: true });
}

/** A user's message for the history and the model: its images kept as the session's attachments, its attachments read. */
export function userMessageFor(parts: SessionParts, stores: SessionStores, input: UserInput, settings: Settings) {
  const { tools } = parts;
  return buildUserMessage(input, {
    newId: () => crypto.randomUUID(),
    keepImage: (bytes, mimeType) => tools.keepImage(stores, bytes, mimeType),
    attachment: (id) => tools.attachmentFile(id),
    maxTextChars: settings.config.maxContentChars,
  });
}
