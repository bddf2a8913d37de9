import { pipeline, type Transform } from "node:stream";
import zlib from "node:zlib";
import type { EgressResult } from "./egress-types.ts";
import { fail } from "@edge-web/shared";
import { errorReason } from "../error-reason.ts";

type Chunks = AsyncIterable<Uint8Array>;
type Decoder = (input: Chunks) => Chunks;

/** Runs chunks through a zlib stream. Its backpressure is what stops a bomb: nothing inflates past what is read. */
const through =
  (create: () => Transform): Decoder =>
  (input) =>
    pipeline(input, create(), () => {});

/**
 * "deflate" should be zlib-wrapped (RFC 9110), yet some servers send raw deflate. A zlib header is
 * two bytes: compression method 8 in the low nibble, and a multiple of 31 as a 16-bit number.
 */
const inflate: Decoder = async function* (input) {
  const iterator = input[Symbol.asyncIterator]();
  let head: Uint8Array = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, next.value]);
  }
  if (head.length === 0) return;
  const wrapped = head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0;
  async function* replay() {
    yield head;
    yield* { [Symbol.asyncIterator]: () => iterator };
  }
  yield* through(wrapped ? zlib.createInflate : zlib.createInflateRaw)(replay());
};

const DECODERS = new Map<string, Decoder>([
  ["gzip", through(zlib.createGunzip)],
  ["x-gzip", through(zlib.createGunzip)],
  ["deflate", inflate],
  ["br", through(zlib.createBrotliDecompress)],
  ...(typeof zlib.createZstdDecompress === "function" ? [["zstd", through(zlib.createZstdDecompress)] as const] : []),
]);

/**
 * A response body with its Content-Encoding undone (codings are listed in the order applied, so
 * undone in reverse), decoded as it is read. An unsupported coding destroys the source.
 */
export function decodeBody(body: Chunks & { destroy?(): void }, contentEncoding: string | undefined): EgressResult<Chunks> {
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  const unsupported = codings.find((coding) => !DECODERS.has(coding));
  if (unsupported !== undefined) {
    body.destroy?.();
    return fail("network", `The response uses the unsupported content encoding "${unsupported}" (supported: ${[...DECODERS.keys()].join(", ")}).`);
  }
  return { ok: true, value: codings.reduceRight<Chunks>((input, coding) => DECODERS.get(coding)!(input), body) };
}

/**
 * Reads a response body, decoding its Content-Encoding, and stops at maxBytes of DECODED data.
 * Whenever reading stops early the source is destroyed, so the connection is not kept busy.
 */
export async function readBody(
  body: Chunks & { destroy?(): void },
  contentEncoding: string | undefined,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<EgressResult<{ bytes: Uint8Array; truncated: boolean }>> {
  const decoded = decodeBody(body, contentEncoding);
  if (!decoded.ok) return decoded;
  const chunks = decoded.value;
  // Destroying the source fails every stage above it, which ends the read loop promptly.
  const stop = () => body.destroy?.();
  signal?.addEventListener("abort", stop, { once: true });
  const parts: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  try {
    signal?.throwIfAborted();
    for await (const chunk of chunks) {
      if (chunk.length > maxBytes - total) {
        parts.push(chunk.subarray(0, maxBytes - total));
        total = maxBytes;
        truncated = true;
        break;
      }
      parts.push(chunk);
      total += chunk.length;
    }
  } catch (error) {
    stop();
    if (signal?.aborted) return fail("aborted", "Reading the response was aborted.");
    return fail("network", `The response body could not be read or decoded: ${errorReason(error)}.`);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  if (truncated) stop();
  return { ok: true, value: { bytes: Buffer.concat(parts, total), truncated } };
}
