import { fail } from "@edge-web/shared";
import type { EgressResult, FetchedResponse, SafeFetchRequest } from "./egress-types.ts";
import { linkSignals } from "../link-signals.ts";
import { flattenHeaders } from "./flatten-headers.ts";
import { readBody } from "./read-body.ts";
import { safeRequest, type SafeRequestDeps } from "./safe-request.ts";

/**
 * Fetches a URL under the network policy (safeRequest) and reads the body, decoded, up to
 * maxResponseBytes; never throws. One deadline covers resolution, connection, redirects and reading.
 */
export async function safeFetch(req: SafeFetchRequest, deps: SafeRequestDeps): Promise<EgressResult<FetchedResponse>> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const linked = linkSignals([req.signal, deadline]);
  const { signal } = linked;
  const result = await fetchWithin(req, deps, signal).finally(linked.unlink);
  // Whatever step noticed the abort, the caller learns which signal fired.
  if (result.ok || !signal.aborted) return result;
  const { origin } = URL.parse(req.url) ?? { origin: "the destination" };
  if (req.signal?.aborted) return fail("aborted", `The request to ${origin} was aborted by the caller.`);
  return fail("timeout", `The request to ${origin} did not finish within ${req.timeoutMs} ms.`);
}

async function fetchWithin(req: SafeFetchRequest, deps: SafeRequestDeps, signal: AbortSignal): Promise<EgressResult<FetchedResponse>> {
  const opened = await safeRequest(req, deps, signal);
  if (!opened.ok) return opened;
  const { body, headers: raw, ...hop } = opened.value;
  const headers = flattenHeaders(raw);
  const read = await readBody(body, headers["content-encoding"], req.maxResponseBytes, signal);
  req.clock?.lap("read");
  if (!read.ok) return read;
  return { ok: true, value: { ...hop, headers, ...read.value } };
}
