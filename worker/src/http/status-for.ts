import type { CodedError, ErrorCode, Fault } from "@edge-web/shared";

const STATUS: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  WEB_SEARCH_INVALID_QUERY: 400,
  CONTENT_FETCH_INVALID_URL: 400,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  NO_FILE: 400,
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  DOMAIN_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  ATTACHMENT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SESSION_ENDED: 409,
  SESSION_BUSY: 409,
  UNKNOWN_EXTENSION_UI: 409,
  MODEL_NOT_CONFIGURED: 400,
  ENTRY_NOT_FOUND: 404,
  CRAWL_NOT_FOUND: 404,
  CRAWL_LIMIT_REACHED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SCHEMA_VALIDATION_FAILED: 422,
  PROTOCOL_VERSION_MISMATCH: 426,
  PROVIDER_RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SIDECAR_UNAVAILABLE: 503,
  WEB_SEARCH_TIMEOUT: 504,
  CONTENT_FETCH_TIMEOUT: 504,
  // The convert family (CONVERT_FAILED and NETWORK_ERROR are upstream failures: 502).
  UNSUPPORTED_PROTOCOL: 400,
  FILE_NOT_FOUND: 404,
  FILE_TOO_LARGE: 413,
  PRIVATE_NETWORK_BLOCKED: 403,
  CONVERT_TIMEOUT: 504,
};

const FAULT_STATUS: Record<Fault, number> = {
  policy: 403,
  robots: 403,
  "not-found": 404,
  "unsupported-type": 415,
  unreadable: 422,
  "too-many-requests": 429,
  upstream: 502,
  blocked: 502,
  unavailable: 503,
};

/**
 * The faults each catch-all code is answered with where it is known (the seed keeps one code for
 * them); a fault not listed for its code is ignored, so the document's statuses stay complete.
 */
const FAULTS_OF: Partial<Record<ErrorCode, readonly Fault[]>> = {
  CONTENT_FETCH_FAILED: ["policy", "robots", "not-found", "unsupported-type", "too-many-requests", "upstream", "blocked", "unavailable"],
  WEB_SEARCH_FAILED: ["too-many-requests", "upstream", "unavailable"],
  NETWORK_ERROR: ["policy", "upstream", "unavailable"],
  PROVIDER_AUTH_FAILED: ["upstream", "unavailable"],
  PROVIDER_UNAVAILABLE: ["upstream"],
  CONVERT_FAILED: ["robots", "unsupported-type", "unreadable", "too-many-requests", "upstream", "unavailable"],
  FILE_NOT_FOUND: ["not-found"],
};

/** 410 for an origin that said its resource is gone, 404 for every other not-found. */
const faultStatus = (fault: Fault, upstreamStatus?: number) => (fault === "not-found" && upstreamStatus === 410 ? 410 : FAULT_STATUS[fault]);

/** The one table from failures to HTTP statuses: the fault where the code covers several, else the code; other upstream failures are 502. */
export function statusFor(error: Pick<CodedError, "code" | "details">): number {
  const { code, details } = error;
  if (details && FAULTS_OF[code]?.includes(details.fault)) return faultStatus(details.fault, details.upstreamStatus);
  return STATUS[code] ?? 502;
}

/** Every status a code may be answered with (the OpenAPI document lists each). */
export function statusesFor(code: ErrorCode): number[] {
  const faults = FAULTS_OF[code] ?? [];
  const statuses = [STATUS[code] ?? 502, ...faults.map((fault) => FAULT_STATUS[fault]), ...(faults.includes("not-found") ? [410] : [])];
  return [...new Set(statuses)];
}
