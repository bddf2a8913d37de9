import { fail, ok, resolveWebConfig, type Result, type WebConfig } from "@edge-web/shared";
import type { Env } from "../env.ts";

let memo: { source: string; result: Result<WebConfig> } | undefined;

/** Built-in defaults, then WEB_CONFIG from the environment; validated once per distinct value. */
export function loadWebConfig(env: Pick<Env, "WEB_CONFIG">): Result<WebConfig> {
  const source = env.WEB_CONFIG ?? "";
  if (memo?.source === source) return memo.result;
  memo = { source, result: parse(source) };
  return memo.result;
}

function parse(source: string): Result<WebConfig> {
  let layer: unknown = {};
  if (source.trim() !== "") {
    try {
      layer = JSON.parse(source);
    } catch {
      return fail("INTERNAL_ERROR", "WEB_CONFIG is not valid JSON; fix the worker's WEB_CONFIG variable.");
    }
  }
  const resolved = resolveWebConfig(layer);
  if (!resolved.ok) {
    return fail("INTERNAL_ERROR", `WEB_CONFIG is invalid (${resolved.message}); fix the worker's WEB_CONFIG variable.`, resolved.fields);
  }
  return ok(resolved.value);
}
