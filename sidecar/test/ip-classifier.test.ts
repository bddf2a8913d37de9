import { describe, expect, it } from "vitest";
import { classifyIp } from "../src/fetch/ip-classifier.ts";

describe("classifyIp", () => {
  // Classification only: none of these is ever contacted.
  it.each(["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1", "[2606:4700::1]", "2a00:1450:4001:80b::200e", "::ffff:93.184.216.34", "::ffff:5db8:d822"])(
    "%s is global",
    (address) => {
      expect(classifyIp(address)).toEqual({ isGlobal: true, range: "unicast" });
    },
  );

  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.254", "carrierGradeNat"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "linkLocal"],
    ["192.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["198.19.255.255", "reserved"],
    ["198.51.100.1", "reserved"],
    ["203.0.113.1", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::7f00:1", "loopback"],
    ["::a00:1", "private"],
    ["::ffff:0:7f00:1", "rfc6145"],
    ["64:ff9b::7f00:1", "rfc6052"],
    ["64:ff9b::808:808", "rfc6052"],
    ["64:ff9b:1::a00:1", "rfc6052"],
    ["2002:7f00:1::", "6to4"],
    ["2002:808:808::1", "6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
    ["2001:db8::1", "reserved"],
    ["2001:2::1", "benchmarking"],
    ["3fff::1", "reserved"],
    ["100::1", "discard"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["ff02::1", "multicast"],
    ["1::1", "reserved"],
    ["4000::1", "reserved"],
    ["5f00::1", "segmentRouting"],
  ])("%s is not global (%s)", (address, range) => {
    expect(classifyIp(address)).toEqual({ isGlobal: false, range });
  });

  it.each(["2130706433", "0x7f000001", "0177.0.0.1", "127.1", "0x7f.1"])("reads the IPv4 notation %s like the URL parser does", (address) => {
    expect(classifyIp(address)).toEqual({ isGlobal: false, range: "loopback" });
  });

  it.each(["", "example.test", "localhost", "1.2.3.4.5", "256.1.1.1", "::g", "[::1", "127.0.0.1/8", "08.1.1.1"])("%j is invalid, never global", (text) => {
    expect(classifyIp(text)).toEqual({ isGlobal: false, range: "invalid" });
  });
});
