import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHostResolver } from "../src/fetch/resolve-host.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";

let dns: DnsServer;
let silent: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer((name, type) => {
    if (name === "both.test") return type === "A" ? ["127.0.0.5", "127.0.0.6"] : ["::1"];
    if (name === "v4.test") return type === "A" ? ["127.0.0.7"] : [];
    if (name === "v6.test") return type === "AAAA" ? ["::1"] : [];
    if (name === "empty.test") return [];
    return "nxdomain";
  });
  silent = await startDnsServer(() => "drop");
});
afterAll(async () => {
  await dns.close();
  await silent.close();
});

describe("createHostResolver with servers", () => {
  const resolver = () => createHostResolver({ servers: [dns.address], timeoutMs: 2_000 });

  it("asks for A and AAAA and returns IPv4 answers first", async () => {
    const before = dns.queries.length;
    expect(await resolver().resolve("both.test")).toEqual(["127.0.0.5", "127.0.0.6", "::1"]);
    expect(dns.queries.slice(before).map((q) => q.type).sort()).toEqual(["A", "AAAA"]);
  });

  it("is fine with one family having no data", async () => {
    expect(await resolver().resolve("v4.test")).toEqual(["127.0.0.7"]);
    expect(await resolver().resolve("v6.test")).toEqual(["::1"]);
  });

  it("rejects when there is no answer at all", async () => {
    await expect(resolver().resolve("empty.test")).rejects.toThrow();
    await expect(resolver().resolve("missing.test")).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it("rejects at once when the signal fires, cancelling the queries", async () => {
    const controller = new AbortController();
    const pending = createHostResolver({ servers: [silent.address], timeoutMs: 60_000 }).resolve("slow.test", controller.signal);
    await expect.poll(() => silent.count("slow.test")).toBeGreaterThan(0);
    controller.abort(new Error("caller gave up"));
    await expect(pending).rejects.toThrow("caller gave up");
  });

  it("rejects an already-aborted signal without asking", async () => {
    const before = silent.queries.length;
    await expect(createHostResolver({ servers: [silent.address] }).resolve("early.test", AbortSignal.abort())).rejects.toThrow();
    expect(silent.queries.length).toBe(before);
  });

  it("gives up after timeoutMs when the server never answers", async () => {
    await expect(createHostResolver({ servers: [silent.address], timeoutMs: 300 }).resolve("dropped.test")).rejects.toThrow();
  });
});

describe("createHostResolver without servers", () => {
  it("uses the system lookup (localhost only: tests never ask the system about other names)", async () => {
    const answers = await createHostResolver().resolve("localhost");
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((a) => a === "::1" || a.startsWith("127."))).toBe(true);
  });

  it("honours an aborted signal", async () => {
    await expect(createHostResolver().resolve("localhost", AbortSignal.abort())).rejects.toThrow();
  });
});
