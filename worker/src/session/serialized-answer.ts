import type { Failure } from "@edge-web/shared";

/** A tool's answer as the session object hands it over: a success as its JSON text (encoded once, there), a failure as it is. */
export type SerializedAnswer = ({ ok: true; json: string } | Failure) & { headers?: Record<string, string> };
