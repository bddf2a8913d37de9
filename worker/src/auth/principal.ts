/** Who is calling: nobody in particular (no tokens configured), an API token holder, or the admin. */
export type Principal = { kind: "open" } | { kind: "token"; id: string } | { kind: "admin"; id: string };

/** The owner id recorded on sessions a principal creates ("open" when auth is off). */
export function ownerId(principal: Principal): string {
  return principal.kind === "open" ? "open" : principal.id;
}
