import { constantTimeEqual, tokenId } from "./constant-time-equal.ts";
import type { Principal } from "./principal.ts";

export interface AuthSecrets {
  /** Comma-separated bearer tokens allowed to use the API. */
  API_TOKENS?: string;
  /** The bearer token allowed to change configuration. */
  ADMIN_TOKEN?: string;
}

/** Resolves a request to a principal, or null when it must be refused (401). */
export type AuthResolver = (request: Request, secrets: AuthSecrets) => Promise<Principal | null>;

const bearer = (request: Request) => /^Bearer[ ]+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];

/**
 * The default seam: with no API_TOKENS and no ADMIN_TOKEN everything is open (local development);
 * otherwise a bearer token must match one of them. The admin token is also a valid API token.
 */
export const tokenAuthResolver: AuthResolver = async (request, secrets) => {
  const apiTokens = (secrets.API_TOKENS ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  const admin = secrets.ADMIN_TOKEN?.trim() ?? "";
  const presented = bearer(request);
  if (admin && presented && (await constantTimeEqual(presented, admin))) return { kind: "admin", id: await tokenId(presented) };
  if (apiTokens.length === 0) return { kind: "open" };
  if (!presented) return null;
  let matched = false;
  // Every token is compared, so timing does not tell which one matched.
  for (const token of apiTokens) if (await constantTimeEqual(presented, token)) matched = true;
  return matched ? { kind: "token", id: await tokenId(presented) } : null;
};
