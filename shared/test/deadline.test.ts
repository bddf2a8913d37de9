import { describe, expect, it } from "vitest";
import { deadlineFrom } from "../src/deadline.ts";

describe("deadlineFrom", () => {
  it("counts the time before it was made: a start long past leaves nothing, its signal already aborted", () => {
    const passed = deadlineFrom(Date.now() - 5_000, 4_000);
    expect(passed.signal.aborted).toBe(true);
    expect(passed.remainingMs()).toBe(0);
    expect(passed.elapsedMs()).toBeGreaterThanOrEqual(5_000);
    expect(passed.budgetMs).toBe(4_000);
  });

  it("leaves only what is left of the budget, and fires then", async () => {
    const started = Date.now();
    const deadline = deadlineFrom(started - 3_800, 4_000);
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.remainingMs()).toBeLessThanOrEqual(200);
    await new Promise((resolve) => deadline.signal.addEventListener("abort", resolve, { once: true }));
    // Generous: it fires on what was left (200 ms), not on the whole 4 s budget.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
