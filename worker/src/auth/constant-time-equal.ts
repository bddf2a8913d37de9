const encoder = new TextEncoder();

/** Compares secrets without leaking where they differ: both are hashed first, then compared in constant time. */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([a, b].map((s) => crypto.subtle.digest("SHA-256", encoder.encode(s))));
  return crypto.subtle.timingSafeEqual(x!, y!);
}

/** A stable, non-reversible id for a token (never the token itself). */
export async function tokenId(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`principal:${token}`));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
