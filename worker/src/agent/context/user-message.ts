import { fail, ok, type Result } from "@edge-web/shared";
import type { UserModelMessage } from "ai";
import type { SessionMessage } from "@edge-web/shared";
import { fromBase64, toBase64 } from "../../attachments/base64url.ts";
import { cutText } from "../../tools/cap-content.ts";

/** What a user sends: text, images (base64) and uploaded attachments. */
export interface UserInput {
  message: string;
  images?: Array<{ data: string; mimeType: string }>;
  attachmentIds?: string[];
}

export interface StoredFile {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

export interface UserMessageDeps {
  newId(): string;
  /** Keeps an inline image as an attachment of the session; answers its id. */
  keepImage(bytes: Uint8Array, mimeType: string): Promise<string>;
  /** An attachment of this session, or undefined (unknown, or another session's). */
  attachment(id: string): Promise<StoredFile | undefined>;
  /** How much of a text attachment the model gets (web.maxContentChars). */
  maxTextChars: number;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-ndjson|csv|toml|x-sh)\b|application\/[\w.+-]+\+(json|xml)\b)/i;
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)\b/i;

const dataUrl = (file: { mimeType: string; bytes: Uint8Array }) => `data:${file.mimeType};base64,${toBase64(file.bytes)}`;

/**
 * A user's message for the history and for the model. Images (inline or uploaded) become file parts
 * that point at the session's attachments (the history stays small; the model gets the bytes), text
 * files become text. Anything else is refused, saying which types work.
 */
export async function buildUserMessage(input: UserInput, deps: UserMessageDeps): Promise<Result<{ message: SessionMessage; model: () => UserModelMessage }>> {
  const parts: SessionMessage["parts"] = [{ type: "text", text: input.message }];
  // The model's copy is built only when asked for (a steered message): a turn reads the history itself.
  const content: Array<() => Exclude<UserModelMessage["content"], string>[number]> = [() => ({ type: "text", text: input.message })];
  for (const [i, image] of (input.images ?? []).entries()) {
    if (!IMAGE_TYPES.test(image.mimeType)) return fail("VALIDATION_FAILED", `images.${i} is ${image.mimeType}; send PNG, JPEG, GIF or WebP images.`, [`images.${i}.mimeType`]);
    const id = await deps.keepImage(fromBase64(image.data), image.mimeType);
    parts.push({ type: "file", mediaType: image.mimeType, url: `attachment:${id}`, filename: `image-${i + 1}` });
    content.push(() => ({ type: "image", image: `data:${image.mimeType};base64,${image.data}`, mediaType: image.mimeType }));
  }
  for (const [i, id] of (input.attachmentIds ?? []).entries()) {
    const file = await deps.attachment(id);
    if (!file) return fail("VALIDATION_FAILED", `attachmentIds.${i}: no attachment "${id}" in this session; upload it with POST /api/sessions/:id/attachments first.`, [`attachmentIds.${i}`]);
    if (IMAGE_TYPES.test(file.mimeType)) {
      parts.push({ type: "file", mediaType: file.mimeType, url: `attachment:${id}`, filename: file.name });
      content.push(() => ({ type: "image", image: dataUrl(file), mediaType: file.mimeType }));
    } else if (TEXT_TYPES.test(file.mimeType)) {
      const text = `Attached file ${file.name}:\n${cutText(new TextDecoder().decode(file.bytes), deps.maxTextChars)}`;
      parts.push({ type: "text", text });
      content.push(() => ({ type: "text", text }));
    } else {
      return fail(
        "VALIDATION_FAILED",
        `attachmentIds.${i} (${file.name}) is ${file.mimeType}; attach images (PNG, JPEG, GIF, WebP) or text files (text/*, JSON, XML, YAML, CSV).`,
        [`attachmentIds.${i}`],
      );
    }
  }
  const message: SessionMessage = { id: `msg_${deps.newId()}`, role: "user", parts, metadata: { createdAt: Date.now() } };
  return ok({ message, model: () => ({ role: "user", content: content.map((part) => part()) }) });
}
