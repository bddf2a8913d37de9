import { fail, ok, type CompactResponse, type Result } from "@edge-web/shared";
import { compactSession } from "../agent/context/session-compaction.ts";
import { openModel } from "../agent/model/open-model.ts";
import { resolveModel, type ResolvedModel } from "../agent/model/resolve-model.ts";
import type { AgentLoop, Admission } from "../agent/turn/agent-loop.ts";
import { modelFetch } from "../agent/wire/model-fetch.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { SessionParts } from "./session-parts.ts";
import type { TurnHost } from "./turn-host.ts";

/**
 * POST /compact and `/compact`: the history the model sees is summarised but for its recent
 * messages. Refused with 409 SESSION_BUSY while a turn runs; while it runs, messages queue
 * behind it as behind a turn, and POST /abort cancels it (the history stays as it was).
 */
export class ManualCompaction {
  private readonly parts: SessionParts;
  private readonly loop: AgentLoop;
  private readonly host: TurnHost;
  /** The abort of the compaction running, if any. */
  private running?: AbortController;

  constructor(parts: SessionParts, loop: AgentLoop, host: TurnHost) {
    this.parts = parts;
    this.loop = loop;
    this.host = host;
  }

  async compact(settings: Settings, instructions: string | undefined): Promise<Result<CompactResponse>> {
    const started = this.start(settings, instructions);
    return started.ok ? ok(await started.value) : started;
  }

  /** Takes the turn at once (or is refused), then compacts. */
  start(settings: Settings, instructions: string | undefined): Result<Promise<CompactResponse>> {
    const { held } = this.parts;
    const model = resolveModel(settings.agent, held.agent.selection, held.current?.model);
    if (!model.ok) return model;
    const admission = this.loop.admit(undefined);
    if (!admission) return fail("SESSION_BUSY", "A turn is running; compact when the session is idle: wait for the turn to finish, or POST /abort first.");
    return ok(this.run(settings, model.value, admission, instructions));
  }

  abort(): void {
    this.running?.abort();
  }

  private async run(settings: Settings, model: ResolvedModel, admission: Admission, instructions: string | undefined): Promise<CompactResponse> {
    const abort = new AbortController();
    this.running = abort;
    const call = () => openModel(settings, model, "minimal", () => modelFetch(settings.agent.modelTimeoutMs, this.host.egress(model.provider.name)));
    try {
      return await compactSession(this.host, settings, model, call, this.host.sink(), abort.signal, instructions);
    } catch {
      return { compacted: false, reason: abort.signal.aborted ? "Aborted: the history is unchanged." : "The compaction failed; the history is unchanged." };
    } finally {
      this.running = undefined;
      this.parts.held.flush();
      const next = admission.release();
      if (next) this.parts.waitUntil(next);
    }
  }
}
