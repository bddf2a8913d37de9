import type { ServerResponse } from "node:http";
import type { Handler } from "./origin.ts";

/**
 * Routes for the relay tests in workerd, which steer them over HTTP: `/relay-stream?id=` sends one
 * event and holds the stream open until `/relay-release?id=` ends it with a second one;
 * `/relay-state?id=` tells whether it was opened, ended, or closed by the client first;
 * `/relay-echo` answers its request as JSON, and `/relay-redirect` redirects there; `/relay-status-600`
 * answers a raw status line with a status no HTTP status has.
 */
export function relayUpstreamRoutes(): Record<string, Handler> {
  const streams = new Map<string, { res: ServerResponse; ended: boolean; closed: boolean }>();
  const id = (url: string | undefined) => new URL(url ?? "/", "http://origin").searchParams.get("id") ?? "";
  const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  return {
    "/relay-stream": (req, res) => {
      const entry = { res, ended: false, closed: false };
      res.on("close", () => (entry.closed = !entry.ended));
      streams.set(id(req.url), entry);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write("data: one\n\n");
    },
    "/relay-release": (req, res) => {
      const entry = streams.get(id(req.url));
      if (entry) {
        entry.ended = true;
        entry.res.end("data: two\n\n");
      }
      json(res, { released: entry !== undefined });
    },
    "/relay-state": (req, res) => {
      const entry = streams.get(id(req.url));
      json(res, { opened: entry !== undefined, ended: entry?.ended ?? false, closed: entry?.closed ?? false });
    },
    "/relay-echo": (req, res, body) => json(res, { method: req.method, headers: req.headers, body }),
    "/relay-redirect": (_req, res) => res.writeHead(302, { location: "/relay-echo" }).end(),
    "/relay-status-600": (req) => req.socket.end("HTTP/1.1 600 Weird\r\ncontent-length: 5\r\nconnection: close\r\n\r\nweird"),
  };
}
