import { describe, expect, it } from "vitest";
import { sidecarInstance } from "../src/sidecar-instance.ts";

const hosts = Array.from({ length: 400 }, (_, i) => `site-${i}.example`);

describe("sidecarInstance", () => {
  it("sends every call about one host to one instance, whatever the case of its name", () => {
    for (const host of hosts.slice(0, 20)) {
      const first = sidecarInstance(host, 4);
      expect(sidecarInstance(host, 4)).toBe(first);
      expect(sidecarInstance(host.toUpperCase(), 4)).toBe(first);
    }
  });

  it("spreads hosts over every instance, none taking far more than its share", () => {
    for (const count of [2, 3, 4, 8]) {
      const load = new Array<number>(count).fill(0);
      for (const host of hosts) load[sidecarInstance(host, count)]!++;
      const share = hosts.length / count;
      for (const n of load) expect(Math.abs(n - share)).toBeLessThan(share * 0.35);
    }
  });

  it("gives calls about no host any instance, drawn at random", () => {
    expect(sidecarInstance(undefined, 4, () => 0)).toBe(0);
    expect(sidecarInstance(undefined, 4, () => 0.5)).toBe(2);
    expect(sidecarInstance(undefined, 4, () => 0.999)).toBe(3);
    expect(sidecarInstance("", 4, () => 0.3)).toBe(1);
  });

  it("always answers instance 0 when there is one instance (or a count below one)", () => {
    for (const count of [1, 0, -2]) {
      expect(sidecarInstance("site-1.example", count)).toBe(0);
      expect(sidecarInstance(undefined, count, () => 0.9)).toBe(0);
    }
  });
});
