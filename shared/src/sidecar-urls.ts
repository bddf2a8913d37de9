import * as v from "valibot";
import { parseHttpUrl } from "./parse-http-url.ts";
import { fail, ok, type Result } from "./result.ts";
import { withoutTrailing } from "./without-trailing.ts";

/** SIDECAR_URL: one sidecar's base URL, or a pool's base URLs separated by commas; trailing slashes dropped. */
const SidecarUrlsSchema = v.pipe(
  v.string("it is not set"),
  v.transform((list) => list.split(",").map((entry) => entry.trim())),
  v.array(
    v.pipe(
      v.string(),
      v.nonEmpty("it is empty (a comma too many?)"),
      v.check((entry) => parseHttpUrl(entry) !== undefined, "it is not an http(s) URL"),
      v.transform((entry) => withoutTrailing(entry, "/")),
    ),
  ),
);

/**
 * The sidecars' base URLs SIDECAR_URL lists, or a SIDECAR_UNAVAILABLE failure that names the
 * setting and the entry at fault: without a usable sidecar no call can work.
 */
export function sidecarUrls(value: string | undefined): Result<string[]> {
  const parsed = v.safeParse(SidecarUrlsSchema, value);
  if (parsed.success) return ok(parsed.output);
  const [issue] = parsed.issues;
  const index = issue.path?.[0]?.key;
  const where = typeof index === "number" ? `its entry ${index + 1} of ${String(value).split(",").length}: ` : "";
  return fail("SIDECAR_UNAVAILABLE", `SIDECAR_URL is invalid (${where}${issue.message}); set it to the sidecar's base URL, or to several separated by commas.`);
}
