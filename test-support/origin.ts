import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Which connection (index into `connections`) carried it. */
  connection: number;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface Origin {
  host: string;
  port: number;
  /** http(s)://host:port, IPv6 hosts in brackets. */
  url: string;
  connections: Socket[];
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * An origin on one loopback address (port 0 unless given) that records every connection and
 * request (`record: false`: none, for a server that keeps a log of its own). With `tls` it serves HTTPS.
 */
export async function startOrigin(
  host: string,
  handler: Handler,
  options: { port?: number; tls?: { key: string; cert: string }; record?: boolean } = {},
): Promise<Origin> {
  const connections: Socket[] = [];
  const requests: RecordedRequest[] = [];
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      if (options.record !== false) requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, connection: connections.indexOf(req.socket) });
      handler(req, res, body);
    });
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  // For TLS the request's socket is the TLSSocket, so record those rather than raw TCP sockets.
  server.on(options.tls ? "secureConnection" : "connection", (socket: Socket) => connections.push(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    host,
    port,
    url: `${options.tls ? "https" : "http"}://${shownHost}:${port}`,
    connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler answering every request with `status`, `body` and `headers`. */
export const reply =
  (status: number, body: string | Buffer = "", headers: http.OutgoingHttpHeaders = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, headers).end(body);
  };

/** A handler serving fixed paths (query ignored); other paths are 404. */
export const routes =
  (table: Record<string, Handler>): Handler =>
  (req, res, body) => {
    const handler = table[new URL(req.url ?? "/", "http://origin").pathname];
    if (handler) handler(req, res, body);
    else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  };

/** `reply` with a Content-Type. */
export const send = (status: number, contentType: string, body: string | Buffer, headers: http.OutgoingHttpHeaders = {}): Handler =>
  reply(status, body, { "content-type": contentType, ...headers });
