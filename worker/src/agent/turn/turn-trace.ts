import type { UiMessageChunk } from "@edge-web/shared";
import type { OutputSink } from "./output-sink.ts";

/** The chunks whose first appearance in each step marks a boundary of the turn. */
const BOUNDARIES = new Set<UiMessageChunk["type"]>(["start", "start-step", "tool-input-available", "tool-output-available", "text-delta", "finish-step", "finish", "data-pi-compaction"]);

/**
 * web.debug "trace" for agent turns: `sink` passes every chunk on and notes when each boundary was
 * first passed (per step: its start, its tool call's input and output, its first text, its end),
 * `log` writes them as milliseconds since the turn started, in one JSON line. Never content.
 */
export function traceTurn(sink: OutputSink, messageId: string) {
  const started = Date.now();
  const phases: Record<string, number> = {};
  let step = 0;
  return {
    sink: {
      ...sink,
      chunk(chunk: UiMessageChunk) {
        if (chunk.type === "start-step") step++;
        const key = step === 0 || chunk.type === "finish" ? chunk.type : `step${step}.${chunk.type}`;
        if (BOUNDARIES.has(chunk.type) && !(key in phases)) phases[key] = Date.now() - started;
        sink.chunk(chunk);
      },
    } satisfies OutputSink,
    log(sessionId: string) {
      console.log(JSON.stringify({ event: "turn", sessionId, messageId, phases: { ...phases, flushed: Date.now() - started } }));
    },
  };
}
