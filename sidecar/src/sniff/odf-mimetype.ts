import { hasSignature } from "./has-signature.ts";

/** Where the first entry's name begins in a ZIP archive: after its 30-byte local file header. */
const FIRST_ENTRY_NAME = 30;

/**
 * Whether a ZIP archive declares the type (or a type starting so): OpenDocument and EPUB files put a `mimetype`
 * entry first and stored, so its name and then its content sit at a fixed place in the bytes.
 */
export function hasOdfMimetype(bytes: Uint8Array, mime: string): boolean {
  return hasSignature(bytes, `mimetype${mime}`, FIRST_ENTRY_NAME);
}
