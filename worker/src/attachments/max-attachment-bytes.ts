/** The default upload limit: 25 MiB. */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 26_214_400;

/** The optional override; wrangler [vars] may give it as a number or a string. */
export interface AttachmentLimitEnv {
  ATTACHMENT_MAX_BYTES?: string | number;
}

/** The largest file an upload may carry: ATTACHMENT_MAX_BYTES when it is a positive integer, else the default. */
export function maxAttachmentBytes(env: AttachmentLimitEnv): number {
  const override = Number(env.ATTACHMENT_MAX_BYTES);
  return Number.isSafeInteger(override) && override > 0 ? override : DEFAULT_MAX_ATTACHMENT_BYTES;
}
