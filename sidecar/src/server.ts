import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream/promises";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import {
  CONVERT_REQUEST_HEADER,
  fail,
  MAX_RELAY_BODY_BYTES,
  RELAY_HEADER,
  RELAY_REQUEST_HEADER,
  SidecarConvertFileRequestSchema,
  SidecarConvertUrlRequestSchema,
  SidecarFetchRequestSchema,
  SidecarRelayRequestSchema,
  SidecarSearchRequestSchema,
  SidecarMapRequestSchema,
  SidecarVetRequestSchema,
  summarizeIssues,
  type Failure,
} from "@edge-web/shared";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as v from "valibot";
import { isAuthorized } from "./bearer-auth.ts";
import { convertFile } from "./convert/service/convert-file.ts";
import { convertUrl } from "./convert/service/convert-url.ts";
import type { EgressFailureKind } from "./fetch/egress-types.ts";
import { fetchContent } from "./fetch/fetch-content.ts";
import { relayRequest } from "./relay/relay-request.ts";
import { vetUrl } from "./fetch/vet-url.ts";
import { mapAnswer } from "./map/map-answer.ts";
import type { SidecarDeps } from "./sidecar-deps.ts";
import { searchWeb } from "./search/search-web.ts";

export interface SidecarOptions {
  token: string;
  deps: SidecarDeps;
}

/** A request's context: @hono/node-server hands each route Node's request and response too. */
type SidecarContext = Context<{ Bindings: HttpBindings }>;

const KEEP_ALIVE_MS = 65_000;

/** How long an over-size body is still read (and dropped) after its 413, so the answer reaches the client. */
const LINGER_MS = 1_000;

/** Requests to the sidecar are small JSON documents. */
const MAX_REQUEST_BYTES = 256 * 1024;

/** A POST route: its body's schema, and the operation that answers a Result for a valid body. */
interface Operation {
  parse(json: unknown): { ok: true; value: (deps: SidecarDeps, signal: AbortSignal) => Promise<unknown> } | Failure;
}

function operation<S extends v.GenericSchema>(
  what: string,
  schema: S,
  run: (input: v.InferOutput<S>, deps: SidecarDeps, signal: AbortSignal) => Promise<unknown>,
): Operation {
  return {
    parse(json) {
      const parsed = v.safeParse(schema, json);
      if (!parsed.success) return invalid(what, parsed.issues);
      return { ok: true, value: (deps, signal) => run(parsed.output, deps, signal) };
    },
  };
}

const OPERATIONS = new Map<string, Operation>([
  ["/v1/fetch", operation("fetch", SidecarFetchRequestSchema, fetchContent)],
  ["/v1/search", operation("search", SidecarSearchRequestSchema, searchWeb)],
  ["/v1/convert", operation("convert", SidecarConvertUrlRequestSchema, convertUrl)],
  ["/v1/vet", operation("vet", SidecarVetRequestSchema, vetUrl)],
  ["/v1/map", operation("map", SidecarMapRequestSchema, mapAnswer)],
]);

/** What a request's body may hold: the JSON routes' documents, or (convert-file) the document itself. */
function invalid(what: string, issues: v.BaseIssue<unknown>[]): Failure {
  const { fields } = summarizeIssues(issues);
  return fail("VALIDATION_FAILED", `Invalid ${what} request: ${fields.join(", ")}.`, fields);
}

/** A relayed request that got no answer, by why: the policy's refusal, the request's own fault, the destination's, or its silence. */
const RELAY_FAILURE_STATUS: Record<Exclude<EgressFailureKind, "aborted">, ContentfulStatusCode> = {
  blocked: 403,
  // A relayed request has no robots.txt guard; the table still answers every kind.
  robots: 403,
  "invalid-url": 400,
  config: 400,
  dns: 502,
  network: 502,
  redirect: 502,
  timeout: 504,
};

/** The sidecar's HTTP API: POST /v1/fetch, /v1/search, /v1/convert, /v1/convert-file, /v1/relay, /v1/vet, /v1/map and GET /healthz, all behind the bearer token. */
export function createSidecarServer({ token, deps }: SidecarOptions): Server {
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.use((c, next) =>
    isAuthorized(c.req.header("authorization"), token) ? next() : Promise.resolve(send(c, 401, fail("UNAUTHORIZED", "Send Authorization: Bearer <SIDECAR_TOKEN>."))),
  );
  // The renderer's counters since start (pages, refused requests, browser restarts, the browsers' memory) are for operators.
  app.get("/healthz", (c) => send(c, 200, { ok: true, ...(deps.renderer && { render: deps.renderer.stats() }) }));
  for (const [path, op] of OPERATIONS) {
    app.post(path, async (c) => {
      const body = await readBody(c, MAX_REQUEST_BYTES);
      if (body instanceof Response) return body;
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder().decode(body));
      } catch {
        return send(c, 400, fail("INVALID_JSON", "The body is not valid JSON."));
      }
      const parsed = op.parse(json);
      if (!parsed.ok) return send(c, 400, parsed);
      return answer(c, (signal) => parsed.value(deps, signal));
    });
  }
  app.post("/v1/convert-file", (c) => handleConvertFile(c, deps));
  app.post("/v1/relay", (c) => handleRelay(c, deps));
  app.notFound((c) => send(c, 404, fail("ROUTE_NOT_FOUND", `No route for ${c.req.method} ${c.req.path}.`)));
  app.onError((err, c) => {
    console.error("sidecar: request failed", err.message);
    return send(c, 500, fail("INTERNAL_ERROR", "The sidecar failed unexpectedly; retry."));
  });
  // Without serverOptions or createServer of its own, the adaptor's server is node:http's.
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // Idle connections outlive the worker's pool (Node's default is 5 s), so the worker closes them first and never reuses one being closed.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}

