import * as v from "valibot";
import { WebConfigSchema, type WebConfig } from "./web-config.ts";

/** The settings the sidecar needs for one fetch, sent with every request (the sidecar keeps no state). */
export const FetchOptionsSchema = v.object({
  timeoutMs: WebConfigSchema.entries.timeoutMs,
  maxResponseBytes: WebConfigSchema.entries.maxResponseBytes,
  maxContentChars: WebConfigSchema.entries.maxContentChars,
  allowPrivateNetwork: WebConfigSchema.entries.allowPrivateNetwork,
  allowHosts: WebConfigSchema.entries.allowHosts,
  deniedDomains: WebConfigSchema.entries.deniedDomains,
  allowedDomains: WebConfigSchema.entries.allowedDomains,
  enableJinaFallback: WebConfigSchema.entries.enableJinaFallback,
  jinaTimeoutMs: WebConfigSchema.entries.jinaTimeoutMs,
  jinaTriggers: WebConfigSchema.entries.jinaTriggers,
  jinaBaseUrl: WebConfigSchema.entries.jina.wrapped.entries.baseUrl,
});
export type FetchOptions = v.InferOutput<typeof FetchOptionsSchema>;

export const SidecarFetchRequestSchema = v.object({
  url: v.string(),
  preferReader: v.optional(v.boolean(), false),
  options: v.optional(FetchOptionsSchema, {}),
});
export type SidecarFetchRequest = v.InferInput<typeof SidecarFetchRequestSchema>;

export function fetchOptionsFrom(config: WebConfig): FetchOptions {
  return {
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    maxContentChars: config.maxContentChars,
    allowPrivateNetwork: config.allowPrivateNetwork,
    allowHosts: config.allowHosts,
    deniedDomains: config.deniedDomains,
    allowedDomains: config.allowedDomains,
    enableJinaFallback: config.enableJinaFallback,
    jinaTimeoutMs: config.jinaTimeoutMs,
    jinaTriggers: config.jinaTriggers,
    jinaBaseUrl: config.jina.baseUrl,
  };
}
