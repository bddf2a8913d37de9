/** Bytes as standard base64 (data URLs, model APIs), encoded in slices so large files stay within call limits. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes of standard base64 text (checked by the caller's schema). */
export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));
}

/** Bytes as unpadded base64url, safe in paths and query strings without escaping. */
export function toBase64url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The bytes of unpadded base64url text, or undefined when it is not base64url. */
export function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  return fromBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
}
