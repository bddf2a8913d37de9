import type { Env } from "../env.ts";
import type { HeldSession } from "./held-session.ts";
import type { SessionStream } from "./session-stream.ts";
import type { SessionTools } from "./session-tools.ts";

/** What the session object is made of, as the modules its agent hands over to use it. */
export interface SessionParts {
  env: Env;
  storage: DurableObjectStorage;
  held: HeldSession;
  stream: SessionStream;
  tools: SessionTools;
  /** Keeps the object alive for work that outlasts the request. */
  waitUntil(work: Promise<unknown>): void;
  /** Makes sure the idle alarm is set. */
  touch(): Promise<void>;
}
