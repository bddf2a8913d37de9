import { createHash, timingSafeEqual } from "node:crypto";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Constant-time check of an `Authorization: Bearer …` header against the expected token. */
export function isAuthorized(header: string | undefined, token: string): boolean {
  const presented = /^Bearer[ ]+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  return timingSafeEqual(digest(presented), digest(token)) && presented !== "";
}
