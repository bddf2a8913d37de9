import type { ListedCommand } from "@edge-web/shared";
import { SLASH_COMMANDS } from "./slash-commands.ts";

/**
 * The slash commands as GET /commands lists them, in pi's command shape: pi-web's client shows and
 * sends "/" + `name`. `source` is "prompt" because the client hides "extension" commands (in pi they
 * never finish a turn) and ours stream a whole turn, `start` to `finish`, as a prompt's does.
 */
export const LISTED_COMMANDS: ListedCommand[] = SLASH_COMMANDS.map((command) => ({
  name: command.name,
  description: command.description,
  source: "prompt",
  sourceInfo: { path: `builtin:/${command.name}`, source: "builtin", scope: "user", origin: "top-level" },
  usage: command.usage,
  ...(command.tool && { tool: command.tool }),
}));
