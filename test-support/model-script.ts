import http from "node:http";
import { startOrigin } from "./origin.ts";

/** One tool call a scripted reply makes: its arguments are streamed in `pieces` parts. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
  pieces?: number;
}

/**
 * What the fake model answers to one request. A reply streams `reasoning` deltas, then `text`
 * deltas, then tool calls, then usage and the finish reason. `status` answers an HTTP error
 * instead (with `headers`, e.g. Retry-After); `hang` sends the head and nothing more (the stream
 * stays open until the client goes away); `malformed` sends a chunk that is not JSON; `delayMs`
 * waits before each chunk; `stallAfter` stops after that many chunks without ending the stream;
 * `holdAfter` waits after that many chunks until the test releases the held replies.
 */
export interface ScriptedReply {
  reasoning?: string[];
  text?: string[];
  toolCalls?: ScriptedToolCall[];
  usage?: { input: number; output: number; cacheRead?: number };
  finish?: "stop" | "tool_calls" | "length";
  status?: number;
  headers?: Record<string, string>;
  hang?: boolean;
  malformed?: boolean;
  delayMs?: number;
  stallAfter?: number;
  holdAfter?: number;
  /** Answers the next summary request (one whose body has "CONTEXT CHECKPOINT") instead of the next ordinary one. */
  summary?: boolean;
}

/** A promise and the function that resolves it. */
function released(): { promise: Promise<void>; release(): void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/** A reply as served: one with `holdAfter` carries the release it waits for. */
export type ServedReply = ScriptedReply & { released?: Promise<void> };

/** An image's data as the two wire formats send it: a data URL (Chat Completions) or a base64 `data` field (Messages). */
const IMAGE_DATA = /data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=]+|"data":"[A-Za-z0-9+/=]{64,}"/g;
/** What one image counts for: providers count an image by its pixels, whatever its bytes. */
export const IMAGE_TOKENS = 1_000;

/** How a fake measures a request: a token for every 4 characters of its body, as the worker estimates, and IMAGE_TOKENS per image. */
export const measureTokens = (body: string) => {
  let images = 0;
  const rest = body.replace(IMAGE_DATA, () => {
    images++;
    return "";
  });
  return Math.ceil(rest.length / 4) + images * IMAGE_TOKENS;
};

/** Marks the summary requests the worker's compaction sends (worker/src/agent/context/summarise-history.ts). */
export const SUMMARY_MARK = "CONTEXT CHECKPOINT";

export interface ModelRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Set once the client closed the connection before the reply had ended. */
  aborted: boolean;
  /** Set once the reply was sent to the end. */
  completed: boolean;
  /** When the request arrived and when its reply ended (ms since the epoch). */
  receivedAt: number;
  endedAt?: number;
  /** Its size by measureTokens, and whether it asked for a summary. */
  tokens: number;
  summary: boolean;
}

/**
 * The scripting and request log every fake model server shares. Replies are taken in order;
 * with none left, a request gets a short text answer. Tests in workerd steer a fake over HTTP:
 * `POST /__control/script` (a JSON array of replies, appended), `POST /__control/reset`, and
 * `GET /__control/requests` (the log), `POST /__control/window` (`{ "contextWindow": n }` or `{}`),
 * `POST /__control/release` (the replies held by `holdAfter` go on).
 *
 * With a context window set, the fake acts as a model with that window: a request measured above it
 * is refused with the provider's context-length answer (no reply used up), and the usage it reports
 * is the request's measured size. Summary requests take the replies scripted with `summary: true`
 * (else a default summary), so a test's script need not guess when a compaction happens.
 */
export class ModelScript {
  readonly requests: ModelRequest[] = [];
  private replies: ScriptedReply[] = [];
  private summaries: ScriptedReply[] = [];
  contextWindow: number | undefined;
  private hold = released();

  script(...replies: ScriptedReply[]): void {
    for (const reply of replies) (reply.summary ? this.summaries : this.replies).push(reply);
  }

  /** The replies held now go on; a reply held later waits for the next release. */
  release(): void {
    this.hold.release();
    this.hold = released();
  }

