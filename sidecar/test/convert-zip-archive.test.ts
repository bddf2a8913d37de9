import { describe, expect, it } from "vitest";
import { openZipArchive } from "../src/convert/zip-archive.ts";
import { buildZip, deflatedFiller } from "./support/document-zip.ts";

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
  return archive.ok ? archive.value.verify() : archive;
};

describe("openZipArchive", () => {
  const archive = buildZip([
    { name: "stored.txt", data: "kept as it is", store: true },
    { name: "deflated.xml", data: "<a>".repeat(1000) },
    { name: "folder/", data: "" },
  ]);

  it("lists entries and reads stored and deflated ones", () => {
    const zip = open(archive);
    expect(zip.names).toEqual(["stored.txt", "deflated.xml", "folder/"]);
    expect(zip.has("deflated.xml")).toBe(true);
    expect(text((zip.read("stored.txt") as { value: Uint8Array }).value)).toBe("kept as it is");
    expect(text((zip.read("deflated.xml") as { value: Uint8Array }).value)).toBe("<a>".repeat(1000));
    expect(zip.read("missing.xml")).toEqual({ ok: true, value: undefined });
    expect(zip.verify()).toEqual({ ok: true, value: undefined });
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
