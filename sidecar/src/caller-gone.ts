import type { ServerResponse } from "node:http";

/** A signal that fires when the caller goes away before its answer has been sent; an answer sent in full fires nothing. */
export function callerGone(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
