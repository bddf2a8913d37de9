import type { UiResponseRequest } from "@edge-web/shared";

interface Pending {
  settle(approved: boolean): void;
}

/**
 * Tool calls waiting for the user's approval (sandbox.askBeforeFetch), each under the id of the
 * extension-ui request that asked. An answer settles one; cancelling settles all as denied.
 */
export class ApprovalGate {
  private readonly pending = new Map<string, Pending>();

  /** Resolves true when the user confirms, false when they deny or cancel, or `signal` fires. */
  wait(id: string, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const settle = (approved: boolean) => {
        this.pending.delete(id);
        signal?.removeEventListener("abort", onAbort);
        resolve(approved);
      };
      const onAbort = () => settle(false);
      if (signal?.aborted) return resolve(false);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, { settle });
    });
  }

  /** Settles the request `id`; false when no such request waits (unknown, or answered already). */
  answer(response: UiResponseRequest): boolean {
    const waiting = this.pending.get(response.id);
    if (!waiting) return false;
    waiting.settle(response.cancelled !== true && response.confirmed === true);
    return true;
  }

  cancelAll(): void {
    for (const waiting of [...this.pending.values()]) waiting.settle(false);
  }
}
