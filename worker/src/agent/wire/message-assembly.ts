import type { SessionMessage, UiMessageChunk } from "@edge-web/shared";
import { parsePartialJson } from "ai";

type Part = { type: string; [field: string]: unknown };
/** A chunk as the stream carries it: the protocol's fields, and whatever else the provider's chunk had. */
type Chunk = UiMessageChunk & Record<string, unknown>;

const isTool = (part: Part) => part.type.startsWith("tool-") || part.type === "dynamic-tool";
const outputState = (state: string) => state === "output-available" || state === "output-error";

/**
 * The assistant message an AI SDK client (readUIMessageStream) rebuilds from a turn's chunks,
 * rebuilt as the chunks are streamed: one synchronous step per chunk, with no streams in between
 * (the SDK's own rebuild is a chain of streams per chunk, a large part of a turn's CPU), for the
 * chunks a session streams (shared/src/sse-frame.ts). Message metadata is the session's own.
 */
export class MessageAssembly {
  private readonly parts: Part[] = [];
  /** Text and reasoning parts still streaming, by kind and id. */
  private readonly streaming = new Map<string, Part>();
  /** Tool inputs still streaming: their raw text so far. */
  private readonly rawInputs = new Map<string, string>();
  private stepStart = 0;

  add(raw: UiMessageChunk): void {
    const chunk = raw as Chunk;
    switch (chunk.type) {
      case "start-step":
        this.parts.push({ type: "step-start" });
        this.stepStart = this.parts.length;
        return;
      case "text-start":
      case "reasoning-start": {
        const kind = chunk.type === "text-start" ? "text" : "reasoning";
        const part: Part = { type: kind, ...(kind === "reasoning" && { id: chunk.id }), text: "", providerMetadata: chunk.providerMetadata, state: "streaming" };
        this.streaming.set(`${kind}:${chunk.id}`, part);
        this.parts.push(part);
        return;
      }
      case "text-delta":
      case "reasoning-delta": {
        const part = this.streaming.get(`${chunk.type === "text-delta" ? "text" : "reasoning"}:${chunk.id}`);
        if (!part) return;
        part.text += chunk.delta;
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        return;
      }
      case "text-end":
      case "reasoning-end": {
        const key = `${chunk.type === "text-end" ? "text" : "reasoning"}:${chunk.id}`;
        const part = this.streaming.get(key);
        if (!part) return;
        part.state = "done";
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        if (chunk.citations != null) part.citations = chunk.citations;
        this.streaming.delete(key);
        return;
      }
      case "tool-input-start":
        this.rawInputs.set(chunk.toolCallId, "");
        this.setTool(chunk, { state: "input-streaming", input: undefined });
        return;
      case "tool-input-delta": {
        const text = this.rawInputs.get(chunk.toolCallId);
        const part = this.tool(chunk.toolCallId, true);
        if (text === undefined || !part) return;
        this.rawInputs.set(chunk.toolCallId, text + chunk.inputTextDelta);
        part.rawInput = text + chunk.inputTextDelta;
        return;
      }
      case "tool-input-available":
        this.rawInputs.delete(chunk.toolCallId);
        this.setTool(chunk, { state: "input-available", input: chunk.input });
        return;
      case "tool-output-available":
      case "tool-output-error": {
        const part = this.tool(chunk.toolCallId);
        if (!part) return;
        const available = chunk.type === "tool-output-available";
        this.update(part, chunk, {
          state: available ? "output-available" : "output-error",
          input: part.input,
          ...(available ? { output: chunk.output, preliminary: chunk.preliminary } : { errorText: chunk.errorText, rawInput: part.type === "dynamic-tool" ? undefined : part.rawInput }),
          title: part.title,
          toolMetadata: chunk.toolMetadata ?? part.toolMetadata,
        });
        return;
      }
      case "data-pi-queue":
      case "data-pi-compaction": {
        const same = chunk.id != null ? this.parts.find((p) => p.type === chunk.type && p.id === chunk.id) : undefined;
        if (same) same.data = chunk.data;
        else this.parts.push({ ...chunk });
      }
    }
  }

  /** A copy of the message's parts so far (what is stored must not change as the turn goes on); streaming tool inputs read as far as they parse. */
  async snapshot(): Promise<SessionMessage["parts"]> {
    const parts = structuredClone(this.parts);
    for (const part of parts) {
      if (isTool(part) && part.state === "input-streaming" && typeof part.rawInput === "string") part.input = (await parsePartialJson(part.rawInput)).value;
    }
    return parts as SessionMessage["parts"];
  }

  /** The tool call's part: this step's first, else the latest of the message (`thisStep`: only this step's). */
  private tool(toolCallId: string, thisStep = false): Part | undefined {
    for (let i = this.parts.length - 1; i >= (thisStep ? this.stepStart : 0); i--) {
      const part = this.parts[i]!;
      if (isTool(part) && part.toolCallId === toolCallId) return part;
    }
    return undefined;
  }

  /** A tool part as a call's input starts or arrives: this step's part of that call updated, or a new one. */
  private setTool(chunk: Chunk, fields: { state: string; input: unknown; errorText?: unknown }): void {
    const dynamic = chunk.dynamic === true;
    const existing = this.tool(chunk.toolCallId as string, true);
    const full = { ...fields, title: chunk.title, toolMetadata: chunk.toolMetadata };
    if (existing) {
      existing.type = existing.type === "dynamic-tool" ? "dynamic-tool" : `tool-${chunk.toolName as string}`;
      if (existing.type === "dynamic-tool") existing.toolName = chunk.toolName;
      this.update(existing, chunk, full);
      return;
    }
    const part: Part = dynamic ? { type: "dynamic-tool", toolName: chunk.toolName, toolCallId: chunk.toolCallId } : { type: `tool-${chunk.toolName as string}`, toolCallId: chunk.toolCallId };
    this.parts.push(part);
    this.update(part, chunk, full);
  }

  private update(part: Part, chunk: Chunk, fields: { state: string; title?: unknown; toolMetadata?: unknown; [field: string]: unknown }): void {
    const { title, toolMetadata, ...rest } = fields;
    Object.assign(part, { input: undefined, output: undefined, errorText: undefined, rawInput: undefined, preliminary: undefined }, rest);
    if (title !== undefined) part.title = title;
    if (toolMetadata !== undefined) part.toolMetadata = toolMetadata;
    part.providerExecuted = chunk.providerExecuted ?? part.providerExecuted;
    if (chunk.providerMetadata != null) part[outputState(fields.state) ? "resultProviderMetadata" : "callProviderMetadata"] = chunk.providerMetadata;
  }
}
