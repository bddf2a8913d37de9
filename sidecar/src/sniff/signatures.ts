/**
 * The first bytes of the document formats and containers that both fetch_content's type detection and
 * convert_content's document detection recognise.
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
