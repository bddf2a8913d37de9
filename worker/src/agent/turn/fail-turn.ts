import type { OutputSink } from "./output-sink.ts";

/** A turn that ends before any model output: its message starts, carries the error and finishes. */
export function failTurn(sink: Pick<OutputSink, "chunk">, messageId: string, errorText: string): void {
  sink.chunk({ type: "start", messageId });
  sink.chunk({ type: "error", errorText });
  sink.chunk({ type: "finish" });
}
