import { encodeSseData, encodeSseFrame, PROTOCOL_VERSION, type ControlPayload, type UiMessageChunk } from "@edge-web/shared";
import type { OutputSink } from "../agent/turn/output-sink.ts";
import { capContent } from "../tools/cap-content.ts";
import { fitRow } from "./fit-row.ts";
import type { HeldSession } from "./held-session.ts";
import type { SessionStores } from "./session-stores.ts";
import { createStreamHub } from "./stream-hub.ts";

const control = (payload: ControlPayload) => ({ kind: "control" as const, protocolVersion: PROTOCOL_VERSION, payload });

/** Chunks after which the producer goes quiet (it waits for a model, a tool, a user, or has ended): their frames are not held back. */
const ENDS_BURST = new Set<UiMessageChunk["type"]>(["finish", "finish-step", "abort", "error"]);

/** A control frame that is not part of the session's numbered history (about one stream only). */
const controlText = (payload: ControlPayload) => encodeSseFrame(undefined, control(payload));

export type SessionStream = ReturnType<typeof createSessionStream>;

/**
 * The session's live streams and their replay log: sinks that frame what calls and turns produce
 * (numbered, logged for Last-Event-ID, broadcast), new subscribers with their replay, and closing
 * every stream with a reason. `written` is told of every frame (flush timing).
 */
export function createSessionStream(held: HeldSession, maxPending: number, written: () => void) {
  const hub = createStreamHub({
    maxPending,
    overflowText: () => controlText({ control: "error", code: "slow-consumer", message: "This stream fell too far behind and was closed; reconnect with Last-Event-ID to resume." }),
  });

  /**
   * A chunk goes out live whole; its stored copy (for replay) is capped to `maxStoredChars` and a row's size.
   * `hold`: the chunks that end a burst wait for the batch like the others.
   */
  const chunk = (stores: SessionStores, item: UiMessageChunk, maxStoredChars: number, hold: boolean) => {
    const live = { kind: "uiMessageChunk" as const, protocolVersion: PROTOCOL_VERSION, chunk: item };
    const liveJson = JSON.stringify(live);
    const capped = capContent(item, maxStoredChars);
    const storedJson = capped === item ? fitRow(live, undefined, liveJson) : fitRow({ ...live, chunk: capped });
    hub.broadcast(encodeSseData(stores.frames.append("uiMessageChunk", storedJson), "uiMessageChunk", liveJson), !hold && ENDS_BURST.has(item.type));
    written();
  };

  return {
    /**
     * Output into `stores` while they are the session's; stored copies capped to `maxStoredChars()`
     * (web.maxStoredContentChars). `directCall`: a direct tool call's, whose caller has its answer
     * in the HTTP response; its frames wait out the batch window (a few calls in a row share one
     * write per subscriber), where a turn's, which its followers wait for, go out as it goes quiet.
     */
    sink(stores: SessionStores, maxStoredChars: () => number, directCall = false): OutputSink {
      const alive = held.alive(stores);
      return {
        chunk: (item) => alive() && chunk(stores, item, maxStoredChars(), directCall),
        control: (payload) => {
          if (!alive()) return;
          const json = fitRow(control(payload));
          hub.broadcast(encodeSseData(stores.frames.append("control", json), "control", json), true);
          written();
        },
        message: (message) => alive() && stores.messages.put(capContent(message, maxStoredChars())),
      };
    },

    /**
     * GET …/stream: the frames after `Last-Event-ID` (or, when some are gone, first an `error` with
     * code `resync`: pi-web's protocol has no control frame of its own for it), then live frames.
     */
    subscribe(stores: SessionStores, headers: Headers, heartbeatMs: number): ReadableStream<Uint8Array> {
      const lastEventId = Number(headers.get("last-event-id") ?? "");
      const initial: string[] = [];
      if (Number.isInteger(lastEventId) && lastEventId >= 0 && headers.has("last-event-id")) {
        const { frames, gap, oldestId } = stores.frames.since(lastEventId);
        if (gap) {
          initial.push(
            controlText({
              control: "error",
              code: "resync",
              lastEventId,
              oldestAvailableId: oldestId,
              message: "Some frames after Last-Event-ID are no longer buffered; reload GET /api/sessions/:id/messages, then follow the stream.",
            }),
          );
        }
        initial.push(...frames.map((f) => f.text));
      }
      // Replay and registration happen in one synchronous step, so no frame falls between them.
      return hub.subscribe(initial, heartbeatMs);
    },

    /** Every open stream is told why the session ended, and closed. */
    close(stores: SessionStores, code: "deleted" | "idle"): void {
      hub.closeAll(encodeSseFrame(stores.frames.lastId() + 1, control({ control: "error", code, message: `session ended: ${code}` })));
    },

    subscribers: () => hub.size(),
  };
}
