import { describe, expect, it } from "vitest";
import { compileAllowList, type AllowList } from "../src/fetch/allow-list.ts";

function compiled(entries: string[]): AllowList {
  const result = compileAllowList(entries);
  if (!result.ok) throw new Error(`unexpected invalid entries: ${result.error.message}`);
  return result.value;
}

describe("compileAllowList", () => {
  it("matches host names exactly, ignoring case and trailing dots", () => {
    const allow = compiled(["Intranet.Test", "wiki.corp.test.", "localhost"]);
    expect(allow.allowsHost("intranet.test")).toBe(true);
    expect(allow.allowsHost("INTRANET.TEST.")).toBe(true);
    expect(allow.allowsHost("wiki.corp.test")).toBe(true);
    expect(allow.allowsHost("localhost")).toBe(true);
    expect(allow.allowsHost("sub.intranet.test")).toBe(false);
    expect(allow.allowsHost("corp.test")).toBe(false);
    expect(allow.allowsHost("intranet.test.evil.test")).toBe(false);
    expect(allow.allowsAddress("127.0.0.1")).toBe(false);
  });

  it("compares internationalised names in the URL parser's punycode form", () => {
    const allow = compiled(["Bücher.test"]);
    expect(allow.allowsHost(new URL("http://BÜCHER.test/").hostname)).toBe(true);
  });

  it("normalises IP literals in any notation; IPv4-mapped equals its IPv4", () => {
    const allow = compiled(["127.0.0.2", "0x7f000003", "[::1]", "::ffff:10.0.0.9", "fd00:0:0:0::5"]);
    for (const address of ["127.0.0.2", "::ffff:127.0.0.2", "[::ffff:7f00:2]", "127.0.0.3", "2130706435", "::1", "0:0:0:0:0:0:0:1", "10.0.0.9", "fd00::5"]) {
      expect(allow.allowsAddress(address), address).toBe(true);
    }
    for (const address of ["127.0.0.1", "127.0.0.4", "::2", "10.0.0.8", "fd00::6", "not-an-ip"]) {
      expect(allow.allowsAddress(address), address).toBe(false);
    }
    expect(allow.allowsHost("127.0.0.2")).toBe(false);
  });

  it("matches IPv4 and IPv6 CIDRs", () => {
    const allow = compiled(["10.1.0.0/16", "127.0.0.0/30", "fd00:abcd::/32"]);
    for (const address of ["10.1.0.1", "10.1.255.255", "127.0.0.3", "::ffff:10.1.2.3", "fd00:abcd:1::1"]) {
      expect(allow.allowsAddress(address), address).toBe(true);
    }
    for (const address of ["10.2.0.1", "127.0.0.4", "fd00:abce::1", "::1"]) {
      expect(allow.allowsAddress(address), address).toBe(false);
    }
  });

  it("an empty list allows nothing", () => {
    const allow = compiled([]);
    expect(allow.allowsHost("localhost")).toBe(false);
    expect(allow.allowsAddress("127.0.0.1")).toBe(false);
  });

  it("reports every entry that is not a host name, IP or CIDR", () => {
    const bad = ["", "*.example.test", "example.test:8080", "http://example.test", "user@example.test", "a/b", "10.0.0.0/33", "fd00::/129", "10.0.0.0/x", "exa mple.test", "example.test#x", "999.1.1.1"];
    expect(compileAllowList(["good.test", ...bad, "10.0.0.1"])).toEqual({
      ok: false,
      error: { code: "config", message: `web.allowHosts has entries that are not a host name, IP address or CIDR: ${bad.join(", ")}.` },
    });
  });
});
