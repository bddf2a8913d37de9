import type { BrowserContext, Page } from "playwright-core";

/** DevTools keeps bodies for Network.getResponseBody; this session reads none, so it keeps none. */
const KEEP_NO_BODIES = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };
/** Workers and out-of-process frames are attached without pausing them (Playwright resumes what it pauses). */
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: false, flatten: false };

interface Message {
  method?: string;
  params?: Record<string, unknown>;
}

/**
 * Counts the bytes a page receives once decoded (Network.dataReceived's dataLength, WebSocket
 * messages by their payload), over TLS too, where the proxy sees only ciphertext: in its own frame,
 * and in every worker and out-of-process iframe it starts (cross-site frames run in renderers of
 * their own). Those are attached through this DevTools session without flattening, so their events
 * arrive wrapped in this session's own (Playwright drops messages for sessions it did not open).
 * `onBytes` gets the running total.
 */
export async function countReceivedBytes(context: BrowserContext, page: Page, onBytes: (total: number) => void): Promise<void> {
  const cdp = await context.newCDPSession(page);
  let total = 0;
  let id = 0;
  /** Sends to a target attached below this session, wrapped once for each level down to it. */
  const sendTo = (path: string[], method: string, params: object) => {
    let message = JSON.stringify({ id: ++id, method, params });
    for (let level = path.length - 1; level > 0; level--) {
      message = JSON.stringify({ id: ++id, method: "Target.sendMessageToTarget", params: { sessionId: path[level], message } });
    }
    cdp.send("Target.sendMessageToTarget", { sessionId: path[0]!, message }).catch(() => {});
  };
  const received = (bytes: number) => {
    total += bytes;
    onBytes(total);
  };
  const onMessage = (path: string[], { method, params = {} }: Message) => {
    if (method === "Network.dataReceived") received(Number(params.dataLength) || 0);
    else if (method === "Network.webSocketFrameReceived") received(String((params.response as { payloadData?: unknown })?.payloadData ?? "").length);
    else if (method === "Target.attachedToTarget") {
      const child = [...path, String(params.sessionId)];
      sendTo(child, "Network.enable", KEEP_NO_BODIES);
      sendTo(child, "Target.setAutoAttach", AUTO_ATTACH);
    } else if (method === "Target.receivedMessageFromTarget") {
      onMessage([...path, String(params.sessionId)], JSON.parse(String(params.message)) as Message);
    }
  };
  cdp.on("Network.dataReceived", (params) => onMessage([], { method: "Network.dataReceived", params }));
  cdp.on("Network.webSocketFrameReceived", (params) => onMessage([], { method: "Network.webSocketFrameReceived", params }));
  cdp.on("Target.attachedToTarget", (params) => onMessage([], { method: "Target.attachedToTarget", params }));
  cdp.on("Target.receivedMessageFromTarget", (params) => onMessage([], { method: "Target.receivedMessageFromTarget", params }));
  await cdp.send("Network.enable", KEEP_NO_BODIES);
  await cdp.send("Target.setAutoAttach", AUTO_ATTACH);
}
