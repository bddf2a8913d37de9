import type { HandlerOutput } from "../extract/content-handler.ts";
import type { PageAnswer } from "./block-sign.ts";

/** An answer as the signs read it: what was served and what its extraction found (its length: the body's shown text or the extraction, whichever is longer). */
export function pageAnswer(status: number, headers: Readonly<Record<string, string>>, body: string, extracted: HandlerOutput): PageAnswer {
  return {
    status,
    headers,
    body,
    ...(extracted.title !== undefined && { title: extracted.title }),
    text: extracted.content,
    shownChars: Math.max(extracted.signals?.bodyTextChars ?? 0, extracted.content.length),
  };
}
