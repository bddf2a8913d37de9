/** A parsed SSE frame: `event`, `id` (when numbered) and JSON `data`, or a comment line. */
export interface ReadFrame {
  event?: string;
  id?: number;
  data?: any;
  comment?: string;
}

/** Reads an SSE body frame by frame, as a client would, without waiting for the stream to end. */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const parse = (block: string): ReadFrame => {
    const frame: ReadFrame = {};
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) frame.comment = line.slice(1).trim();
      else if (line.startsWith("event: ")) frame.event = line.slice(7);
      else if (line.startsWith("id: ")) frame.id = Number(line.slice(4));
      else if (line.startsWith("data: ")) frame.data = JSON.parse(line.slice(6));
    }
    return frame;
  };
  return {
    /** The next frame, or undefined when the stream has ended. */
    async next(): Promise<ReadFrame | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return parse(block);
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next `n` frames that are not keep-alive comments. */
    async take(n: number): Promise<ReadFrame[]> {
      const frames: ReadFrame[] = [];
      while (frames.length < n) {
        const frame = await this.next();
        if (!frame) break;
        if (frame.comment === undefined) frames.push(frame);
      }
      return frames;
    },
    cancel: () => reader.cancel(),
  };
}
