import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect as netConnect, type AddressInfo, type Socket } from "node:net";
import { pipeline } from "node:stream/promises";
import { compileAllowList } from "../fetch/allow-list.ts";
import type { EgressResult, NetworkPolicy, VettedAddress } from "../fetch/egress-types.ts";
import { flattenHeaders } from "../fetch/flatten-headers.ts";
import { decodeBody } from "../fetch/read-body.ts";
import { safeRequest, type SafeRequestDeps } from "../fetch/safe-request.ts";
import { vetDestination } from "../fetch/vet-destination.ts";
import { callerGone } from "../caller-gone.ts";
import { linkSignals } from "../link-signals.ts";
import { endToEndHeaders } from "../relay/end-to-end-headers.ts";
import { refuse, type ProxySession } from "./proxy-session.ts";

/** Opens the TCP connection a CONNECT tunnel uses, to exactly the vetted address. */
export type TunnelConnector = (vetted: VettedAddress, port: number) => Socket;

export interface EgressProxyDeps extends SafeRequestDeps {
  connectTunnel?: TunnelConnector;
}

export interface EgressProxy {
  /** http://127.0.0.1:<port>, for the browser's --proxy-server. */
  readonly url: string;
  /** A session with its own credentials, policy and caps; close it when its page is done. */
  open(limits: { policy: NetworkPolicy; maxRequests: number; maxBytes: number }): EgressResult<ProxySession & { close(): void }>;
  close(): Promise<void>;
}

/** A browser's POST bodies (forms, beacons, fetch) are small; larger ones are refused. */
const MAX_BODY_BYTES = 1_048_576;
/**
 * The browser's own fields the proxy does not pass on: Host is taken from the URL, lengths are
 * undici's, and the codings asked for are safeRequest's own, the ones the proxy decodes.
 */
const NOT_FORWARDED = ["host", "content-length", "expect", "accept-encoding"];

const pinnedConnect: TunnelConnector = (vetted, port) => netConnect({ host: vetted.address, port, family: vetted.family });

/**
 * The only way out for the browser: an HTTP proxy on 127.0.0.1 that sends each absolute-URI GET or
 * POST through safeRequest (names, every IP notation, DNS answers, a connection pinned to the
 * vetted address; redirects come back to the browser, whose next request is vetted again) and opens
 * CONNECT tunnels only to a vetted address. Every request needs a live session's credentials
 * (Proxy-Authorization: Basic), so nothing else on the machine can use it, and each page is held to
 * its own call's network policy and caps. Refusals answer 403 and are counted on the session.
 */
