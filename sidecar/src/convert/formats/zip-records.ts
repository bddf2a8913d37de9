/**
 * The ZIP records that openZipArchive reads and writeStoredZip writes: each one's signature and fixed size (what
 * comes before its variable-length name, extra field and comment).
 */
export const ZIP_RECORDS = {
  local: { signature: 0x04034b50, bytes: 30 },
  central: { signature: 0x02014b50, bytes: 46 },
  end: { signature: 0x06054b50, bytes: 22 },
} as const;