/**
 * A body described by a header (percent-encoded JSON, since header values carry only Latin-1 and
 * file names may be in any script): the description, then the body, read up to the limit it sets.
 * A refusal's Response otherwise.
 */
async function describedBody<S extends v.GenericSchema>(
  c: SidecarContext,
  route: { header: string; schema: S; what: string; limit: (description: v.InferOutput<S>) => number; tooLargeCode?: "FILE_TOO_LARGE" },
): Promise<{ description: v.InferOutput<S>; bytes: Uint8Array } | Response> {
  let header: unknown;
  try {
    header = JSON.parse(decodeURIComponent(c.req.header(route.header) ?? ""));
  } catch {
    return send(c, 400, fail("INVALID_JSON", `The ${route.header} header must be percent-encoded JSON.`));
  }
  const parsed = v.safeParse(route.schema, header);
  if (!parsed.success) return send(c, 400, invalid(route.what, parsed.issues));
  const bytes = await readBody(c, route.limit(parsed.output), route.tooLargeCode);
  return bytes instanceof Response ? bytes : { description: parsed.output, bytes };
}

/** POST /v1/convert-file: the body is the document, its description the X-Convert-Request header. */
async function handleConvertFile(c: SidecarContext, deps: SidecarDeps): Promise<Response> {
  const read = await describedBody(c, {
    header: CONVERT_REQUEST_HEADER,
    schema: SidecarConvertFileRequestSchema,
    what: "convert-file",
    limit: (description) => description.limits.maxResponseBytes,
    tooLargeCode: "FILE_TOO_LARGE",
  });
  if (read instanceof Response) return read;
  return answer(c, (signal) => convertFile(read.bytes, read.description, deps, signal));
}

/**
 * POST /v1/relay: the request to forward in the X-Relay-Request header, its body as the body. The
 * destination's answer streams back as it comes (X-Relay: upstream); anything the sidecar answers
 * itself is a JSON Failure (X-Relay: refused). The caller going away closes the upstream request.
 */
async function handleRelay(c: SidecarContext, deps: SidecarDeps): Promise<Response> {
  c.header(RELAY_HEADER, "refused");
  const read = await describedBody(c, { header: RELAY_REQUEST_HEADER, schema: SidecarRelayRequestSchema, what: "relay", limit: () => MAX_RELAY_BODY_BYTES });
  if (read instanceof Response) return read;
  if (read.description.method === "GET" && read.bytes.length > 0) {
    return send(c, 400, fail("VALIDATION_FAILED", "A GET relay request carries no body; send it as POST or without one.", ["method"]));
  }
  const relayed = await relayRequest(read.description, read.bytes, deps, c.req.raw.signal);
  if (!relayed.ok) return relayed.error.code === "aborted" ? RESPONSE_ALREADY_SENT : send(c, RELAY_FAILURE_STATUS[relayed.error.code], relayed);
  const { status, headers, body } = relayed.value;
  // Written to Node's response itself: the upstream's headers as they came (Set-Cookie repeated), and a body
  // that fails midway (the destination gone, or silent past idleMs) ends the answer unfinished, without a
  // word added, so the caller sees it broke.
  const { outgoing } = c.env;
  outgoing.writeHead(status, { ...headers, [RELAY_HEADER]: "upstream" });
  // Headers go now: a stream's first event may be long in coming.
  outgoing.flushHeaders();
  await pipeline(body, outgoing).catch(() => {});
  return RESPONSE_ALREADY_SENT;
}

/** Runs an operation; a caller that goes away cancels its work, and is answered nothing. */
async function answer(c: SidecarContext, run: (signal: AbortSignal) => Promise<unknown>): Promise<Response> {
  const signal = c.req.raw.signal;
  const result = await run(signal);
  return signal.aborted ? RESPONSE_ALREADY_SENT : send(c, 200, result);
}

/**
 * The body, up to `limit` bytes; over it, the 413 already answered. hono's bodyLimit counts a body of
 * undeclared length as it streams. A declared Content-Length within the limit (Node's parser ends the body
 * there) is read directly: bodyLimit reads every body through a web stream, 130 µs more CPU a request (260 µs against 130).
 */
async function readBody(c: SidecarContext, limit: number, code: "PAYLOAD_TOO_LARGE" | "FILE_TOO_LARGE" = "PAYLOAD_TOO_LARGE"): Promise<Uint8Array | Response> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) <= limit) return new Uint8Array(await c.req.arrayBuffer());
  let bytes = new Uint8Array(0);
  const refused = await bodyLimit({ maxSize: limit, onError: (c) => tooLarge(c as SidecarContext, limit, code) })(c, async () => {
    bytes = new Uint8Array(await c.req.arrayBuffer());
  });
  return refused ?? bytes;
}

/** Answers 413 first, then drops the connection instead of reading the rest. */
function tooLarge(c: SidecarContext, limit: number, code: "PAYLOAD_TOO_LARGE" | "FILE_TOO_LARGE"): Response {
  const { incoming, outgoing } = c.env;
  // A lingering close: the answer is flushed and the rest of the body discarded for a moment, since
  // destroying the socket while the client still sends resets the connection and can lose the 413.
  outgoing.once("finish", () => {
    incoming.resume();
    incoming.socket.end();
    setTimeout(() => incoming.socket.destroy(), LINGER_MS).unref();
  });
  return send(c, 413, fail(code, `${code === "FILE_TOO_LARGE" ? "Documents" : "Requests"} are limited to ${limit} bytes.`), { connection: "close" });
}

function send(c: SidecarContext, status: ContentfulStatusCode, body: unknown, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(body), status, { "content-type": "application/json; charset=utf-8", ...headers });
}

/** Listens and answers the bound address (port 0 picks a free port). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}
