import zlib from "node:zlib";
import type { ZipEntry } from "./zip-archive.ts";
import { ZIP_RECORDS } from "./zip-records.ts";

const { local: LOCAL, central: CENTRAL, end: END } = ZIP_RECORDS;
/** Names are UTF-8 (general-purpose flag bit 11), as openZipArchive decodes them. */
const UTF8_NAMES = 0x0800;
/** 1980-01-01, the first day a ZIP timestamp can hold: the entries' times are not kept. */
const DOS_DATE = 0x0021;
const VERSION = 20;

/**
 * A plain ZIP archive of the entries, all stored (uncompressed), with no extra fields, comments or gaps: the
 * one layout every reader agrees on. Sizes and offsets fit its 32-bit fields, as the entries come from
 * openZipArchive, whose limits keep a document's parts far below 4 GiB.
 */
export function writeStoredZip(entries: readonly ZipEntry[]): Uint8Array {
  const names = entries.map(({ name }) => Buffer.from(name, "utf8"));
  const localsBytes = entries.reduce((sum, { data }, i) => sum + LOCAL.bytes + (names[i] as Buffer).length + data.length, 0);
  const directoryBytes = names.reduce((sum, name) => sum + CENTRAL.bytes + name.length, 0);
  const out = new Uint8Array(localsBytes + directoryBytes + END.bytes);
  const view = new DataView(out.buffer);
  let local = 0;
  let central = localsBytes;
  entries.forEach(({ data }, i) => {
    const name = names[i] as Buffer;
    const crc = zlib.crc32(data);
    // The fields local and central headers share, from "version needed" to the name's length; those left
    // zero mean stored (method 0), midnight, no extra field.
    const common = (at: number): void => {
      view.setUint16(at, VERSION, true);
      view.setUint16(at + 2, UTF8_NAMES, true);
      view.setUint16(at + 8, DOS_DATE, true);
      view.setUint32(at + 10, crc, true);
      view.setUint32(at + 14, data.length, true);
      view.setUint32(at + 18, data.length, true);
      view.setUint16(at + 22, name.length, true);
    };
    view.setUint32(local, LOCAL.signature, true);
    common(local + 4);
    out.set(name, local + LOCAL.bytes);
    out.set(data, local + LOCAL.bytes + name.length);
    view.setUint32(central, CENTRAL.signature, true);
    view.setUint16(central + 4, VERSION, true);
    common(central + 6);
    view.setUint32(central + 42, local, true);
    out.set(name, central + CENTRAL.bytes);
    local += LOCAL.bytes + name.length + data.length;
    central += CENTRAL.bytes + name.length;
  });
  view.setUint32(central, END.signature, true);
  view.setUint16(central + 8, entries.length, true);
  view.setUint16(central + 10, entries.length, true);
  view.setUint32(central + 12, directoryBytes, true);
  view.setUint32(central + 16, localsBytes, true);
  return out;
}
