import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileAllowList, type AllowList } from "../src/fetch/allow-list.ts";
import type { NetworkPolicy } from "../src/fetch/egress-types.ts";
import { createHostResolver } from "../src/fetch/resolve-host.ts";
import { vetDestination } from "../src/fetch/vet-destination.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { policy } from "./support/egress.ts";

// Public answers are only classified here; vetDestination never connects.
const ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
  "public.test": { A: ["93.184.216.34"] },
  "public6.test": { AAAA: ["2606:4700::1"] },
  "private.test": { A: ["10.0.0.5"] },
  "loop.test": { A: ["127.0.0.1"] },
  "loop6.test": { AAAA: ["::1"] },
  "mixed.test": { A: ["93.184.216.34", "10.0.0.5"] },
  "mixed-family.test": { A: ["93.184.216.34"], AAAA: ["fd00::1"] },
  "mapped.test": { AAAA: ["::ffff:127.0.0.1"] },
  "two-loop.test": { A: ["127.0.0.2", "127.0.0.3"] },
};

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer((name, type) => {
    const entry = ZONE[name];
    return entry ? (entry[type] ?? []) : "nxdomain";
  });
});
afterAll(() => dns.close());

const allowing = (entries: string[]): AllowList => {
  const result = compileAllowList(entries);
  if (!result.ok) throw new Error("bad allow list");
  return result.value;
};
const vet = (url: string, options: { policy?: NetworkPolicy; allow?: string[]; signal?: AbortSignal } = {}) =>
  vetDestination(
    new URL(url),
    options.policy ?? policy(),
    allowing(options.allow ?? []),
    createHostResolver({ servers: [dns.address], timeoutMs: 2_000 }),
    options.signal,
  );

describe("vetDestination", () => {
  it("returns the first answer of a name whose answers are all global", async () => {
    expect(await vet("http://public.test/")).toEqual({ ok: true, value: { address: "93.184.216.34", family: 4 } });
    expect(await vet("https://public6.test/")).toEqual({ ok: true, value: { address: "2606:4700::1", family: 6 } });
  });

  it.each(["private.test", "loop.test", "loop6.test", "mixed.test", "mixed-family.test", "mapped.test"])(
    "blocks %s: one non-global answer is enough",
    async (host) => {
      const result = await vet(`http://${host}:8080/`);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe("blocked");
      expect(result.error.message).toContain(`${host} resolves to`);
      expect(result.error.message).toContain("web.allowHosts");
    },
  );

  it("decides literals without asking DNS", async () => {
    const before = dns.queries.length;
    expect((await vet("http://127.0.0.1/")).ok).toBe(false);
    expect(await vet("http://93.184.216.34/")).toEqual({ ok: true, value: { address: "93.184.216.34", family: 4 } });
    expect(dns.queries.length).toBe(before);
  });

  it("blocks local names before asking DNS", async () => {
    const before = dns.queries.length;
    expect(await vet("http://db.internal/")).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(dns.queries.length).toBe(before);
  });

  it("exempts private answers by allowPrivateNetwork, allow-listed name, or allow-listed address", async () => {
    expect(await vet("http://loop.test/", { policy: policy({ allowPrivateNetwork: true }) })).toEqual({ ok: true, value: { address: "127.0.0.1", family: 4 } });
    expect(await vet("http://loop.test/", { allow: ["loop.test"] })).toEqual({ ok: true, value: { address: "127.0.0.1", family: 4 } });
    expect(await vet("http://loop.test/", { allow: ["127.0.0.0/8"] })).toEqual({ ok: true, value: { address: "127.0.0.1", family: 4 } });
    expect(await vet("http://mapped.test/", { allow: ["127.0.0.1"] })).toEqual({ ok: true, value: { address: "127.0.0.1", family: 4 } });
  });

  it("needs every private answer to be allow-listed", async () => {
    expect(await vet("http://two-loop.test/", { allow: ["127.0.0.2"] })).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(await vet("http://two-loop.test/", { allow: ["127.0.0.2", "127.0.0.3"] })).toEqual({ ok: true, value: { address: "127.0.0.2", family: 4 } });
  });

  it("reports a name that does not resolve as kind dns, naming the host", async () => {
    const result = await vet("http://user:pw@nowhere.test/secret");
    expect(result).toMatchObject({ ok: false, error: { code: "dns", message: expect.stringContaining("nowhere.test") } });
    expect(JSON.stringify(result)).not.toMatch(/pw|secret/);
  });

  it("reports an aborted resolution as aborted", async () => {
    expect(await vet("http://public.test/", { signal: AbortSignal.abort() })).toMatchObject({ ok: false, error: { code: "aborted" } });
  });
});
