import { describe, expect, it } from "vitest";
import { writeStoredZip } from "../src/convert/formats/write-stored-zip.ts";
import { openZipArchive } from "../src/convert/formats/zip-archive.ts";
import { buildZip, deflatedFiller, hideSecondDirectory } from "./support/document-zip.ts";

const LIMIT = 10 * 1024 * 1024;
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

function open(bytes: Uint8Array, limit = LIMIT) {
  const archive = openZipArchive(bytes, limit);
  if (!archive.ok) throw new Error(archive.error.message);
  return archive.value;
}

/** The archive with a little-endian field rewritten at `offset` from the end-of-directory record (no comment, so it is the last 22 bytes). */
function patchEnd(bytes: Uint8Array, offset: number, value: number, size: 2 | 4): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  const at = copy.length - 22 + offset;
  if (size === 2) view.setUint16(at, value, true);
  else view.setUint32(at, value, true);
  return copy;
}

/** The archive with the first central-directory entry's field at `offset` rewritten. */
function patchCentral(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  const directory = view.getUint32(copy.length - 22 + 16, true);
  view.setUint32(directory + offset, value, true);
  return copy;
}

const failure = (bytes: Uint8Array, limit = LIMIT) => {
  const archive = openZipArchive(bytes, limit);
  return archive.ok ? archive.value.readAll() : archive;
};

/** The archive with `count` bytes put before it, every offset moved to match, so that it is consistent but for them. */
function prepend(bytes: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(count + bytes.length);
  out.set(bytes, count);
  const view = new DataView(out.buffer);
  const end = out.length - 22;
  const directory = view.getUint32(end + 16, true) + count;
  view.setUint32(end + 16, directory, true);
  for (let at = directory; at < end; at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)) {
    view.setUint32(at + 42, view.getUint32(at + 42, true) + count, true);
  }
  return out;
}

