import type { HostLimiter, Result, ToolName, WebConfig } from "@edge-web/shared";
import type * as v from "valibot";
import type { SearchCache } from "../cache/search-cache.ts";
import type { ProviderKeys } from "../config/provider-keys.ts";
import type { SidecarClient } from "../sidecar-client.ts";
import type { ResultStore } from "../session/result-store.ts";
import type { ProviderLatency } from "../session/provider-latency.ts";
import type { SessionCounters } from "../session/session-counters.ts";

/** What a tool may use while it runs inside its session. */
export interface ToolContext {
  config: WebConfig;
  sidecar: SidecarClient;
  store: ResultStore;
  cache: SearchCache;
  counters: SessionCounters;
  latency: ProviderLatency;
  /** Search provider keys, from the worker's secrets (never logged or echoed). */
  providerKeys: ProviderKeys;
  /** The session's concurrency limit for outbound work (web.concurrency.*). */
  limiter: HostLimiter;
  newResponseId(): string;
}

/** A tool's outcome; `headers` ride along on the HTTP response (X-Cache, Retry-After). */
export type ToolAnswer<Out> = Result<Out> & { headers?: Record<string, string> };

/** The tool family: params validated at the HTTP boundary with `params`, then `run` trusts them. */
export interface Tool<S extends v.GenericSchema = v.GenericSchema, Out = unknown> {
  name: ToolName;
  /** What the tool does, for agents choosing a command. */
  description: string;
  params: S;
  run(params: v.InferOutput<S>, ctx: ToolContext): Promise<ToolAnswer<Out>>;
}