  reset(): void {
    this.release();
    this.replies = [];
    this.summaries = [];
    this.contextWindow = undefined;
    this.requests.length = 0;
  }

  /** The reply to `entry`; undefined when the request is over the window (the caller refuses it). */
  next(entry?: ModelRequest): ServedReply | undefined {
    if (entry && this.contextWindow !== undefined && entry.tokens > this.contextWindow) return undefined;
    const reply = entry?.summary
      ? (this.summaries.shift() ?? { text: ["## Goal\nRead the pages.\n## Sources read\nThe loopback pages (their responseIds are in the history)."] })
      : (this.replies.shift() ?? { text: ["Hello", " from the fake model."], usage: { input: 10, output: 5 } });
    const served: ServedReply = reply.holdAfter === undefined ? reply : { ...reply, released: this.hold.promise };
    return this.contextWindow !== undefined && entry && !reply.usage ? { ...served, usage: { input: entry.tokens, output: 20 } } : served;
  }

  /** Answers control requests; false when `req` is not one. */
  control(req: http.IncomingMessage, body: string, res: http.ServerResponse): boolean {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    if (!path.startsWith("/__control/")) return false;
    if (path === "/__control/script") this.script(...(JSON.parse(body || "[]") as ScriptedReply[]));
    else if (path === "/__control/reset") this.reset();
    else if (path === "/__control/release") this.release();
    else if (path === "/__control/window") this.contextWindow = (JSON.parse(body || "{}") as { contextWindow?: number }).contextWindow;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(path === "/__control/requests" ? this.requests : { ok: true }));
    return true;
  }

  /** Logs a request; its entry records whether the client went away before the reply ended. */
  record(req: http.IncomingMessage, res: http.ServerResponse, body: string): ModelRequest {
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {}
    const entry: ModelRequest = {
      method: req.method ?? "",
      path: new URL(req.url ?? "/", "http://fake").pathname,
      headers: req.headers,
      body: parsed,
      aborted: false,
      completed: false,
      receivedAt: Date.now(),
      tokens: measureTokens(body),
      summary: body.includes(SUMMARY_MARK),
    };
    this.requests.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.aborted = true;
    });
    return entry;
  }
}

/** Writes `chunks` one by one as server-sent events, honouring the reply's delay, stall, hold and hang. */
export async function streamChunks(res: http.ServerResponse, entry: ModelRequest, reply: ServedReply, chunks: string[]): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  if (reply.hang) return;
  const limit = reply.stallAfter ?? chunks.length;
  for (const [i, chunk] of chunks.entries()) {
    if (i >= limit || res.destroyed) return;
    if (i === reply.holdAfter) await reply.released;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.write(chunk);
  }
  res.end();
  entry.completed = true;
  entry.endedAt = Date.now();
}

/** A reply's arguments as JSON text cut into `pieces` parts. */
export function argumentPieces(call: ScriptedToolCall): string[] {
  const json = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
  const count = Math.max(1, Math.min(call.pieces ?? 2, json.length));
  const size = Math.ceil(json.length / count);
  return Array.from({ length: count }, (_, i) => json.slice(i * size, (i + 1) * size)).filter((piece) => piece !== "");
}

/** A fake model server: the provider's base URL, its root (where `/__control/*` answers), its script. */
export interface FakeModelServer {
  baseURL: string;
  url: string;
  script: ModelScript;
  close(): Promise<void>;
}

/** Serves a fake model's `handler` on loopback (port 0), control requests answered by its script first. */
export async function serveFakeModel(
  host: string,
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string, script: ModelScript) => Promise<void> | void,
): Promise<FakeModelServer> {
  const script = new ModelScript();
  // The script keeps the request log; the origin's own would hold every body twice, for as long as the server runs.
  const origin = await startOrigin(
    host,
    (req, res, body) => {
      if (!script.control(req, body, res)) void handler(req, res, body, script);
    },
    { record: false },
  );
  return { baseURL: `${origin.url}/v1`, url: origin.url, script, close: origin.close };
}
