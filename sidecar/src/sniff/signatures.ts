/**
 * The first bytes by which convert_content's converters and document detection know their formats and containers;
 * fetch_content's type detection knows the compound file by it too, and every other binary format by file-type.
 */
export const SIGNATURES = {
  pdf: "%PDF-",
  rtf: "{\\rtf",
  /** The OLE compound file of legacy Office documents (.doc, .xls, .ppt) and of password-protected new ones. */
  compoundFile: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  /** A ZIP archive's first local file header. */
  zip: "PK\x03\x04",
  /** The end record an archive without entries starts with. */
  emptyZip: "PK\x05\x06",
} as const;
