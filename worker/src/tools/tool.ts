import type { HostLimiter, Result, ToolName, WebConfig } from "@edge-web/shared";
import type * as v from "valibot";
import type { SidecarClient } from "../sidecar-client.ts";
import type { ResultStore } from "../session/result-store.ts";

/** What a tool may use while it runs inside its session. */
export interface ToolContext {
  config: WebConfig;
  sidecar: SidecarClient;
  store: ResultStore;
  /** The session's concurrency limit for outbound work (web.concurrency.*). */
  limiter: HostLimiter;
  newResponseId(): string;
}

/** The tool family: params validated at the HTTP boundary with `params`, then `run` trusts them. */
export interface Tool<S extends v.GenericSchema = v.GenericSchema, Out = unknown> {
  name: ToolName;
  params: S;
  run(params: v.InferOutput<S>, ctx: ToolContext): Promise<Result<Out>>;
}
