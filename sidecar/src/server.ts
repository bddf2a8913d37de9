import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fail, SidecarFetchRequestSchema, SidecarSearchRequestSchema, type Failure } from "@edge-web/shared";
import * as v from "valibot";
import { isAuthorized } from "./bearer-auth.ts";
import { fetchContent, type FetchContentDeps } from "./fetch/fetch-content.ts";
import { searchWeb } from "./search/search-web.ts";

export interface SidecarOptions {
  token: string;
  deps: FetchContentDeps;
}

/** Requests to the sidecar are small JSON documents. */
const MAX_REQUEST_BYTES = 256 * 1024;

/** A POST route: its body's schema, and the operation that answers a Result for a valid body. */
interface Operation {
  parse(json: unknown): { ok: true; value: (deps: FetchContentDeps, signal: AbortSignal) => Promise<unknown> } | Failure;
}

function operation<S extends v.GenericSchema>(
  what: string,
  schema: S,
  run: (input: v.InferOutput<S>, deps: FetchContentDeps, signal: AbortSignal) => Promise<unknown>,
): Operation {
  return {
    parse(json) {
      const parsed = v.safeParse(schema, json);
      if (!parsed.success) {
        const fields = [...new Set(parsed.issues.map((i) => v.getDotPath(i) ?? "(root)"))];
        return fail("VALIDATION_FAILED", `Invalid ${what} request: ${fields.join(", ")}.`, fields);
      }
      return { ok: true, value: (deps, signal) => run(parsed.output, deps, signal) };
    },
  };
}

const OPERATIONS = new Map<string, Operation>([
  ["/v1/fetch", operation("fetch", SidecarFetchRequestSchema, fetchContent)],
  ["/v1/search", operation("search", SidecarSearchRequestSchema, searchWeb)],
]);

/** The sidecar's HTTP API: POST /v1/fetch, POST /v1/search and GET /healthz, all behind the bearer token. */
export function createSidecarServer({ token, deps }: SidecarOptions): Server {
  return createServer((req, res) => {
    handle(req, res, token, deps).catch((err: unknown) => {
      console.error("sidecar: request failed", err instanceof Error ? err.message : String(err));
      if (!res.headersSent) send(res, 500, fail("INTERNAL_ERROR", "The sidecar failed unexpectedly; retry."));
      else res.destroy();
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, token: string, deps: FetchContentDeps): Promise<void> {
  const path = new URL(req.url ?? "/", "http://sidecar").pathname;
  if (!isAuthorized(req.headers.authorization, token)) {
    req.resume();
    return send(res, 401, fail("UNAUTHORIZED", "Send Authorization: Bearer <SIDECAR_TOKEN>."));
  }
  if (req.method === "GET" && path === "/healthz") return send(res, 200, { ok: true });
  const op = req.method === "POST" ? OPERATIONS.get(path) : undefined;
  if (!op) {
    req.resume();
    return send(res, 404, fail("ROUTE_NOT_FOUND", `No route for ${req.method} ${path}.`));
  }

  const body = await readBody(req);
  if (body === undefined) {
    // Answer first, then drop the connection instead of reading the rest.
    res.setHeader("connection", "close");
    res.on("finish", () => req.socket.destroy());
    return send(res, 413, fail("PAYLOAD_TOO_LARGE", `Requests are limited to ${MAX_REQUEST_BYTES} bytes.`));
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return send(res, 400, fail("INVALID_JSON", "The body is not valid JSON."));
  }
  const parsed = op.parse(json);
  if (!parsed.ok) return send(res, 400, parsed);

  // A caller that goes away cancels its work.
  const cancel = new AbortController();
  res.on("close", () => cancel.abort());
  const result = await parsed.value(deps, cancel.signal);
  if (!res.destroyed) send(res, 200, result);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
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
