import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { APICallError } from "ai";
import { createParser } from "eventsource-parser";

export type EnqueuePart = (part: LanguageModelV4StreamPart) => void;

/** What a provider's wire format makes of its server-sent events: parts, given to the `enqueue` it was made with. */
export interface EventDecoder {
  /** Before the first event (the stream's first part, `stream-start`). */
  start(): void;
  /** One event's data, with its event type when the server named one. */
  event(data: string, type: string | undefined): void;
  /** After the last event: what closes the answer (open blocks, `finish`). */
  end(): void;
}

/** Where a provider's answer came from, for the error a broken stream is reported as. */
export interface StreamSource {
  url: string;
  requestBodyValues: unknown;
  statusCode: number;
  responseHeaders: Record<string, string>;
}

/** An abort (the turn's or the idle watch's) stays what it is; anything else breaking the read is the connection's. */
const isAbort = (error: unknown) => error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");

/**
 * A provider's streamed answer (server-sent events) as model parts, in one pass: the connection's
 * bytes read by one reader, decoded and split into events by one parser, each event turned into
 * parts by the wire format's decoder, straight into the one stream the caller reads. The AI SDK's
 * providers put four streams between the connection and their parts (a wrapper, a text decoder, an
 * event parser and a JSON transform, each chunk a round of promises through every one), which cost
 * more of a turn's CPU than the rest of the model call. Each pull reads until a read has given at
 * least one part, so the stream keeps the connection's pace.
 *
 * With `refuseFirst`, the answer is read until its first part after `stream-start`, and what
 * `refuseFirst` makes of that part, if anything, is thrown instead (a provider that streams an error
 * before any content: the call fails as an HTTP refusal would).
 */
export async function eventStreamParts(
  body: ReadableStream<Uint8Array>,
  makeDecoder: (enqueue: EnqueuePart) => EventDecoder,
  source: StreamSource,
  refuseFirst?: (part: LanguageModelV4StreamPart) => unknown,
): Promise<ReadableStream<LanguageModelV4StreamPart>> {
  const reader = body.getReader();
  const text = new TextDecoder();
  // Parts go here until the stream exists, then into it.
  const early: LanguageModelV4StreamPart[] = [];
  let deliver: EnqueuePart = (part) => early.push(part);
  let given = 0;
  const enqueue: EnqueuePart = (part) => {
    given++;
    deliver(part);
  };
  const decoder = makeDecoder(enqueue);
  const parser = createParser({ onEvent: (event) => decoder.event(event.data, event.event) });
  let ended = false;
  const broken = (error: unknown) => (isAbort(error) ? error : new APICallError({ message: "The model's answer broke off while it streamed", cause: error, ...source }));
  /** Reads one piece of the body into parts; at its end, the decoder's closing parts. A decoder that throws refuses the answer (a tool call without a name). */
  const readOnce = async () => {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      throw broken(error);
    }
    if (read.done) {
      parser.feed(text.decode());
      // A last event the server did not end with a blank line is still the server's answer.
      parser.feed("\n\n");
      decoder.end();
      ended = true;
    } else parser.feed(text.decode(read.value, { stream: true }));
  };
  decoder.start();
  if (refuseFirst) {
    try {
      while (early.length < 2 && !ended) await readOnce();
    } catch (error) {
      await reader.cancel(error).catch(() => {});
      throw error;
    }
    const refusal = early[1] && refuseFirst(early[1]);
    if (refusal) {
      await reader.cancel(refusal).catch(() => {});
      throw refusal;
    }
  }
  return new ReadableStream<LanguageModelV4StreamPart>(
    {
      start(controller) {
        for (const part of early) controller.enqueue(part);
        deliver = (part) => controller.enqueue(part);
        if (ended) controller.close();
      },
      async pull(controller) {
        const before = given;
        while (given === before && !ended) {
          try {
            await readOnce();
          } catch (error) {
            controller.error(error);
            await reader.cancel(error).catch(() => {});
            return;
          }
        }
        if (ended) controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
