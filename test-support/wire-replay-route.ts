import type { Handler } from "./origin.ts";
import { REPLAY_HEADER, type WireReplay } from "./wire-replay.ts";

const PAUSE_MS = 3;

/** Answers each request as its REPLAY_HEADER says; a request without one gets 400. */
export function wireReplayRoute(): Handler {
  return (req, res) => {
    const header = req.headers[REPLAY_HEADER];
    if (typeof header !== "string") return void res.writeHead(400, { "content-type": "text/plain" }).end(`no ${REPLAY_HEADER} header`);
    const replay = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as WireReplay;
    let pieces: Buffer[] = (replay.pieces ?? []).map((piece) => Buffer.from(piece, "utf8"));
    if (replay.body !== undefined) {
      const bytes = Buffer.from(replay.body, "utf8");
      const size = replay.sliceBytes ?? bytes.length;
      pieces = [];
      for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
    }
    if (replay.padding) pieces.push(Buffer.alloc(replay.padding, " "));
    res.writeHead(replay.status ?? 200, { "content-type": "text/event-stream", ...replay.headers });
    res.flushHeaders();
    const next = (i: number) => {
      if (res.destroyed) return;
      if (i === pieces.length) return void (replay.reset ? res.socket?.resetAndDestroy() : res.end());
      res.write(pieces[i]);
      setTimeout(() => next(i + 1), PAUSE_MS);
    };
    next(0);
  };
}
