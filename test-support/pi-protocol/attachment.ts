import * as v from "valibot";

/** pi-web's attachment descriptor: no bytes, `createdAt` an ISO 8601 timestamp. */
export const PiAttachmentSchema = v.object({
  id: v.string(),
  name: v.string(),
  mimeType: v.string(),
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  origin: v.picklist(["upload", "tool-output"]),
  sessionId: v.string(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
});

/** What pi-web's client parses from `POST /sessions/:id/attachments`. */
export const PiUploadAttachmentResponseSchema = v.object({ attachment: PiAttachmentSchema, displayUrl: v.string() });
