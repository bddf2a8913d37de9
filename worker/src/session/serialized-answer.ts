import type { Failure } from "@edge-web/shared";
import type { ObjectTrace } from "./object-trace.ts";

/**
 * A tool's answer as the session object hands it over: a success as its JSON text (encoded once,
 * there), a failure as it is; with web.debug "trace", the call's boundaries in the object.
 */
export type SerializedAnswer = ({ ok: true; json: string } | Failure) & { headers?: Record<string, string>; trace?: ObjectTrace };
