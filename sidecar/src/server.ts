import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream/promises";
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
  SidecarVetRequestSchema,
  summarizeIssues,
  type Failure,
} from "@edge-web/shared";
import * as v from "valibot";
import { isAuthorized } from "./bearer-auth.ts";
import { callerGone } from "./caller-gone.ts";
import { convertFile } from "./convert/service/convert-file.ts";
import { convertUrl } from "./convert/service/convert-url.ts";
import type { EgressFailureKind } from "./fetch/egress-types.ts";
import { fetchContent } from "./fetch/fetch-content.ts";
import { relayRequest } from "./relay/relay-request.ts";
import { vetUrl } from "./fetch/vet-url.ts";
import type { SidecarDeps } from "./sidecar-deps.ts";
import { searchWeb } from "./search/search-web.ts";

export interface SidecarOptions {
  token: string;
  deps: SidecarDeps;
}

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
]);

/** What a request's body may hold: the JSON routes' documents, or (convert-file) the document itself. */
function invalid(what: string, issues: v.BaseIssue<unknown>[]): Failure {
  const { fields } = summarizeIssues(issues);
  return fail("VALIDATION_FAILED", `Invalid ${what} request: ${fields.join(", ")}.`, fields);
}

/** A relayed request that got no answer, by why: the policy's refusal, the request's own fault, the destination's, or its silence. */
const RELAY_FAILURE_STATUS: Record<Exclude<EgressFailureKind, "aborted">, number> = {
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

/** The sidecar's HTTP API: POST /v1/fetch, /v1/search, /v1/convert, /v1/convert-file, /v1/relay, /v1/vet and GET /healthz, all behind the bearer token. */
export function createSidecarServer({ token, deps }: SidecarOptions): Server {
  const server = createServer((req, res) => {
    handle(req, res, token, deps).catch((err: unknown) => {
      console.error("sidecar: request failed", err instanceof Error ? err.message : String(err));
      if (!res.headersSent) send(res, 500, fail("INTERNAL_ERROR", "The sidecar failed unexpectedly; retry."));
      else res.destroy();
    });
  });
  // Idle connections outlive the worker's pool (Node's default is 5 s), so the worker closes them first and never reuses one being closed.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string, deps: SidecarDeps): Promise<void> {
  const path = new URL(req.url ?? "/", "http://sidecar").pathname;
  if (!isAuthorized(req.headers.authorization, token)) {
    req.resume();
    return send(res, 401, fail("UNAUTHORIZED", "Send Authorization: Bearer <SIDECAR_TOKEN>."));
  }
  // The renderer's counters since start (pages, refused requests, browser restarts, the browsers' memory) are for operators.
  if (req.method === "GET" && path === "/healthz") return send(res, 200, { ok: true, ...(deps.renderer && { render: deps.renderer.stats() }) });
  if (req.method === "POST" && path === "/v1/convert-file") return handleConvertFile(req, res, deps);
  if (req.method === "POST" && path === "/v1/relay") return handleRelay(req, res, deps);
  const op = req.method === "POST" ? OPERATIONS.get(path) : undefined;
  if (!op) {
    req.resume();
    return send(res, 404, fail("ROUTE_NOT_FOUND", `No route for ${req.method} ${path}.`));
  }

  const body = await readBody(req, MAX_REQUEST_BYTES);
  if (body === undefined) return tooLarge(req, res, MAX_REQUEST_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return send(res, 400, fail("INVALID_JSON", "The body is not valid JSON."));
  }
  const parsed = op.parse(json);
  if (!parsed.ok) return send(res, 400, parsed);

  await answer(res, (signal) => parsed.value(deps, signal));
}

/**
 * A body described by a header (percent-encoded JSON, since header values carry only Latin-1 and
 * file names may be in any script): the description, then the body, read up to the limit it sets.
 * Undefined once a refusal has been answered.
 */
async function describedBody<S extends v.GenericSchema>(
  req: IncomingMessage,
  res: ServerResponse,
  route: { header: string; schema: S; what: string; limit: (description: v.InferOutput<S>) => number; tooLargeCode?: "FILE_TOO_LARGE" },
): Promise<{ description: v.InferOutput<S>; bytes: Buffer } | undefined> {
  let header: unknown;
  try {
    header = JSON.parse(decodeURIComponent(String(req.headers[route.header] ?? "")));
  } catch {
    req.resume();
    send(res, 400, fail("INVALID_JSON", `The ${route.header} header must be percent-encoded JSON.`));
    return undefined;
  }
  const parsed = v.safeParse(route.schema, header);
  if (!parsed.success) {
    req.resume();
    send(res, 400, invalid(route.what, parsed.issues));
    return undefined;
  }
  const max = route.limit(parsed.output);
  const bytes = await readBody(req, max);
  if (bytes === undefined) {
    tooLarge(req, res, max, route.tooLargeCode);
    return undefined;
  }
  return { description: parsed.output, bytes };
}

/** POST /v1/convert-file: the body is the document, its description the X-Convert-Request header. */
async function handleConvertFile(req: IncomingMessage, res: ServerResponse, deps: SidecarDeps): Promise<void> {
  const read = await describedBody(req, res, {
    header: CONVERT_REQUEST_HEADER,
    schema: SidecarConvertFileRequestSchema,
    what: "convert-file",
    limit: (description) => description.limits.maxResponseBytes,
    tooLargeCode: "FILE_TOO_LARGE",
  });
  if (read) await answer(res, (signal) => convertFile(read.bytes, read.description, deps, signal));
}

/**
 * POST /v1/relay: the request to forward in the X-Relay-Request header, its body as the body. The
 * destination's answer streams back as it comes (X-Relay: upstream); anything the sidecar answers
 * itself is a JSON Failure (X-Relay: refused). The caller going away closes the upstream request.
 */
async function handleRelay(req: IncomingMessage, res: ServerResponse, deps: SidecarDeps): Promise<void> {
  res.setHeader(RELAY_HEADER, "refused");
  const read = await describedBody(req, res, { header: RELAY_REQUEST_HEADER, schema: SidecarRelayRequestSchema, what: "relay", limit: () => MAX_RELAY_BODY_BYTES });
  if (!read) return;
  if (read.description.method === "GET" && read.bytes.length > 0) {
    return send(res, 400, fail("VALIDATION_FAILED", "A GET relay request carries no body; send it as POST or without one.", ["method"]));
  }
  const relayed = await relayRequest(read.description, read.bytes, deps, callerGone(res));
  if (!relayed.ok) {
    if (relayed.error.code !== "aborted") send(res, RELAY_FAILURE_STATUS[relayed.error.code], relayed);
    return;
  }
  const { status, headers, body } = relayed.value;
  res.writeHead(status, { ...headers, [RELAY_HEADER]: "upstream" });
  // Headers go now: a stream's first event may be long in coming.
  res.flushHeaders();
  // A body that fails midway (the destination gone, or silent past idleMs) ends the answer unfinished, so the caller sees it broke.
  await pipeline(body, res).catch(() => {});
}

/** Runs an operation; a caller that goes away cancels its work. */
async function answer(res: ServerResponse, run: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const result = await run(callerGone(res));
  if (!res.destroyed) send(res, 200, result);
}

/** Answers 413 first, then drops the connection instead of reading the rest. */
function tooLarge(req: IncomingMessage, res: ServerResponse, limit: number, code: "PAYLOAD_TOO_LARGE" | "FILE_TOO_LARGE" = "PAYLOAD_TOO_LARGE"): void {
  res.setHeader("connection", "close");
  // A lingering close: the answer is flushed and the rest of the body discarded for a moment, since
  // destroying the socket while the client still sends resets the connection and can lose the 413.
  res.on("finish", () => {
    req.resume();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  });
  send(res, 413, fail(code, `${code === "FILE_TOO_LARGE" ? "Documents" : "Requests"} are limited to ${limit} bytes.`));
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Listens and answers the bound address (port 0 picks a free port). */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}
