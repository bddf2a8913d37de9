import zlib from "node:zlib";
import { fail, ok, type ConvertErrorCode, type Result } from "@edge-web/shared";
import { errorReason } from "../../error-reason.ts";
import { formatSize } from "./format-size.ts";
import { ZIP_RECORDS } from "./zip-records.ts";

/**
 * A ZIP reader for untrusted Office documents. Sizes come from the central directory and are enforced
 * while inflating (zlib stops at the declared size), so no entry can inflate past what the archive
 * declares, and the declared total is checked against the limit before anything is inflated.
 */

/** The codes a damaged or oversized archive fails with. */
export type ZipCode = Extract<ConvertErrorCode, "CONVERT_FAILED" | "FILE_TOO_LARGE">;

/** One entry's name (as stored: forward slashes) and its bytes, inflated and checked. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export interface ZipArchive {
  /** What the entries declare they unpack to, together (at most the limit it was opened with). */
  unpackedBytes: number;
  has(name: string): boolean;
  /** The entries' names in directory order; nothing is inflated. */
  names(): string[];
  /** The entry's bytes; a missing entry is undefined. */
  read(name: string): Result<Uint8Array | undefined, ZipCode>;
  /** Every entry in directory order, each inflated and checked, so a damaged or lying entry fails here. */
  readAll(): Result<ZipEntry[], ZipCode>;
}

interface Entry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
  dataOffset: number;
}

const MIB = 1024 * 1024;
/** Office files have tens to a few thousand parts. */
const MAX_ENTRIES = 10_000;
/**
 * Deflate cannot beat about 1030:1; real document parts stay well under 100:1. Past this ratio (for entries
 * large enough to matter) an entry is filler made to exhaust memory.
 */
const MAX_RATIO = 200;
const RATIO_CHECK_BYTES = MIB;

const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const { local: LOCAL, central: CENTRAL, end: END } = ZIP_RECORDS;
const MAX_COMMENT = 0xffff;

const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAGS = 0x0001 | 0x0040;

const damaged = (why: string) => fail<ZipCode>("CONVERT_FAILED", `The document's ZIP container is damaged: ${why}.`);

function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - END.bytes;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (view.getUint32(at, true) === END.signature) return at;
  }
  return -1;
}

