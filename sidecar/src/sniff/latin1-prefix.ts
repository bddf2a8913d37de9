/** The first bytes as text, one character per byte (windows-1252, the web's "latin1"): for finding ASCII markers in bytes of any encoding. */
export function latin1Prefix(bytes: Uint8Array, length: number): string {
  return new TextDecoder("windows-1252").decode(bytes.subarray(0, length));
}
