import { PassThrough, Readable } from "node:stream";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { readBody } from "../src/fetch/read-body.ts";

const MiB = 1024 * 1024;
const TEXT = Buffer.from("The quick brown fox jumps over the lazy dog. ".repeat(200));

/** A body served in `size`-byte chunks that counts what was pulled and whether it was destroyed. */
function chunked(data: Buffer, size = 1024) {
  let offset = 0;
  const stream = new Readable({
    read() {
      if (offset >= data.length) return void this.push(null);
      this.push(data.subarray(offset, offset + size));
      offset += size;
    },
  });
  return { stream, pulled: () => Math.min(offset, data.length) };
}

const read = (data: Buffer, encoding: string | undefined, maxBytes = MiB) => readBody(chunked(data, 100).stream, encoding, maxBytes);

describe("readBody", () => {
  it.each([
    [undefined, TEXT],
    ["identity", TEXT],
    ["gzip", zlib.gzipSync(TEXT)],
    ["x-gzip", zlib.gzipSync(TEXT)],
    ["GZip", zlib.gzipSync(TEXT)],
    ["deflate", zlib.deflateSync(TEXT)],
    ["deflate", zlib.deflateRawSync(TEXT)],
    ["br", zlib.brotliCompressSync(TEXT)],
    ["zstd", zlib.zstdCompressSync(TEXT)],
    ["gzip, br", zlib.brotliCompressSync(zlib.gzipSync(TEXT))],
    ["deflate,gzip", zlib.gzipSync(zlib.deflateRawSync(TEXT))],
    ["identity, gzip", zlib.gzipSync(TEXT)],
  ])("decodes Content-Encoding %j", async (encoding, data) => {
    const result = await read(data, encoding);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Buffer.from(result.value.bytes).equals(TEXT)).toBe(true);
    expect(result.value.truncated).toBe(false);
  });

  it("tells zlib-wrapped from raw deflate even when the header arrives one byte at a time", async () => {
    for (const data of [zlib.deflateSync(TEXT), zlib.deflateRawSync(TEXT)]) {
      const result = await readBody(chunked(data, 1).stream, "deflate", MiB);
      expect(result.ok && Buffer.from(result.value.bytes).equals(TEXT)).toBe(true);
    }
  });

  it("decodes an empty deflate body to nothing", async () => {
    const result = await read(Buffer.alloc(0), "deflate");
    expect(result.ok && [result.value.bytes.length, result.value.truncated]).toEqual([0, false]);
  });

  it("stops a gzip bomb at the cap without inflating the rest", async () => {
    // Twenty concatenated gzip members of 50 MiB of zeros each: about 1 GiB from 1 MB on the wire.
    const member = zlib.gzipSync(Buffer.alloc(50 * MiB));
    const bomb = Buffer.concat(Array.from({ length: 20 }, () => member));
    const body = chunked(bomb, 512);
    const result = await readBody(body.stream, "gzip", MiB);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.bytes.length).toBe(MiB);
    expect(result.value.truncated).toBe(true);
    expect(result.value.bytes.every((byte) => byte === 0)).toBe(true);
    // About 1 KiB of it inflates to 1 MiB; beyond that only stream buffers (~128 KiB) may be read ahead.
    expect(body.pulled()).toBeLessThan(bomb.length / 4);
    expect(body.stream.destroyed).toBe(true);
  });

  it("counts decoded bytes: a small compressed body over the cap is truncated", async () => {
    const result = await read(zlib.brotliCompressSync(TEXT), "br", 1000);
    expect(result.ok && [result.value.bytes.length, result.value.truncated]).toEqual([1000, true]);
    expect(result.ok && Buffer.from(result.value.bytes).equals(TEXT.subarray(0, 1000))).toBe(true);
  });

  it("truncates a plain body over the cap and destroys the source", async () => {
    const body = chunked(Buffer.alloc(5 * MiB, 7), 64 * 1024);
    const result = await readBody(body.stream, undefined, MiB);
    expect(result.ok && [result.value.bytes.length, result.value.truncated]).toEqual([MiB, true]);
    expect(body.pulled()).toBeLessThan(5 * MiB);
    expect(body.stream.destroyed).toBe(true);
  });

  it("a body of exactly the cap is complete, not truncated", async () => {
    const result = await read(TEXT, undefined, TEXT.length);
    expect(result.ok && [result.value.bytes.length, result.value.truncated]).toEqual([TEXT.length, false]);
  });

  it("one byte over the cap is truncated", async () => {
    const result = await read(TEXT, undefined, TEXT.length - 1);
    expect(result.ok && [result.value.bytes.length, result.value.truncated]).toEqual([TEXT.length - 1, true]);
  });

  it("refuses an unknown encoding as a network failure and destroys the source", async () => {
    const body = chunked(TEXT);
    const result = await readBody(body.stream, "gzip, compress", MiB);
    expect(result).toMatchObject({ ok: false, error: { code: "network", message: expect.stringMatching(/unsupported content encoding "compress"/) } });
    expect(body.stream.destroyed).toBe(true);
  });

  it.each([
    ["gzip", TEXT],
    ["br", Buffer.from("definitely not brotli")],
    ["deflate", Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff])],
    ["gzip", zlib.gzipSync(TEXT).subarray(0, 40)],
  ])("reports a %s body that does not decode as a network failure", async (encoding, data) => {
    const result = await read(data, encoding);
    expect(result).toMatchObject({ ok: false, error: { code: "network", message: expect.stringContaining("could not be read or decoded") } });
  });

  it("reports a source error as a network failure", async () => {
    const stream = new PassThrough();
    const pending = readBody(stream, "gzip", MiB);
    stream.write(zlib.gzipSync(TEXT).subarray(0, 20));
    stream.destroy(new Error("socket hang up"));
    expect(await pending).toMatchObject({ ok: false, error: { code: "network", message: expect.stringContaining("socket hang up") } });
  });

  it("stops a stalled body when the signal fires", async () => {
    const stream = new PassThrough();
    const controller = new AbortController();
    const pending = readBody(stream, "gzip", MiB, controller.signal);
    stream.write(zlib.gzipSync(TEXT).subarray(0, 20));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(stream.destroyed).toBe(true);
  });

  it("does not read at all when the signal has already fired", async () => {
    const body = chunked(TEXT);
    expect(await readBody(body.stream, undefined, MiB, AbortSignal.abort())).toMatchObject({ ok: false, error: { code: "aborted" } });
    expect(body.pulled()).toBe(0);
  });
});
