import { fail, ok, type SearchOutcome } from "@edge-web/shared";
import * as v from "valibot";
import type { ProviderId, SearchContext } from "./provider.ts";
import { requestProvider, type ProviderRequest } from "./request-provider.ts";

export interface JsonProviderRequest extends Omit<ProviderRequest, "body"> {
  /** Sent as the JSON body (POST APIs). */
  json?: unknown;
}

/** A provider's JSON answer checked against `schema`; not-JSON and unexpected shapes are WEB_SEARCH_FAILED. */
export async function requestProviderJson<S extends v.GenericSchema>(
  provider: ProviderId,
  req: JsonProviderRequest,
  schema: S,
  ctx: SearchContext,
  signal?: AbortSignal,
): Promise<SearchOutcome<v.InferOutput<S>>> {
  const { json, headers, ...rest } = req;
  const answer = await requestProvider(
    provider,
    {
      ...rest,
      headers: { Accept: "application/json", ...(json !== undefined && { "Content-Type": "application/json" }), ...headers },
      ...(json !== undefined && { body: JSON.stringify(json) }),
    },
    ctx,
    signal,
  );
  if (!answer.ok) return answer;
  const { name, label } = provider;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.value.text);
  } catch {
    return fail("WEB_SEARCH_FAILED", `${label} answered with something that is not JSON; check that web.${name}.baseUrl is its search API.`);
  }
  const shaped = v.safeParse(schema, parsed);
  if (!shaped.success) {
    const where = v.getDotPath(shaped.issues[0]) ?? "the top level";
    return fail("WEB_SEARCH_FAILED", `${label} answered JSON in an unexpected shape (at ${where}); check that web.${name}.baseUrl is its search API.`);
  }
  return ok(shaped.output);
}
