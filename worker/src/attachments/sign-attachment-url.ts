import { fromBase64url, toBase64url } from "./base64url.ts";

/** How long a displayUrl works: 1 hour. */
export const ATTACHMENT_URL_TTL_MS = 3_600_000;

const encoder = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** The signed download path for an attachment (no base path), valid for ATTACHMENT_URL_TTL_MS from `now`. */
export async function signAttachmentUrl(secret: string, id: string, now = Date.now()): Promise<string> {
  const exp = String(now + ATTACHMENT_URL_TTL_MS);
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(`${id}.${exp}`));
  return `/api/attachments/${id}/raw?exp=${exp}&sig=${toBase64url(new Uint8Array(mac))}`;
}

/** The URL a client shows an attachment with: the signed download path under the API's base path. */
export async function attachmentDisplayUrl(basePath: string, secret: string, id: string): Promise<string> {
  return basePath.replace(/\/$/, "") + (await signAttachmentUrl(secret, id));
}

/**
 * Whether `sig` is our HMAC over `${id}.${exp}` and `exp` is still in the future. Web Crypto's HMAC
 * verify compares in constant time, so a forger learns nothing from how fast a guess fails.
 */
export async function verifyAttachmentSignature(
  secret: string,
  id: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): Promise<boolean> {
  if (!exp || !sig || !/^\d{1,16}$/.test(exp)) return false;
  const mac = fromBase64url(sig);
  if (!mac) return false;
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), mac, encoder.encode(`${id}.${exp}`));
  return valid && Number(exp) > now;
}
