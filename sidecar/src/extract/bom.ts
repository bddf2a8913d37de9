/** The encoding a byte order mark announces (UTF-8, UTF-16LE, UTF-16BE), if the bytes start with one. */
export function bomEncoding(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" | undefined {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return "utf-8";
  if (a === 0xff && b === 0xfe) return "utf-16le";
  if (a === 0xfe && b === 0xff) return "utf-16be";
  return undefined;
}
