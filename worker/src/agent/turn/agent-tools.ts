import { displayUrl, summarizeIssues } from "@edge-web/shared";
import { jsonSchema, tool, type ToolSet } from "ai";
import * as v from "valibot";
import { executeTool } from "../../tools/execute-tool.ts";
import { mergeInputs } from "../../tools/merge-inputs.ts";
import type { Tool, ToolContext } from "../../tools/tool.ts";
import { TOOL_INPUT_SCHEMAS } from "../../tools/tool-input-schemas.ts";
import { TOOLS } from "../../tools/tool-registry.ts";
import type { ApprovalGate } from "./approval-gate.ts";
import type { OutputSink } from "./output-sink.ts";
import { modelOutputOf } from "../context/tool-result-budget.ts";

export interface AgentToolDeps {
  /** The tool context of one call, cancelled with `signal` (an abort of the turn). */
  context(signal: AbortSignal | undefined): ToolContext;
  /** Present with sandbox.askBeforeFetch: every call waits for the user's answer. */
  gate?: ApprovalGate;
  /** Resolves once the turn's stream has carried the call's `tool-input-available` chunk. */
  inputShown(toolCallId: string): Promise<void>;
  /** The turn's sink: approval requests go on its stream. */
  sink: OutputSink;
  newId(): string;
  /** How much of one result the model gets (settings.agent.maxToolResultChars, within the window). */
  maxResultChars: number;
}

/** The fields of the tools' checked inputs that say what a call will do. */
interface CallInput {
  url?: string;
  attachmentId?: string;
  urls?: string[];
  query?: string;
  queries?: string[];
  includeContent?: boolean;
  numResults?: number;
  responseId?: string;
}

/** A search reaches only its provider unless includeContent fetches the result pages too: the user is told which. */
function describeSearch(input: CallInput): string {
  const queries = mergeInputs(input.query, input.queries).map((q) => JSON.stringify(q)).join(", ") || "(no query)";
  if (!input.includeContent) return `Search the web for ${queries}; no result page is fetched`;
  const perQuery = input.numResults !== undefined && Number.isFinite(input.numResults) ? ` (up to ${Math.max(1, Math.floor(input.numResults))} per query)` : "";
  return `Search the web for ${queries}, then fetch each result's page${perQuery}`;
}

/** What the user is asked to allow, as the call will run it (merged and trimmed), without credentials in URLs. */
function describeCall(name: string, input: CallInput): string {
  if (name === "fetch_content") return `Fetch ${mergeInputs(input.url, input.urls).map(displayUrl).join(", ") || "(no URL)"}`;
  if (name === "convert_content") return `Read the document ${input.url ? displayUrl(input.url) : `attachment ${input.attachmentId ?? ""}`}`;
  if (name === "web_search") return describeSearch(input);
  return `Read the stored result ${JSON.stringify(input.responseId ?? "")}`;
}

/**
 * A tool call's failure as the model and the stream both see it: "<CODE>: <message>". The AI SDK
 * shows a tool error as `String(error)`; with an empty name that is the message alone.
 */
export class ToolCallFailed extends Error {
  override readonly name = "";
}

/**
 * With the approval gate, the user is asked before a call runs (pi's confirm request, as pi-web's
 * client shows it; the call's outcome — its output, or DENIED — answers it on the stream).
 */
export async function askApproval(deps: AgentToolDeps, name: string, message: string, toolCallId: string, signal: AbortSignal | undefined): Promise<void> {
  if (!deps.gate) return;
  await deps.inputShown(toolCallId);
  const id = `ui_${deps.newId()}`;
  deps.sink.control({ control: "extension-ui", request: { type: "extension_ui_request", id, method: "confirm", title: `Allow ${name}?`, message, toolCallId } });
  if (!(await deps.gate.wait(id, signal))) throw new ToolCallFailed(`DENIED: the user did not allow this ${name} call; nothing was fetched.`);
}

function agentTool(web: Tool, deps: AgentToolDeps) {
  return tool({
    description: web.description,
    inputSchema: jsonSchema(TOOL_INPUT_SCHEMAS.get(web.name) as Parameters<typeof jsonSchema>[0]),
    async execute(input: unknown, { toolCallId, abortSignal }) {
      // Checked first: the user is asked about a call that can run, described as it will run.
      const params = v.safeParse(web.params, input);
      if (!params.success) throw new ToolCallFailed(`INVALID_INPUT: ${summarizeIssues(params.issues).text}`);
      await askApproval(deps, web.name, describeCall(web.name, params.output as CallInput), toolCallId, abortSignal);
      const answer = await executeTool(web, params.output, deps.context(abortSignal));
      if (!answer.ok) throw new ToolCallFailed(`${answer.error.code}: ${answer.error.message}`);
      return answer.value;
    },
    // The stream and the history keep the whole answer; the model gets it within the budget.
    toModelOutput: ({ input, output }) => modelOutputOf(output, input, deps.maxResultChars),
  });
}

/** The web tools as AI SDK tools, each run through the session's tool path (limits, policy, storage, stats). */
export function agentTools(deps: AgentToolDeps): ToolSet {
  return Object.fromEntries(Object.values(TOOLS).map((web) => [web.name, agentTool(web, deps)]));
}