describe("openZipArchive", () => {
  const archive = buildZip([
    { name: "stored.txt", data: "kept as it is", store: true },
    { name: "deflated.xml", data: "<a>".repeat(1000) },
    { name: "folder/", data: "" },
  ]);

  it("reads stored and deflated entries, one by name or all in directory order", () => {
    const zip = open(archive);
    expect(zip.has("deflated.xml")).toBe(true);
    expect(text((zip.read("stored.txt") as { value: Uint8Array }).value)).toBe("kept as it is");
    expect(text((zip.read("deflated.xml") as { value: Uint8Array }).value)).toBe("<a>".repeat(1000));
    expect(zip.read("missing.xml")).toEqual({ ok: true, value: undefined });
    const all = zip.readAll();
    expect(all.ok && all.value.map(({ name, data }) => [name, text(data)])).toEqual([
      ["stored.txt", "kept as it is"],
      ["deflated.xml", "<a>".repeat(1000)],
      ["folder/", ""],
    ]);
  });

  it("fails with FILE_TOO_LARGE when the entries declare more than the limit in total", () => {
    expect(openZipArchive(archive, 1000)).toEqual({ ok: false, error: { code: "FILE_TOO_LARGE", message: "The document unpacks to 3 KiB, more than the 1 KiB limit." } });
  });

  it("refuses an entry whose compression ratio only a zip bomb has, without inflating it", () => {
    const filler = deflatedFiller(8 * 1024 * 1024);
    const bomb = buildZip([{ name: "filler.xml", data: filler.data, deflated: { size: filler.size, crc: filler.crc } }]);
    expect(failure(bomb)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("a ratio only a zip bomb has") } });
  });

  it.each([
    ["declares less than it holds", 10, "inflates to more than the 10 bytes it declares"],
    ["declares more than it holds", 5000, "holds 3000 bytes but declares 5000"],
  ])("fails an entry that %s", (_, declaredSize, message) => {
    const lying = buildZip([{ name: "part.xml", data: "<a>".repeat(1000), declaredSize }]);
    expect(failure(lying)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining(message) } });
  });

  it("fails an entry whose data does not match its checksum", () => {
    const corrupt = patchCentral(buildZip([{ name: "part.xml", data: "hello" }]), 16, 0x12345678);
    expect(failure(corrupt)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("fails its checksum") } });
  });

  it("fails an entry whose deflate data is damaged", () => {
    const zip = buildZip([{ name: "part.xml", data: "<a>".repeat(1000) }]);
    const damaged = zip.slice();
    damaged.fill(0xff, 40, 60);
    expect(failure(damaged)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("part.xml") } });
  });

  it("refuses encrypted entries", () => {
    const encrypted = buildZip([{ name: "part.xml", data: "secret", flags: 1 }]);
    expect(failure(encrypted)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("encrypted") } });
  });

  it("refuses compression methods other than stored and deflated when an entry is read", () => {
    const zip = buildZip([{ name: "part.xml", data: "x", store: true }]);
    const bzip2 = zip.slice();
    const view = new DataView(bzip2.buffer);
    view.setUint16(8, 12, true);
    view.setUint16(view.getUint32(bzip2.length - 22 + 16, true) + 10, 12, true);
    expect(failure(bzip2)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("compression method 12") } });
  });

  it.each([
    ["ZIP64 entry counts", patchEnd(archive, 10, 0xffff, 2)],
    ["ZIP64 directory offsets", patchEnd(archive, 16, 0xffffffff, 4)],
  ])("refuses %s as unsupported", (_, bytes) => {
    expect(failure(bytes)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: "The document is a ZIP64 archive, which is not supported." } });
  });

  it.each([
    ["a file cut short (no end-of-directory record)", archive.subarray(0, archive.length - 30), "end-of-directory record is missing"],
    ["a directory outside the file", patchEnd(archive, 16, archive.length, 4), "directory lies outside the file"],
    ["more entries declared than listed", patchEnd(patchEnd(archive, 8, 5, 2), 10, 5, 2), "fewer entries than it declares"],
    ["an entry offset pointing at the wrong place", patchCentral(archive, 42, 7), "does not start where the directory says"],
    ["an entry running past the data", patchCentral(archive, 20, 1_000_000), "runs past the end of the data"],
  ])("fails %s as damaged", (_, bytes, message) => {
    expect(failure(bytes)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining(message) } });
  });

  it("fails an archive hiding a second directory between its directory and its end record", () => {
    const hidden = hideSecondDirectory(buildZip([{ name: "part.xml", data: "shown" }]), buildZip([{ name: "part.xml", data: "hidden ".repeat(100) }]));
    expect(failure(hidden)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("bytes between its directory and its end record") } });
  });

  it.each([
    ["an archive", archive, ["stored.txt", "deflated.xml", "folder/"]],
    ["an empty archive", buildZip([]), []],
  ])("fails %s with data before its first entry, even when every offset allows for it", (_, bytes, names) => {
    expect(open(bytes).names()).toEqual(names);
    expect(failure(prepend(bytes, 16))).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("bytes before its first entry") } });
  });

  it("fails entries that share bytes (an overlapping-entry bomb)", () => {
    const zip = buildZip([
      { name: "a.xml", data: "a".repeat(100) },
      { name: "b.xml", data: "b".repeat(100) },
    ]);
    // Point the second entry at the first one's local header.
    const view = new DataView(zip.buffer);
    const directory = view.getUint32(zip.length - 22 + 16, true);
    const second = directory + 46 + view.getUint16(directory + 28, true);
    const overlapping = zip.slice();
    new DataView(overlapping.buffer).setUint32(second + 42, 0, true);
    expect(failure(overlapping)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("overlap") } });
  });

  it("fails an archive listing the same name twice", () => {
    const twice = buildZip([
      { name: "part.xml", data: "one" },
      { name: "part.xml", data: "two" },
    ]);
    expect(failure(twice)).toEqual({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringContaining("appears twice") } });
  });
});

describe("writeStoredZip", () => {
  const entries = [
    { name: "[Content_Types].xml", data: new TextEncoder().encode("<Types/>") },
    { name: "word/document.xml", data: new TextEncoder().encode("<w:document>café</w:document>") },
    { name: "folder/", data: new Uint8Array(0) },
    { name: "naïve.txt", data: new Uint8Array([0, 1, 2, 255]) },
  ];

  it("writes the entries stored, in order, as a reader of its own reads them back", () => {
    const written = writeStoredZip(entries);
    const all = open(written).readAll();
    expect(all).toEqual({ ok: true, value: entries });
    // Stored: each entry's bytes appear as they are, right after its local header at the very start.
    expect(new DataView(written.buffer).getUint16(8, true)).toBe(0);
    expect(text(written.subarray(30, 30 + 19))).toBe("[Content_Types].xml");
    expect(text(written.subarray(49, 57))).toBe("<Types/>");
  });

  it("writes nothing but headers, data and the directory: no gaps, extra fields or comments", () => {
    const written = writeStoredZip(entries);
    const names = entries.reduce((sum, { name }) => sum + Buffer.byteLength(name), 0);
    const data = entries.reduce((sum, { data }) => sum + data.length, 0);
    expect(written.length).toBe(entries.length * (30 + 46) + 2 * names + data + 22);
  });

  it("writes an empty archive as its end record alone", () => {
    const written = writeStoredZip([]);
    expect(written.length).toBe(22);
    expect(open(written).readAll()).toEqual({ ok: true, value: [] });
  });
});
