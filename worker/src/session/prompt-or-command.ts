import { fail, ok, type PromptRequest, type Result } from "@edge-web/shared";
import { parseSlashCommand } from "../agent/commands/slash-commands.ts";
import type { Settings } from "../config/resolve-settings.ts";
import { admitMessage, userMessageFor } from "./admit-message.ts";
import type { SessionAgent } from "./session-agent.ts";
import type { SessionStores } from "./session-stores.ts";

/**
 * POST /messages: a slash command runs its tool at once; otherwise a turn starts (200 at once, the
 * turn runs on whether or not anyone follows the stream). While a turn runs, `streamingBehavior`
 * says whether the message steers it or follows it.
 */
export async function promptOrCommand(agent: SessionAgent, stores: SessionStores, input: PromptRequest, settings: Settings): Promise<Result<{ ok: true }>> {
  const command = parseSlashCommand(input.message);
  if (!command) return admitMessage(agent, stores, input, settings, input.streamingBehavior);
  if (!command.ok) return command;
  if (agent.loop.running) return fail("SESSION_BUSY", "A turn is running; commands run when the session is idle. Wait for the turn to finish or POST /abort.");
  const { parts } = agent;
  const { tool } = command.value.command;
  if (!tool) {
    // /compact: the compaction streams; the command itself stays out of the history the model sees.
    const started = agent.compaction.start(settings, command.value.params.instructions as string | undefined);
    if (!started.ok) return started;
    parts.waitUntil(started.value);
    return ok({ ok: true });
  }
  const user = await userMessageFor(parts, stores, input, settings);
  if (!user.ok) return user;
  stores.messages.put(user.value.message);
  parts.waitUntil(parts.touch().then(() => parts.tools.call(stores, tool, command.value.params, settings)));
  return ok({ ok: true });
}
