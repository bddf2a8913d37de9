import { describe, expect, it } from "vitest";
import { compileAllowList, type AllowList } from "../src/fetch/allow-list.ts";
import { checkHost } from "../src/fetch/host-policy.ts";
import { policy } from "./support/egress.ts";

const allowing = (entries: string[]): AllowList => {
  const result = compileAllowList(entries);
  if (!result.ok) throw new Error("bad allow list");
  return result.value;
};
const none = allowing([]);
const check = (url: string, allowPrivateNetwork = false, allow = none) => checkHost(new URL(url), policy({ allowPrivateNetwork }), allow);

describe("checkHost", () => {
  it.each([
    ["http://localhost/", "localhost"],
    ["http://LOCALHOST./", "localhost"],
    ["http://a.localhost/", "a.localhost"],
    ["http://printer.local/", "printer.local"],
    ["http://db.internal../", "db.internal"],
    ["http://127.0.0.1/", "127.0.0.1 is loopback"],
    ["http://[::1]/", "::1 is loopback"],
    ["http://[::ffff:7f00:1]/", "127.0.0.1 is loopback"],
    ["http://10.0.0.1/", "10.0.0.1 is private"],
  ])("blocks %s and explains how to permit it", (url, detail) => {
    const result = check(url);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("blocked");
    expect(result.error.message).toContain(detail);
    expect(result.error.message).toMatch(/blocked by the network policy \(private or local address/);
    expect(result.error.message).toContain("web.allowPrivateNetwork");
    expect(result.error.message).toContain("web.allowHosts");
  });

  it("reads a host name of many dots in time linear in it, its final dots cut as the URL parser keeps them", () => {
    const result = check(`http://a${".".repeat(300_000)}b.localhost./`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain(`a${".".repeat(300_000)}b.localhost`);
  });

  it("never prints userinfo, path or query", () => {
    const result = check("http://admin:hunter2@127.0.0.1:8080/reset?token=abc");
    expect(result.ok).toBe(false);
    const text = JSON.stringify(result);
    expect(text).toContain("http://127.0.0.1:8080");
    for (const secret of ["admin", "hunter2", "token", "abc", "reset"]) expect(text).not.toContain(secret);
  });

  it("passes public literals as vetted addresses, normalised", () => {
    expect(check("http://93.184.216.34/")).toEqual({ ok: true, value: { kind: "address", vetted: { address: "93.184.216.34", family: 4 } } });
    expect(check("https://[2606:4700:0::1]/")).toEqual({ ok: true, value: { kind: "address", vetted: { address: "2606:4700::1", family: 6 } } });
    expect(check("http://1572395042/")).toEqual({ ok: true, value: { kind: "address", vetted: { address: "93.184.216.34", family: 4 } } });
  });

  it("passes names on to resolution without judging them", () => {
    expect(check("http://example.test./x")).toEqual({ ok: true, value: { kind: "name", hostname: "example.test." } });
    expect(check("http://localhost.example.test/")).toEqual({ ok: true, value: { kind: "name", hostname: "localhost.example.test" } });
    expect(check("http://internal.test/")).toEqual({ ok: true, value: { kind: "name", hostname: "internal.test" } });
  });

  it("allowPrivateNetwork lets local names and private literals through", () => {
    expect(check("http://localhost/", true)).toEqual({ ok: true, value: { kind: "name", hostname: "localhost" } });
    expect(check("http://[::1]/", true)).toEqual({ ok: true, value: { kind: "address", vetted: { address: "::1", family: 6 } } });
  });

  it("allowHosts exempts exactly the listed hosts, addresses and ranges", () => {
    const allow = allowing(["printer.local", "127.0.0.2", "10.9.0.0/16"]);
    expect(check("http://PRINTER.local./", false, allow).ok).toBe(true);
    expect(check("http://other.local/", false, allow).ok).toBe(false);
    expect(check("http://127.0.0.2/", false, allow)).toEqual({ ok: true, value: { kind: "address", vetted: { address: "127.0.0.2", family: 4 } } });
    expect(check("http://[::ffff:127.0.0.2]/", false, allow).ok).toBe(true);
    expect(check("http://127.0.0.3/", false, allow).ok).toBe(false);
    expect(check("http://10.9.200.1/", false, allow).ok).toBe(true);
    expect(check("http://10.8.0.1/", false, allow).ok).toBe(false);
  });

  it("an allow-listed IP does not exempt a name, nor a name an IP", () => {
    const allow = allowing(["127.0.0.1", "intranet.test"]);
    expect(check("http://localhost/", false, allow).ok).toBe(false);
    expect(check("http://127.0.0.2/", false, allow).ok).toBe(false);
  });
});

describe("checkHost with web.deniedDomains and web.allowedDomains", () => {
  const listed = (url: string, lists: { deniedDomains?: string[]; allowedDomains?: string[]; allowPrivateNetwork?: boolean }, allow = none) =>
    checkHost(new URL(url), policy(lists), allow);
  const refusal = (result: ReturnType<typeof checkHost>) => {
    expect(result.ok).toBe(false);
    return result.ok ? "" : `${result.error.code}: ${result.error.message}`;
  };

  it("blocks a denied domain and every host under it, saying it is on the denied list", () => {
    const lists = { deniedDomains: ["Example.COM."] };
    for (const url of ["https://example.com/", "https://WWW.example.com./x", "https://a.b.example.com:8443/"]) {
      const message = refusal(listed(url, lists));
      expect(message).toMatch(/^blocked: /);
      expect(message).toContain("is on the denied list");
      expect(message).toContain("web.deniedDomains");
    }
    expect(listed("https://notexample.com/", lists).ok).toBe(true);
    expect(listed("https://example.com.evil.test/", lists).ok).toBe(true);
    expect(listed("https://example.org/", lists).ok).toBe(true);
  });

  it("the denied list wins over allowPrivateNetwork, allowHosts and allowedDomains", () => {
    expect(listed("http://localhost/", { deniedDomains: ["localhost"], allowPrivateNetwork: true }).ok).toBe(false);
    expect(listed("http://printer.local/", { deniedDomains: ["local"] }, allowing(["printer.local"])).ok).toBe(false);
    expect(listed("https://docs.example.com/", { deniedDomains: ["docs.example.com"], allowedDomains: ["example.com"] }).ok).toBe(false);
    expect(listed("https://api.example.com/", { deniedDomains: ["docs.example.com"], allowedDomains: ["example.com"] }).ok).toBe(true);
  });

  it("matches denied IP literals exactly, in any notation, and never as a suffix", () => {
    expect(refusal(listed("http://93.184.216.34/", { deniedDomains: ["93.184.216.34"] }))).toContain("denied list");
    expect(listed("http://1572395042/", { deniedDomains: ["93.184.216.34"] }).ok).toBe(false);
    expect(listed("http://93.184.216.34/", { deniedDomains: ["184.216.34"] }).ok).toBe(true);
  });

  it("with allowedDomains, only hosts equal to or under one of them pass", () => {
    const lists = { allowedDomains: ["example.com", "docs.test"] };
    expect(listed("https://example.com/", lists)).toEqual({ ok: true, value: { kind: "name", hostname: "example.com" } });
    expect(listed("https://a.b.EXAMPLE.com/", lists).ok).toBe(true);
    expect(listed("https://docs.test/", lists).ok).toBe(true);
    for (const url of ["https://example.org/", "https://badexample.com/", "https://example.com.evil.test/", "https://test/"]) {
      const message = refusal(listed(url, lists));
      expect(message).toMatch(/^blocked: /);
      expect(message).toContain("not on the allowed list");
      expect(message).toContain("web.allowedDomains");
    }
  });

  it("with allowedDomains, IP literals are refused unless allowHosts lists them", () => {
    const lists = { allowedDomains: ["example.com"] };
    expect(refusal(listed("http://93.184.216.34/", lists))).toContain("is an IP address, not a domain");
    expect(refusal(listed("http://[2606:4700::1]/", lists))).toContain("web.allowHosts");
    expect(listed("http://93.184.216.34/", lists, allowing(["93.184.216.0/24"]))).toEqual({
      ok: true,
      value: { kind: "address", vetted: { address: "93.184.216.34", family: 4 } },
    });
    expect(listed("http://127.0.0.2/", lists, allowing(["127.0.0.2"])).ok).toBe(true);
    expect(listed("http://127.0.0.3/", lists, allowing(["127.0.0.2"])).ok).toBe(false);
  });

  it("allowedDomains does not lift the private-network block", () => {
    expect(refusal(listed("http://localhost/", { allowedDomains: ["localhost"] }))).toContain("private or local address");
    expect(listed("http://localhost/", { allowedDomains: ["localhost"], allowPrivateNetwork: true }).ok).toBe(true);
  });

  it("matches internationalised domains in either spelling", () => {
    expect(listed("https://www.bücher.de/", { deniedDomains: ["xn--bcher-kva.de"] }).ok).toBe(false);
    expect(listed("https://www.xn--bcher-kva.de/", { deniedDomains: ["BÜCHER.de"] }).ok).toBe(false);
    expect(listed("https://www.bücher.de/", { allowedDomains: ["bücher.de"] }).ok).toBe(true);
  });

  it("empty lists change nothing and never print path, query or userinfo", () => {
    expect(listed("https://example.org/", { deniedDomains: [], allowedDomains: [] }).ok).toBe(true);
    const text = JSON.stringify(listed("https://user:hunter2@example.com/reset?token=abc", { deniedDomains: ["example.com"] }));
    for (const secret of ["user", "hunter2", "reset", "token", "abc"]) expect(text).not.toContain(secret);
  });
});
