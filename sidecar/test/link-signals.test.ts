import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { linkSignals } from "../src/link-signals.ts";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A linked signal that a listener observes, aborted by its caller with a reason it alone holds; a weak reference to that reason. */
function abortedWhileObserved(deadline: AbortSignal): WeakRef<object> {
  const caller = new AbortController();
  linkSignals([caller.signal, deadline]).signal.addEventListener("abort", () => {});
  const reason = { answer: new Uint8Array(64 * 1024) };
  caller.abort(reason);
  return new WeakRef(reason);
}

describe("linkSignals", () => {
  it("aborts with the reason of whichever source fires first, a timeout or a caller", async () => {
    const caller = new AbortController();
    const byTimeout = linkSignals([caller.signal, AbortSignal.timeout(1)]);
    await new Promise((resolve) => byTimeout.signal.addEventListener("abort", resolve));
    expect((byTimeout.signal.reason as DOMException).name).toBe("TimeoutError");
    expect(caller.signal.aborted).toBe(false);

    const byCaller = linkSignals([caller.signal, AbortSignal.timeout(60_000)]);
    caller.abort(new Error("gone"));
    expect(byCaller.signal.aborted).toBe(true);
    expect((byCaller.signal.reason as Error).message).toBe("gone");
    // A source that has already fired makes it aborted from the start.
    expect(linkSignals([caller.signal, undefined]).signal.reason).toBe(caller.signal.reason);
    expect(linkSignals([AbortSignal.timeout(60_000), caller.signal]).signal.aborted).toBe(true);
  });

  it("stops following its sources once unlinked", () => {
    const caller = new AbortController();
    const linked = linkSignals([caller.signal, AbortSignal.timeout(60_000)]);
    linked.unlink();
    caller.abort();
    expect(linked.signal.aborted).toBe(false);
  });

  it("keeps nothing once a source aborts it while something listens to it (AbortSignal.any() keeps it all in Node)", async () => {
    const deadline = AbortSignal.timeout(60_000);
    const reasons = Array.from({ length: 50 }, () => abortedWhileObserved(deadline));
    await nextTurn();
    collectGarbage();
    await nextTurn();
    collectGarbage();
    expect(reasons.filter((reason) => reason.deref() !== undefined)).toHaveLength(0);
  });
});
