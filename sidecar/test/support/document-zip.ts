import zlib from "node:zlib";

/** One entry of a generated ZIP archive. */
export interface ZipEntryInput {
  name: string;
  data: string | Uint8Array;
  /** Stored (method 0) instead of deflated. */
  store?: boolean;
  /** Data already deflated (raw), with the inflated size and CRC it stands for: lets tests build bombs without inflating them first. */
  deflated?: { size: number; crc: number };
  /** The uncompressed size the headers declare, when it should differ from the truth. */
  declaredSize?: number;
  /** General-purpose flags (bit 0: encrypted); default bit 11 alone (UTF-8 names). */
  flags?: number;
  /** The extra field, in both headers. */
  extra?: Uint8Array;
}

const u16 = (value: number): Buffer => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
};
const u32 = (value: number): Buffer => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};

/** A ZIP archive with the entries in order: local headers and data, then the central directory. */
export function buildZip(entries: readonly ZipEntryInput[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : Buffer.from(entry.data);
    const method = entry.store ? 0 : 8;
    const body = entry.deflated || entry.store ? raw : zlib.deflateRawSync(raw);
    const size = entry.declaredSize ?? entry.deflated?.size ?? raw.length;
    const crc = entry.deflated?.crc ?? zlib.crc32(raw);
    const name = Buffer.from(entry.name, "utf8");
    const extra = Buffer.from(entry.extra ?? []);
    const common = [u16(20), u16(entry.flags ?? 0x0800), u16(method), u16(0), u16(0x21), u32(crc), u32(body.length), u32(size), u16(name.length), u16(extra.length)];
    const local = Buffer.concat([u32(0x04034b50), ...common, name, extra, body]);
    centrals.push(Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(offset), name, extra]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(directory.length), u32(offset), u16(0)]);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * An Info-ZIP Unicode Path extra field (0x7075): readers that honour it, as JSZip does for names not flagged
 * UTF-8, take `path` as the name of an entry stored as `storedName`.
 */
export function unicodePathExtra(storedName: string, path: string): Uint8Array {
  const body = Buffer.concat([Buffer.from([1]), u32(zlib.crc32(Buffer.from(storedName, "utf8"))), Buffer.from(path, "utf8")]);
  return new Uint8Array(Buffer.concat([u16(0x7075), u16(body.length), body]));
}

/**
 * The visible archive with a second one hidden between its directory and its end record, which still points
 * at the visible directory. JSZip takes that gap for prepended data and shifts every offset by it; the hidden
 * directory's offsets are written so that the shift lands on the hidden entries. Both directories must be the
 * same size (entries with the same names do it).
 */
export function hideSecondDirectory(visible: Uint8Array, hidden: Uint8Array): Uint8Array {
  const split = (zip: Uint8Array) => {
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    const end = zip.length - 22;
    const size = view.getUint32(end + 12, true);
    const offset = view.getUint32(end + 16, true);
    return { locals: zip.subarray(0, offset), directory: zip.slice(offset, offset + size), end: zip.slice(end) };
  };
  const shown = split(visible);
  const secret = split(hidden);
  if (shown.directory.length !== secret.directory.length) throw new Error("the two directories differ in size");
  const size = shown.directory.length;
  // Padding after the visible entries keeps the rewritten offsets from going below zero.
  const padding = Buffer.alloc(Math.max(0, secret.locals.length - shown.locals.length));
  const visibleDirectory = shown.locals.length + padding.length;
  // The hidden entries go after the visible directory; JSZip adds this gap to every offset it reads.
  const gap = secret.locals.length + size;
  const directory = secret.directory.slice();
  const view = new DataView(directory.buffer);
  for (let at = 0; at < directory.length; at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)) {
    view.setUint32(at + 42, view.getUint32(at + 42, true) + visibleDirectory + size - gap, true);
  }
  const end = shown.end.slice();
  new DataView(end.buffer).setUint32(16, visibleDirectory, true);
  return new Uint8Array(Buffer.concat([shown.locals, padding, shown.directory, secret.locals, directory, end]));
}

/**
 * Raw deflate data that inflates to `bytes` copies of one character, built a MiB at a time: each MiB is
 * compressed on its own and sync-flushed, and the pieces are valid one after the other. Only the
 * compressed form (about 1 KiB per MiB) is ever held.
 */
export function deflatedFiller(bytes: number, char = " "): { data: Uint8Array; size: number; crc: number } {
  const mebibyte = Buffer.alloc(1024 * 1024, char);
  const block = zlib.deflateRawSync(mebibyte, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const pieces: Buffer[] = [];
  let crc = 0;
  for (let done = 0; done < bytes; done += mebibyte.length) {
    const length = Math.min(mebibyte.length, bytes - done);
    pieces.push(length === mebibyte.length ? block : zlib.deflateRawSync(mebibyte.subarray(0, length), { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    crc = zlib.crc32(mebibyte.subarray(0, length), crc);
  }
  // A final, empty fixed-Huffman block ends the stream.
  pieces.push(Buffer.from([0x03, 0x00]));
  return { data: new Uint8Array(Buffer.concat(pieces)), size: bytes, crc };
}
