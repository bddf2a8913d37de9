/** How a caller should react to an error. */
export type Recovery = "retry" | "fallback" | "skip" | "abort";
export type ErrorStatus = "active" | "reserved";

interface ErrorCodeInfo {
  status: ErrorStatus;
  recovery: Recovery;
}

/** The 16 canonical web tool error codes, with how a caller should react to each. */
export const WEB_ERROR_CODES = {
  INVALID_INPUT: { status: "active", recovery: "abort" },
  NOT_FOUND: { status: "active", recovery: "abort" },
  WEB_SEARCH_FAILED: { status: "active", recovery: "fallback" },
  WEB_SEARCH_TIMEOUT: { status: "active", recovery: "retry" },
  WEB_SEARCH_NO_RESULTS: { status: "reserved", recovery: "skip" },
  WEB_SEARCH_INVALID_QUERY: { status: "active", recovery: "abort" },
  CONTENT_FETCH_FAILED: { status: "active", recovery: "skip" },
  CONTENT_FETCH_TIMEOUT: { status: "active", recovery: "retry" },
  CONTENT_FETCH_INVALID_URL: { status: "active", recovery: "abort" },
  CONTENT_FETCH_TOO_LARGE: { status: "reserved", recovery: "skip" },
  PROVIDER_RATE_LIMITED: { status: "active", recovery: "retry" },
  PROVIDER_UNAVAILABLE: { status: "active", recovery: "retry" },
  PROVIDER_AUTH_FAILED: { status: "active", recovery: "abort" },
  NETWORK_ERROR: { status: "active", recovery: "retry" },
  PARSE_ERROR: { status: "reserved", recovery: "skip" },
  CACHE_ERROR: { status: "reserved", recovery: "skip" },
} as const satisfies Record<string, ErrorCodeInfo>;

export type WebErrorCode = keyof typeof WEB_ERROR_CODES;

/** Codes of the session protocol's HTTP layer. */
export const API_ERROR_CODES = [
  "PROTOCOL_VERSION_MISMATCH",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "SESSION_NOT_FOUND",
  "SESSION_ENDED",
  "INVALID_JSON",
  "VALIDATION_FAILED",
  "SCHEMA_VALIDATION_FAILED",
  "DOMAIN_NOT_FOUND",
  "ROUTE_NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "NO_FILE",
  "INVALID_SIGNATURE",
  "ATTACHMENT_NOT_FOUND",
  "SIDECAR_UNAVAILABLE",
  "INTERNAL_ERROR",
  "SESSION_BUSY",
  "MODEL_NOT_CONFIGURED",
  "UNKNOWN_EXTENSION_UI",
  "ENTRY_NOT_FOUND",
  "CRAWL_NOT_FOUND",
  "CRAWL_LIMIT_REACHED",
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The convert family: convert_content's codes (the original convert tool's list). */
export const CONVERT_ERROR_CODES = [
  "INVALID_INPUT",
  "FILE_NOT_FOUND",
  "FILE_TOO_LARGE",
  "UNSUPPORTED_PROTOCOL",
  "CONVERT_TIMEOUT",
  "CONVERT_FAILED",
  "NETWORK_ERROR",
  "PRIVATE_NETWORK_BLOCKED",
] as const;

export type ConvertErrorCode = (typeof CONVERT_ERROR_CODES)[number];
export type ErrorCode = WebErrorCode | ApiErrorCode | ConvertErrorCode;

export function isConvertErrorCode(code: string): code is ConvertErrorCode {
  return (CONVERT_ERROR_CODES as readonly string[]).includes(code);
}

export function isWebErrorCode(code: string): code is WebErrorCode {
  return Object.hasOwn(WEB_ERROR_CODES, code);
}