/** Parses the central directory and checks every entry's place and sizes; nothing is inflated yet. */
export function openZipArchive(bytes: Uint8Array, maxUnzippedBytes: number): Result<ZipArchive, ZipCode> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  if (eocd === -1) return damaged("its end-of-directory record is missing (the file is cut short or not a ZIP archive)");
  if (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIGNATURE) {
    return fail("CONVERT_FAILED", "The document is a ZIP64 archive, which is not supported.");
  }
  const disk = view.getUint16(eocd + 4, true);
  const directoryDisk = view.getUint16(eocd + 6, true);
  const count = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    return fail("CONVERT_FAILED", "The document is a ZIP64 archive, which is not supported.");
  }
  if (disk !== 0 || directoryDisk !== 0) return fail("CONVERT_FAILED", "The document is a multi-part ZIP archive, which is not supported.");
  if (count > MAX_ENTRIES) return fail("CONVERT_FAILED", `The document's ZIP container has ${count} entries; at most ${MAX_ENTRIES} are read.`);
  if (directoryOffset + directorySize > eocd) return damaged("its directory lies outside the file");
  // JSZip (inside mammoth) takes a gap before the end record for data prepended to the archive and shifts every
  // offset by it, which can land on a second, hidden directory: the directory must end where the end record starts.
  if (directoryOffset + directorySize !== eocd) return damaged("there are bytes between its directory and its end record");

  const entries: Entry[] = [];
  let declaredTotal = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL.bytes > directoryOffset + directorySize || view.getUint32(at, true) !== CENTRAL.signature) {
      return damaged("its directory has fewer entries than it declares");
    }
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const headerOffset = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + CENTRAL.bytes, at + CENTRAL.bytes + nameLength));
    at += CENTRAL.bytes + nameLength + extraLength + commentLength;
    if (at > directoryOffset + directorySize) return damaged("its directory runs past its declared size");
    if (flags & ENCRYPTED_FLAGS) return fail("CONVERT_FAILED", "The document's ZIP entries are encrypted; it cannot be read without the password.");
    if (compressedSize === 0xffffffff || size === 0xffffffff || headerOffset === 0xffffffff) {
      return fail("CONVERT_FAILED", "The document is a ZIP64 archive, which is not supported.");
    }
    if (headerOffset + LOCAL.bytes > directoryOffset || view.getUint32(headerOffset, true) !== LOCAL.signature) {
      return damaged(`the entry ${name} does not start where the directory says`);
    }
    const dataOffset = headerOffset + LOCAL.bytes + view.getUint16(headerOffset + 26, true) + view.getUint16(headerOffset + 28, true);
    if (dataOffset + compressedSize > directoryOffset) return damaged(`the entry ${name} runs past the end of the data`);
    declaredTotal += size;
    entries.push({ name, method, crc, compressedSize, size, headerOffset, dataOffset });
  }
  if (declaredTotal > maxUnzippedBytes) {
    return fail("FILE_TOO_LARGE", `The document unpacks to ${formatSize(declaredTotal)}, more than the ${formatSize(maxUnzippedBytes)} limit.`);
  }
  const bomb = entries.find(({ size, compressedSize }) => size > RATIO_CHECK_BYTES && size > compressedSize * MAX_RATIO);
  if (bomb) {
    return fail(
      "CONVERT_FAILED",
      `The document's entry ${bomb.name} declares ${formatSize(bomb.size)} from ${bomb.compressedSize} compressed bytes, a ratio only a zip bomb has; it is not unpacked.`,
    );
  }
  const byOffset = [...entries].sort((a, b) => a.headerOffset - b.headerOffset);
  // Nor may data be prepended to the first entry (what that shift is meant for): a document has none.
  if ((byOffset[0]?.headerOffset ?? directoryOffset) !== 0) return damaged("there are bytes before its first entry");
  // Entries that share bytes make a small archive unpack many times over (overlapping-entry zip bombs).
  for (let i = 1; i < byOffset.length; i++) {
    const previous = byOffset[i - 1] as Entry;
    const entry = byOffset[i] as Entry;
    if (previous.dataOffset + previous.compressedSize > entry.headerOffset) return damaged(`the entries ${previous.name} and ${entry.name} overlap`);
  }
  const byName = new Map<string, Entry>();
  for (const entry of entries) {
    if (byName.has(entry.name)) return damaged(`the entry ${entry.name} appears twice`);
    byName.set(entry.name, entry);
  }
  return ok(archiveOver(bytes, byName, declaredTotal));
}

function inflate(bytes: Uint8Array, entry: Entry): Result<Uint8Array, ZipCode> {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  let out: Uint8Array;
  if (entry.method === STORED) out = data;
  else if (entry.method === DEFLATED) {
    try {
      // One byte over the declared size is enough to catch an entry that lies about it.
      out = zlib.inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") return damaged(`the entry ${entry.name} inflates to more than the ${entry.size} bytes it declares`);
      return damaged(`the entry ${entry.name} does not inflate (${errorReason(error)})`);
    }
  } else return fail("CONVERT_FAILED", `The document's entry ${entry.name} uses ZIP compression method ${entry.method}; only stored and deflated entries are read.`);
  if (out.length !== entry.size) return damaged(`the entry ${entry.name} holds ${out.length} bytes but declares ${entry.size}`);
  if (zlib.crc32(out) !== entry.crc) return damaged(`the entry ${entry.name} fails its checksum`);
  return ok(out);
}

function archiveOver(bytes: Uint8Array, entries: ReadonlyMap<string, Entry>, unpackedBytes: number): ZipArchive {
  return {
    unpackedBytes,
    has: (name) => entries.has(name),
    names: () => [...entries.keys()],
    read(name) {
      const entry = entries.get(name);
      return entry ? inflate(bytes, entry) : ok(undefined);
    },
    readAll() {
      const all: ZipEntry[] = [];
      for (const entry of entries.values()) {
        const inflated = inflate(bytes, entry);
        if (!inflated.ok) return inflated;
        all.push({ name: entry.name, data: inflated.value });
      }
      return ok(all);
    },
  };
}
