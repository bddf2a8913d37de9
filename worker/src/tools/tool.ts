import type { OperatorUrls, Result, SearchKeys, Semaphore, StoredResult, ToolName, WebConfig } from "@edge-web/shared";
import type * as v from "valibot";
import type { FetchCache } from "../cache/fetch-cache.ts";
import type { RobotsCache } from "../cache/robots-cache.ts";
import type { SearchCache } from "../cache/search-cache.ts";
import type { SidecarClient } from "../sidecar-client.ts";
import type { ToolDeadline } from "./tool-deadline.ts";

/** Where a tool keeps its answers for get_search_content (the session's result store). */
export interface ResultStore {
  /** Saves a result (already capped to web.maxStoredContentChars) and evicts the oldest beyond web.maxStoredResults. */
  save(result: StoredResult, maxStored: number): void;
  get(responseId: string): StoredResult | undefined;
}

/** What a tool reports about its work: named counters, provider latencies and per-step timings. */
export interface ToolRecorder {
  count(name: string, by?: number): void;
  latency(provider: string, ms: number): void;
  /** Milliseconds spent in a pipeline step (summed when a step repeats), for verbose debug logs. */
  step(name: string, ms: number): void;
}

/** What a tool may use while it runs inside its session. */
export interface ToolContext {
  config: WebConfig;
  /** Search provider keys (never logged or echoed). */
  providerKeys: SearchKeys;
  /** Which search providers' URLs the operator set (the others pass the network policy). */
  operatorUrls: OperatorUrls;
  sidecar: SidecarClient;
  store: ResultStore;
  cache: SearchCache;
  /** Extracted pages, shared by every session (web.fetchCache). */
  fetchCache: FetchCache;
  /** What origins' robots.txt said, shared by every sidecar (web.robots "respect"). */
  robotsCache: RobotsCache;
  record: ToolRecorder;
  /** The session's concurrency limit for outbound work (web.concurrency.*); tools take slots through callSlots. */
  limiter: Semaphore;
  /** A file uploaded to this session, or undefined when the session has no such attachment. */
  attachment(id: string): Promise<{ name: string; mimeType: string; bytes: Uint8Array } | undefined>;
  /** Fires when the call is cancelled (an aborted agent turn); its deadline is the tool's own. */
  signal?: AbortSignal;
  /** When the call's deadline began (epoch ms): for a direct call, when the worker received it; unset, when the tool starts. */
  startedAt?: number;
  /** How long before its deadline the call's work ends, so that its answer travels back in time (a direct call's ANSWER_RESERVE_MS). */
  reserveMs?: number;
  newResponseId(): string;
}

/** A tool's outcome; `headers` ride along on the HTTP response (X-Cache, Retry-After). */
export type ToolAnswer<Out> = Result<Out> & { headers?: Record<string, string> };

/** The tool family: params validated at the boundary with `params`, then `run` trusts them. */
export interface Tool<S extends v.GenericSchema = v.GenericSchema, Out = unknown> {
  name: ToolName;
  /** A short human name (MCP's title, the OpenAPI summary). */
  title: string;
  /** What the tool does and when to use it, for models choosing a tool. */
  description: string;
  params: S;
  /**
   * The keys of params of which `run` needs at least one (`anyOf`) or exactly one (`oneOf`), for the
   * OpenAPI document; models' and MCP's schemas leave it out (providers refuse a top-level anyOf/oneOf).
   */
  needs?: { anyOf: readonly string[] } | { oneOf: readonly string[] };
  /** Params `run` refuses unless at least one of the listed others is given too, for the OpenAPI document. */
  onlyWith?: Record<string, readonly string[]>;
  /** The success answer's shape (for MCP's outputSchema and the OpenAPI document). */
  output: v.GenericSchema<unknown, Out>;
  /** A tool that waits on the network has a deadline; the worker answers its timeout code once it passes, whatever the work is doing. */
  deadline?: ToolDeadline<v.InferOutput<S>>;
  run(params: v.InferOutput<S>, ctx: ToolContext): Promise<ToolAnswer<Out>>;
}
