import http from "node:http";
import net from "node:net";

export interface InspectorProxy {
  close(): Promise<void>;
}

/** Origins DevTools itself sends (Chrome's built-in front end, and the Workers DevTools page). */
const DEVTOOLS_ORIGINS = new Set(["devtools://devtools", "https://devtools.devprod.cloudflare.dev"]);

/**
 * workerd's inspector behind a guard, on `host:port` (loopback): the inspector evaluates code in
 * the worker's isolate, where `env` holds every secret, and checks neither `Host` nor `Origin`.
 * Any web page could reach it by DNS rebinding (a foreign `Host`) or by opening a WebSocket (a
 * foreign `Origin`); the guard answers only requests addressed to the loopback name it listens on
 * and refuses browser origins other than DevTools' own, as wrangler's inspector proxy does.
 * workerd's own inspector listens on a random loopback port the launcher does not print.
 */
export async function startInspectorProxy(host: string, port: number, target: { host: string; port: number }): Promise<InspectorProxy> {
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${host}:${port}`]);
  const refusal = (req: http.IncomingMessage): string | undefined => {
    if (!allowedHosts.has((req.headers.host ?? "").toLowerCase())) return "Host must be this inspector's loopback address";
    const origin = req.headers.origin;
    if (origin !== undefined && !DEVTOOLS_ORIGINS.has(origin)) return "web pages may not open the inspector";
    return undefined;
  };

  const server = http.createServer((req, res) => {
    const refused = refusal(req);
    if (refused) return void res.writeHead(403, { "content-type": "text/plain" }).end(`${refused}\n`);
    // The Host passed on is the guard's own, so the WebSocket URLs workerd lists point back here.
    const upstream = http.request({ ...target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.headersSent || res.writeHead(502).end());
    req.pipe(upstream);
  });

  // Upgraded connections are no longer the server's: closing it would leave them open.
  const tunnels = new Set<net.Socket>();
  server.on("upgrade", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    tunnels.add(socket);
    socket.on("close", () => tunnels.delete(socket));
    const refused = refusal(req);
    if (refused) return void socket.end(`HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-type: text/plain\r\n\r\n${refused}\n`);
    const upstream = net.connect(target.port, target.host, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("close", () => upstream.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
