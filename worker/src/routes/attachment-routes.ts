import { described, fail, UploadRequestSchema, UploadResponseSchema } from "@edge-web/shared";
import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../app-env.ts";
import { newAttachmentId } from "../attachments/attachment-id.ts";
import { attachmentHeaders } from "../attachments/attachment-headers.ts";
import { getAttachment, putAttachment } from "../attachments/attachment-store.ts";
import { describeUpload } from "../attachments/describe-upload.ts";
import { maxAttachmentBytes } from "../attachments/max-attachment-bytes.ts";
import { readLimitedForm } from "../attachments/read-limited-form.ts";
import { attachmentDisplayUrl, verifyAttachmentSignature } from "../attachments/sign-attachment-url.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { openSession } from "../http/session-access.ts";
import { SESSION_ERRORS, type ApiRoute } from "./api-route.ts";

// Never sign with an empty key: anyone could forge download URLs.
const noSecret = fail("INTERNAL_ERROR", "Attachments are not configured: set the ATTACHMENT_SECRET secret (a long random string).").error;

export const UPLOAD_ROUTE = {
  method: "post",
  path: "/api/sessions/:id/attachments",
  tag: "attachments",
  summary: "Upload an attachment",
  body: { schema: UploadRequestSchema, type: "multipart/form-data" },
  ok: { status: 200, description: "Stored with the session.", schema: UploadResponseSchema },
  errors: [...SESSION_ERRORS, "SESSION_ENDED", "NO_FILE", "PAYLOAD_TOO_LARGE"],
} as const satisfies ApiRoute;

export const DOWNLOAD_ROUTE = {
  method: "get",
  path: "/api/attachments/:id/raw",
  tag: "attachments",
  summary: "Download an attachment by its signed URL",
  auth: false,
  query: v.object({ exp: described(v.string(), "Expiry (from the signed URL)."), sig: described(v.string(), "Signature (from the signed URL).") }),
  ok: { status: 200, description: "The file's bytes, served with the Content-Type stored for it at upload: any type.", type: "*/*" },
  errors: ["INVALID_SIGNATURE", "ATTACHMENT_NOT_FOUND"],
} as const satisfies ApiRoute;

/** Uploads into a session; behind the API's auth like every session route. */
export const attachmentUploadRoute = new Hono<AppEnv>().on(UPLOAD_ROUTE.method, UPLOAD_ROUTE.path, async (c) => {
  const secret = c.env.ATTACHMENT_SECRET;
  if (!secret) return jsonError(c, noSecret);
  const sessionId = c.req.param("id");
  const session = await openSession(c, sessionId, { active: true });
  if (!session.ok) return jsonError(c, session.error);

  const maxBytes = maxAttachmentBytes(c.env);
  const form = await readLimitedForm(c.req.raw, maxBytes);
  if (!form.ok) return jsonError(c, form.error);
  const file = form.value.get("file");
  if (!(file instanceof File) || file.size === 0) {
    return jsonError(c, fail("NO_FILE", "Send a non-empty file in a multipart/form-data field named \"file\".").error);
  }
  if (file.size > maxBytes) return jsonError(c, fail("PAYLOAD_TOO_LARGE", `The file is over ${maxBytes} bytes; send a smaller file.`).error);

  const attachment = await putAttachment(c.env.ATTACHMENTS, { id: newAttachmentId(), ...describeUpload(file), size: file.size, origin: "upload", sessionId }, file);
  // Recorded in the session, so that deleting the session deletes the file; a session deleted meanwhile takes it along now.
  const recorded = await session.value.stub.addAttachment(attachment.id);
  if (!recorded.ok) {
    await c.env.ATTACHMENTS.delete(attachment.id);
    return jsonError(c, recorded.error);
  }
  const displayUrl = await attachmentDisplayUrl(c.var.options.basePath, secret, attachment.id);
  return jsonOk(c, { attachment, displayUrl });
});

/**
 * Signed downloads, authorised by the URL's signature alone (a browser's <img src> cannot send a
 * bearer token): bound to no session, and needing neither the principal nor the API options.
 */
export const attachmentDownloadRoute = new Hono<AppEnv>().on(DOWNLOAD_ROUTE.method, DOWNLOAD_ROUTE.path, async (c) => {
  const secret = c.env.ATTACHMENT_SECRET;
  if (!secret) return jsonError(c, noSecret);
  const id = c.req.param("id");
  // Checked before any lookup, with one answer for missing, forged and expired, so nothing tells whether the id exists.
  if (!(await verifyAttachmentSignature(secret, id, c.req.query("exp"), c.req.query("sig")))) {
    return jsonError(c, fail("INVALID_SIGNATURE", "This attachment URL is invalid or expired; upload again for a fresh displayUrl.").error);
  }
  const stored = await getAttachment(c.env.ATTACHMENTS, id);
  if (!stored) return jsonError(c, fail("ATTACHMENT_NOT_FOUND", `Attachment "${id}" no longer exists.`).error);
  return c.body(stored.body, 200, attachmentHeaders(stored.attachment));
});

/** Both attachment routes, for mounting together where the download needs no separate auth treatment. */
export const attachmentRoutes = new Hono<AppEnv>().route("/", attachmentUploadRoute).route("/", attachmentDownloadRoute);
