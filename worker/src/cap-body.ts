/**
 * A request body that errors as soon as more than `maxBytes` pass through, so an oversized body
 * (missing or lying Content-Length) is cut off instead of buffered; `exceeded()` tells why it failed.
 */
export function capBody(body: ReadableStream<Uint8Array>, maxBytes: number): { body: ReadableStream<Uint8Array>; exceeded: () => boolean } {
  let received = 0;
  let exceeded = false;
  const capped = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > maxBytes) {
          exceeded = true;
          throw new RangeError("body over the size limit");
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return { body: capped, exceeded: () => exceeded };
}