export async function startEgressProxy(deps: EgressProxyDeps): Promise<EgressProxy> {
  const sessions = new Map<string, OpenSession>();
  const connectTunnel = deps.connectTunnel ?? pinnedConnect;

  const sessionOf = (req: IncomingMessage) => {
    const [scheme, encoded] = (req.headers["proxy-authorization"] ?? "").split(" ");
    if (scheme?.toLowerCase() !== "basic" || !encoded) return undefined;
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const session = sessions.get(decoded.slice(0, colon));
    if (!session) return undefined;
    const given = Buffer.from(decoded.slice(colon + 1));
    const expected = Buffer.from(session.password);
    return given.length === expected.length && timingSafeEqual(given, expected) ? session : undefined;
  };

  const tooManyBytes = (session: ProxySession) => `more than ${session.maxBytes} response bytes (web.maxResponseBytes)`;

  /** Counts the request; a reason when the session's caps refuse it. */
  const overCap = (session: ProxySession) => {
    session.requests++;
    if (session.requests > session.maxRequests) return `more than ${session.maxRequests} requests (web.render.maxRequests)`;
    if (session.bytes >= session.maxBytes) return tooManyBytes(session);
    return undefined;
  };

  /**
   * Counts bytes an origin sent; past the session's cap the request is refused, `stop` ends it and
   * the session's page is told to stop (`exceeded`). False once past the cap.
   */
  const countBytes = (session: OpenSession, host: string, chunk: Uint8Array, stop: () => void) => {
    session.bytes += chunk.length;
    if (session.bytes <= session.maxBytes) return true;
    refuse(session, host, tooManyBytes(session));
    session.exceed();
    stop();
    return false;
  };

  const server = createServer((req, res) => {
    handleRequest(req, res).catch(() => res.destroy());
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse) {
    const session = sessionOf(req);
    if (!session) {
      req.resume();
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="render"', connection: "close" }).end();
      return;
    }
    const url = URL.parse(req.url ?? "");
    /** An answer of the proxy's own instead of an origin's, remembered by URL: a page that ends on one has no page of its own. */
    const answerItself = (status: 403 | 502, text: string, close = false) => {
      if (url) session.ownAnswers.set(url.href, status);
      res.writeHead(status, { "content-type": "text/plain", ...(close && { connection: "close" }) }).end(text);
    };
    const method = req.method === "GET" || req.method === "POST" ? req.method : undefined;
    const capped = overCap(session);
    if (!url || !method || capped) {
      req.resume();
      refuse(session, url?.host ?? "?", !url ? "a request without an absolute URL" : !method ? `the method ${req.method}` : capped!);
      answerItself(403, "Refused by the render proxy.");
      return;
    }
    const body = method === "POST" ? await readLimited(req, MAX_BODY_BYTES) : undefined;
    if (body === null) {
      refuse(session, url.host, `a request body over ${MAX_BODY_BYTES} bytes`);
      answerItself(403, "Refused by the render proxy.", true);
      return;
    }
    const stop = linkSignals([session.signal, callerGone(res)]);
    res.once("close", stop.unlink);
    const opened = await safeRequest(
      {
        url: url.href,
        method,
        headers: endToEndHeaders(req.headers as Record<string, string | undefined>, NOT_FORWARDED),
        ...(body && { body }),
        policy: session.policy,
        redirect: "manual",
      },
      { ...deps, allow: session.allow },
      stop.signal,
    );
    if (!opened.ok) {
      if (opened.error.code === "blocked") {
        refuse(session, url.host, opened.error.message);
        answerItself(403, "Refused by the network policy.");
      } else answerItself(502, "The destination could not be reached.");
      return;
    }
    const { status, headers, body: upstream } = opened.value;
    // The browser gets the body decoded, so what counts against the cap is what the page receives: a small gzip body may inflate a thousandfold.
    const decoded = decodeBody(upstream, flattenHeaders(headers)["content-encoding"]);
    if (!decoded.ok) {
      answerItself(502, "The destination's response could not be decoded.");
      return;
    }
    res.writeHead(status, endToEndHeaders(headers, ["content-encoding", "content-length"]));
    await pipeline(
      decoded.value,
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          // Past the cap the response is cut off rather than ended, so the browser does not take a part for the whole.
          if (!countBytes(session, url.host, chunk, () => upstream.destroy())) throw new Error(tooManyBytes(session));
          yield chunk;
        }
      },
      res,
    ).catch(() => res.destroy());
  }

  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    client.on("error", () => {});
    const session = sessionOf(req);
    if (!session) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="render"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const target = parseAuthority(req.url ?? "");
    const answer403 = (reason: string) => {
      refuse(session, target?.host ?? "?", reason);
      client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    };
    const capped = overCap(session);
    if (!target || capped) return answer403(capped ?? "a CONNECT target that is not host:port");
    void vetDestination(target.url, session.policy, session.allow, deps.resolver, session.signal).then((vetted) => {
      if (!vetted.ok) return answer403(vetted.error.message);
      const upstream = connectTunnel(vetted.value, target.port);
      const closeBoth = () => {
        upstream.destroy();
        client.destroy();
      };
      session.signal.addEventListener("abort", closeBoth, { once: true });
      upstream.on("error", () => (client.writable && upstream.connecting ? client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n") : closeBoth()));
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      upstream.once("connect", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.on("data", (chunk: Buffer) => countBytes(session, target.host, chunk, closeBoth));
        upstream.pipe(client);
        client.pipe(upstream);
      });
    });
  });

  // Upgrades through a plain proxy request are not a path the browser needs (WebSockets tunnel over CONNECT).
  server.on("upgrade", (req: IncomingMessage, socket: Socket) => {
    const session = sessionOf(req);
    if (session) refuse(session, URL.parse(req.url ?? "")?.host ?? "?", "an Upgrade request");
    socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  server.on("clientError", (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    open({ policy, maxRequests, maxBytes }) {
      const allow = compileAllowList(policy.allowHosts);
      if (!allow.ok) return allow;
      const closer = new AbortController();
      const username = randomBytes(12).toString("hex");
      const exceeded = new AbortController();
      const session: OpenSession = {
        username,
        password: randomBytes(24).toString("hex"),
        policy,
        allow: allow.value,
        maxRequests,
        maxBytes,
        signal: closer.signal,
        exceeded: exceeded.signal,
        requests: 0,
        bytes: 0,
        ownAnswers: new Map(),
        refused: 0,
        refusals: [],
        close() {
          sessions.delete(username);
          closer.abort();
        },
        exceed: () => exceeded.abort(),
      };
      sessions.set(username, session);
      return { ok: true, value: session };
    },
    async close() {
      for (const session of sessions.values()) session.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A session as the proxy holds it: what its page may do, closing it, and telling its page it is past its bytes. */
type OpenSession = ProxySession & { close(): void; exceed(): void };

/** A CONNECT request's authority: a host (a name, an IPv4 address or a bracketed IPv6 one) and a port, both required. */
const AUTHORITY = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+):(\d{1,5})$/i;

/**
 * The host (as a URL, for vetting) and port of a CONNECT target. The port is read here, not by the
 * URL parser: it drops a scheme's default port, and "host:443" must keep its 443.
 */
function parseAuthority(authority: string): { url: URL; port: number; host: string } | undefined {
  const match = AUTHORITY.exec(authority);
  const port = Number(match?.[2]);
  const url = match && URL.parse(`https://${match[1]}/`);
  if (!url || port < 1 || port > 65_535) return undefined;
  return { url, port, host: `${url.host}:${port}` };
}

/** The body, or null when it is longer than `limit`. */
async function readLimited(req: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
