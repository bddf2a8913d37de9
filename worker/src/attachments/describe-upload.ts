/** Longest stored file name; R2 custom metadata is size-limited and names only label the file. */
const MAX_NAME_CHARS = 255;
const FALLBACK_MIME_TYPE = "application/octet-stream";
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** type/subtype with optional printable-ASCII parameters: anything else could not be sent back as a header. */
const MIME_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;[\\x20-\\x7e]*)?$`);

/** The name and MIME type to store for an uploaded file; both are uploader-controlled, so they are bounded. */
export function describeUpload(file: File): { name: string; mimeType: string } {
  const name = Array.from(file.name).slice(0, MAX_NAME_CHARS).join("");
  const mimeType = MIME_TYPE.test(file.type) ? file.type : FALLBACK_MIME_TYPE;
  return { name, mimeType };
}
