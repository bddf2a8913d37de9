import { toBase64url } from "./base64url.ts";

/** 128 random bits: ids can be neither guessed nor collide. */
const ID_RANDOM_BYTES = 16;

/** A fresh attachment id, `att_` + base64url; it is also the object's R2 key. */
export function newAttachmentId(): string {
  return `att_${toBase64url(crypto.getRandomValues(new Uint8Array(ID_RANDOM_BYTES)))}`;
}
