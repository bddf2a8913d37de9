/** Whether the bytes hold the signature at the offset: a string of byte values (each character one byte), or the bytes themselves. */
export function hasSignature(bytes: Uint8Array, signature: string | readonly number[], offset = 0): boolean {
  const codes = typeof signature === "string" ? Array.from(signature, (ch) => ch.charCodeAt(0)) : signature;
  if (bytes.length < offset + codes.length) return false;
  return codes.every((value, i) => bytes[offset + i] === value);
}
