import { fail, ok, type Result, type ToolName } from "@edge-web/shared";

/** A command a user types instead of a message: it runs one tool directly (no model needed), or, without `tool`, compacts the session. */
export interface SlashCommand {
  /** What follows the slash (pi's command names carry none). */
  name: string;
  usage: string;
  description: string;
  tool?: ToolName;
  params(args: string[]): Result<Record<string, unknown>>;
}

const needs = (what: string, usage: string) => fail("VALIDATION_FAILED", `Give ${what}: ${usage}.`, ["message"]);

export const SLASH_COMMANDS: SlashCommand[] = [
  {
    name: "search",
    usage: "/search <query>",
    description: "Search the web (web_search) for the rest of the line.",
    tool: "web_search",
    params: (args) => (args.length > 0 ? ok({ query: args.join(" ") }) : needs("a query", "/search <query>")),
  },
  {
    name: "fetch",
    usage: "/fetch <url> [url…]",
    description: "Fetch pages (fetch_content) and read them as Markdown.",
    tool: "fetch_content",
    params: (args) => (args.length > 0 ? ok({ urls: args }) : needs("at least one URL", "/fetch <url> [url…]")),
  },
  {
    name: "convert",
    usage: "/convert <url>",
    description: "Read a document (convert_content): PDF, Word, spreadsheets, presentations.",
    tool: "convert_content",
    params: (args) => (args.length === 1 ? ok({ url: args[0] }) : needs("one document URL", "/convert <url>")),
  },
  {
    name: "get",
    usage: "/get <responseId>",
    description: "Read a stored result back (get_search_content); type @ to pick one.",
    tool: "get_search_content",
    params: (args) => (args.length === 1 ? ok({ responseId: args[0]!.replace(/^@/, "") }) : needs("one responseId", "/get <responseId>")),
  },
  {
    name: "compact",
    usage: "/compact [instructions]",
    description: "Summarise the older history for the model (what it should keep may follow); the full history stays readable.",
    params: (args) => ok(args.length > 0 ? { instructions: args.join(" ") } : {}),
  },
];

/**
 * The command a message is, if it is one: undefined for ordinary messages, a failure for a command
 * missing its arguments. A message opening with a "/word" that is not one of ours is an ordinary
 * message: pi-web's client sends whatever the user typed and expects the model to answer it.
 */
export function parseSlashCommand(text: string): Result<{ command: SlashCommand; params: Record<string, unknown> }> | undefined {
  const [name = "", ...args] = text.trim().split(/\s+/);
  const command = SLASH_COMMANDS.find((c) => `/${c.name}` === name.toLowerCase());
  if (!command) return undefined;
  const params = command.params(args);
  return params.ok ? ok({ command, params: params.value }) : params;
}
