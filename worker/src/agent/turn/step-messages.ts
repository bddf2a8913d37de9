import type { JSONValue } from "@ai-sdk/provider";
import type { ContentPart, ModelMessage, ToolSet } from "ai";

/** How a tool call the model made ended: the tool's output, or the error it (or its input) failed with. */
export type ToolOutcome = { toolCallId: string; toolName: string; input: unknown } & ({ output: unknown } | { error: unknown });

/** An error as the model reads it: a string as it is, an Error as its text, anything else as JSON. */
export const errorText = (error: unknown): string =>
  error instanceof Error ? error.toString() : typeof error === "string" ? error : (JSON.stringify(error) ?? "unknown error");

type ToolOutput = Extract<ModelMessage, { role: "tool" }>["content"][number] & { type: "tool-result" };

/** A tool's output for the model: what the tool makes of it (toModelOutput), else text or JSON. */
async function modelOutput(tools: ToolSet, outcome: ToolOutcome): Promise<ToolOutput["output"]> {
  if ("error" in outcome) return { type: "error-text", value: errorText(outcome.error) };
  const toModelOutput = Object.hasOwn(tools, outcome.toolName) ? tools[outcome.toolName]!.toModelOutput : undefined;
  if (toModelOutput) return toModelOutput({ toolCallId: outcome.toolCallId, input: outcome.input, output: outcome.output });
  if (typeof outcome.output === "string") return { type: "text", value: outcome.output };
  return { type: "json", value: (outcome.output ?? null) as JSONValue };
}

/**
 * The messages one model call adds to the conversation: the assistant's content as the model sent
 * it (text, reasoning and files with their provider metadata — Anthropic's thinking signatures go
 * back with them —, tool calls), then one tool message with the calls' outcomes in the order they
 * were made.
 */
export async function stepMessages(content: ReadonlyArray<ContentPart<ToolSet>>, outcomes: ReadonlyArray<ToolOutcome>, tools: ToolSet): Promise<ModelMessage[]> {
  const said: Extract<ModelMessage, { role: "assistant" }>["content"] & unknown[] = [];
  const order: string[] = [];
  for (const part of content) {
    const providerOptions = "providerMetadata" in part && part.providerMetadata ? { providerOptions: part.providerMetadata } : {};
    if (part.type === "text" && (part.text.length > 0 || providerOptions.providerOptions)) said.push({ type: "text", text: part.text, ...providerOptions });
    else if (part.type === "reasoning") said.push({ type: "reasoning", text: part.text, ...providerOptions });
    else if (part.type === "file" || part.type === "reasoning-file") said.push({ type: part.type, data: part.file.base64, mediaType: part.file.mediaType, ...providerOptions });
    else if (part.type === "tool-call") {
      order.push(part.toolCallId);
      // An invalid call's input may be the model's unparsed text; the message carries an object.
      const input = part.invalid && (typeof part.input !== "object" || part.input === null) ? {} : part.input;
      said.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input, ...providerOptions });
    }
  }
  const messages: ModelMessage[] = said.length > 0 ? [{ role: "assistant", content: said }] : [];
  const results: ToolOutput[] = [];
  for (const id of order) {
    const outcome = outcomes.find((o) => o.toolCallId === id);
    if (outcome) results.push({ type: "tool-result", toolCallId: id, toolName: outcome.toolName, output: await modelOutput(tools, outcome) });
  }
  if (results.length > 0) messages.push({ role: "tool", content: results });
  return messages;
}
