import { deepFreeze, fail, ok, type Result } from "@edge-web/shared";

let memo: { raw: string; parsed: Result<string[]> } | undefined;

/**
 * API_CORS_ORIGINS as origins (`https://app.example.com`, `http://localhost:5173`): the pages of other
 * sites that may call the API. An entry that is not exactly an http(s) origin fails, naming it,
 * rather than silently allowing less (or more) than the operator meant.
 */
export function corsOrigins(raw: string | undefined): Result<string[]> {
  const value = raw ?? "";
  if (memo?.raw === value) return memo.parsed;
  const origins: string[] = [];
  let parsed: Result<string[]> | undefined;
  for (const entry of value.split(",").map((e) => e.trim()).filter(Boolean)) {
    const origin = URL.canParse(entry) ? new URL(entry) : undefined;
    const exact = origin && /^https?:$/.test(origin.protocol) && entry.replace(/\/$/, "").toLowerCase() === origin.origin.toLowerCase();
    if (!exact) {
      parsed = fail("INTERNAL_ERROR", `API_CORS_ORIGINS entry "${entry.slice(0, 100)}" is not an origin; list them as scheme://host[:port], comma-separated.`);
      break;
    }
    origins.push(origin.origin);
  }
  memo = { raw: value, parsed: deepFreeze(parsed ?? ok(origins)) as Result<string[]> };
  return memo.parsed;
}
