/** An uploaded file as the API describes it. */
export interface Attachment {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  origin: "upload" | "inline";
  sessionId: string;
  /** When it was stored (ISO 8601): R2's own upload time, so the answer and later reads agree. */
  createdAt: string;
}

/** Stores the bytes under the attachment id, with what a download needs as metadata; answers the attachment with its creation time. */
export async function putAttachment(bucket: R2Bucket, attachment: Omit<Attachment, "createdAt">, bytes: Blob): Promise<Attachment> {
  const stored = await bucket.put(attachment.id, bytes, {
    httpMetadata: { contentType: attachment.mimeType },
    customMetadata: { name: attachment.name, mimeType: attachment.mimeType, sessionId: attachment.sessionId, origin: attachment.origin },
  });
  return { ...attachment, createdAt: stored.uploaded.toISOString() };
}

/** The stored attachment and its body as a stream, or null when there is none. */
export async function getAttachment(bucket: R2Bucket, id: string): Promise<{ attachment: Attachment; body: ReadableStream } | null> {
  const object = await bucket.get(id);
  if (!object) return null;
  const meta = object.customMetadata ?? {};
  return {
    attachment: {
      id,
      name: meta.name ?? id,
      mimeType: meta.mimeType ?? object.httpMetadata?.contentType ?? "application/octet-stream",
      size: object.size,
      origin: meta.origin === "inline" ? "inline" : "upload",
      sessionId: meta.sessionId ?? "",
      createdAt: object.uploaded.toISOString(),
    },
    body: object.body,
  };
}
