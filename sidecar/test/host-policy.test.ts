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
    expect(result.failure.kind).toBe("blocked");
    expect(result.failure.message).toContain(detail);
    expect(result.failure.message).toMatch(/blocked by the network policy \(private or local address/);
    expect(result.failure.message).toContain("web.allowPrivateNetwork");
    expect(result.failure.message).toContain("web.allowHosts");
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
