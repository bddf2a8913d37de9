import type { Attachment } from "./attachment-store.ts";

/** RFC 8187 value: encodeURIComponent leaves ' ( ) * unescaped, which attr-char does not allow. */
function encodeFilename(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Headers for serving an attachment. The MIME type is uploader-controlled, so the browser must not
 * sniff it (nosniff) and an HTML or SVG file must not run with this origin's privileges (sandbox).
 * Signed URLs are made to be embedded (`<img src>`), from other origins too.
 */
export function attachmentHeaders(attachment: Attachment): Record<string, string> {
  return {
    "Content-Type": attachment.mimeType,
    "Cache-Control": "private, max-age=300",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Content-Disposition": `inline; filename*=UTF-8''${encodeFilename(attachment.name)}`,
  };
}
