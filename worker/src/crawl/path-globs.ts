import { fail, ok, type Result } from "@edge-web/shared";
import { RE2JS } from "re2js";

/** A set of path globs as one test; none matches nothing. */
export type PathGlobs = (path: string) => boolean;

/**
 * URL path globs: "**" spans segments, "*" stays within one, "?" is one character, everything else is
 * itself. Compiled to one RE2 program (re2js), so a caller's globs match in time linear in the path.
 * A glob not starting with "/" or "*" is anchored at "/" (so "docs/**" means "/docs/**").
 */
export function compilePathGlobs(globs: readonly string[] | undefined, field: string): Result<PathGlobs | undefined> {
  if (!globs || globs.length === 0) return ok(undefined);
  const parts: string[] = [];
  for (const glob of globs) {
    if (/[\u0000-\u001f\s]/.test(glob)) return fail("INVALID_INPUT", `${field}: the glob "${glob.slice(0, 80)}" holds a space or control character; write paths as they appear in URLs (percent-encoded).`, [field]);
    const anchored = glob.startsWith("/") || glob.startsWith("*") ? glob : `/${glob}`;
    parts.push(
      anchored
        .split(/(\*\*|\*|\?)/)
        .map((piece) => (piece === "**" ? ".*" : piece === "*" ? "[^/]*" : piece === "?" ? "[^/]" : RE2JS.quote(piece)))
        .join(""),
    );
  }
  const program = RE2JS.compile(`^(?:${parts.join("|")})$`);
  return ok((path) => program.matches(path));
}
