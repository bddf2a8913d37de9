export * from "./protocol-version.ts";
export * from "./error-codes.ts";
export * from "./result.ts";
export * from "./web-config.ts";
export * from "./tool-schemas.ts";
export * from "./sidecar-protocol.ts";
export * from "./host-limiter.ts";
