import { describe, expect, it } from "vitest";
import { pairedBootstrap } from "../bench/paired-bootstrap.ts";

const scores = Array.from({ length: 200 }, (_, i) => 0.5 + 0.4 * Math.sin(i * 1.7));

describe("pairedBootstrap", () => {
  it("finds no difference between identical lists", () => {
    const result = pairedBootstrap(scores, scores);
    expect(result).toMatchObject({ delta: 0, low: 0, high: 0, verdict: "within noise" });
  });

  it("calls a clear shift on every page up, and the reverse down", () => {
    const shifted = scores.map((value, i) => value + 0.05 + 0.02 * Math.cos(i));
    const up = pairedBootstrap(scores, shifted);
    expect(up.verdict).toBe("up");
    expect(up.low).toBeGreaterThan(0);
    expect(up.delta).toBeGreaterThan(up.low);
    expect(up.delta).toBeLessThan(up.high);
    expect(pairedBootstrap(shifted, scores).verdict).toBe("down");
  });

  it("calls a noisy difference of zero mean within noise, and repeats its interval", () => {
    // Half the pages gain 0.3 and half lose 0.3: large per-page changes, none on average.
    const noisy = scores.map((value, i) => value + (i % 2 === 0 ? 0.3 : -0.3));
    const result = pairedBootstrap(scores, noisy);
    expect(result.verdict).toBe("within noise");
    expect(result.low).toBeLessThan(0);
    expect(result.high).toBeGreaterThan(0);
    expect(pairedBootstrap(scores, noisy)).toEqual(result);
  });
});
