import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { NetworkPolicy } from "../src/fetch/egress-types.ts";
import { safeFetch } from "../src/fetch/safe-fetch.ts";
import { startDnsServer, type DnsAnswer, type DnsServer } from "./support/dns-server.ts";
import { egressDeps, policy } from "./support/egress.ts";
import { reply, startOrigin, type Origin } from "../../test-support/origin.ts";

const MiB = 1024 * 1024;

/** Names served by the loopback DNS server; "rebind.test" answers 127.0.0.2 once, then 127.0.0.3. */
const ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
  "private.test": { A: ["10.0.0.5"] },
  "loopback.test": { A: ["127.0.0.1"] },
  "loopback6.test": { AAAA: ["::1"] },
  "mixed.test": { A: ["93.184.216.34", "10.0.0.5"] },
  "mixed-family.test": { A: ["93.184.216.34"], AAAA: ["::1"] },
  "mapped.test": { AAAA: ["::ffff:127.0.0.1"] },
  "zero.test": { A: ["0.0.0.0"] },
  "metadata.test": { A: ["169.254.169.254"] },
  "nat64.test": { AAAA: ["64:ff9b::7f00:1"] },
  "cgnat.test": { A: ["100.64.0.1"] },
  "two.test": { A: ["127.0.0.2"] },
  "three.test": { A: ["127.0.0.3"] },
};

function answer(name: string, type: "A" | "AAAA", queryNumber: number): DnsAnswer {
  if (name === "rebind.test") return type === "A" ? [queryNumber === 1 ? "127.0.0.2" : "127.0.0.3"] : [];
  const entry = ZONE[name];
  return entry ? (entry[type] ?? []) : "nxdomain";
}

let dns: DnsServer;
let trap4: Origin; // 127.0.0.1:P — where loopback forms of the table would land
let trap6: Origin; // [::1]:P
let two: Origin; // 127.0.0.2:Q
let three: Origin; // 127.0.0.3:Q
let deps: ReturnType<typeof egressDeps>;

/** The same port on IPv4 and IPv6 loopback, so every table URL can name one port. */
async function trapPair(): Promise<[Origin, Origin]> {
  for (let attempt = 0; ; attempt++) {
    const v4 = await startOrigin("127.0.0.1", reply(200, "trapped"));
    try {
      return [v4, await startOrigin("::1", reply(200, "trapped"), { port: v4.port })];
    } catch (error) {
      await v4.close();
      if (attempt === 5) throw error;
    }
  }
}

beforeAll(async () => {
  dns = await startDnsServer(answer);
  [trap4, trap6] = await trapPair();
  two = await startOrigin("127.0.0.2", (req, res) => res.end(`two ${req.headers.host}`));
  three = await startOrigin("127.0.0.3", reply(200, "three"), { port: two.port });
});
afterAll(async () => {
  for (const server of [trap4, trap6, two, three]) await server.close();
  await dns.close();
});
beforeEach(() => {
  deps = egressDeps(dns);
});
afterEach(() => deps.dispatchers.close());

const fetchUrl = (url: string, netPolicy: NetworkPolicy = policy()) =>
  safeFetch({ url, policy: netPolicy, timeoutMs: 5_000, maxResponseBytes: MiB }, deps);

const BLOCKED_FORMS = [
  // Local names
  "http://localhost:{P}/",
  "http://LOCALHOST.:{P}/",
  "https://localhost:{P}/",
  "http://a.localhost:{P}/",
  "http://foo.bar.localhost.:{P}/",
  "http://x.local:{P}/",
  "http://X.LOCAL.:{P}/",
  "http://y.internal:{P}/",
  "http://metadata.google.internal:{P}/computeMetadata/v1/",
  // IPv4 loopback and unspecified, in every notation the URL parser folds
  "http://127.0.0.1:{P}/",
  "http://127.1:{P}/",
  "http://127.0.1:{P}/",
  "http://127.255.255.254:{P}/",
  "http://0:{P}/",
  "http://0.0.0.0:{P}/",
  "http://2130706433:{P}/",
  "http://0x7f000001:{P}/",
  "http://0X7F.0.0.1:{P}/",
  "http://0177.0.0.1:{P}/",
  "http://017700000001:{P}/",
  "http://0x7f.1:{P}/",
  "http://127.0.0.1.:{P}/",
  // IPv4 private, link-local, shared and special-purpose
  "http://10.0.0.1:{P}/",
  "http://012.0.0.1:{P}/",
  "http://172.16.0.1:{P}/",
  "http://172.31.255.255:{P}/",
  "http://192.168.1.1:{P}/",
  "http://3232235777:{P}/",
  "http://169.254.169.254:{P}/latest/meta-data/",
  "http://0xa9fea9fe:{P}/",
  "http://100.64.0.1:{P}/",
  "http://192.0.0.1:{P}/",
  "http://192.0.2.1:{P}/",
  "http://198.18.0.1:{P}/",
  "http://198.51.100.1:{P}/",
  "http://203.0.113.1:{P}/",
  "http://224.0.0.1:{P}/",
  "http://255.255.255.255:{P}/",
  "http://240.0.0.1:{P}/",
  // IPv6 loopback, unspecified, mapped, compatible, tunnels, local ranges
  "http://[::1]:{P}/",
  "http://[::]:{P}/",
  "http://[0:0:0:0:0:0:0:1]:{P}/",
  "http://[0000::1]:{P}/",
  "http://[::ffff:127.0.0.1]:{P}/",
  "http://[::ffff:7f00:1]:{P}/",
  "http://[::FFFF:7F00:1]:{P}/",
  "http://[::ffff:169.254.169.254]:{P}/",
  "http://[::127.0.0.1]:{P}/",
  "http://[::ffff:0:127.0.0.1]:{P}/",
  "http://[64:ff9b::7f00:1]:{P}/",
  "http://[64:ff9b::a00:1]:{P}/",
  "http://[64:ff9b:1::a00:1]:{P}/",
  "http://[2002:7f00:1::]:{P}/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]:{P}/",
  "http://[2001:db8::1]:{P}/",
  "http://[100::1]:{P}/",
  "http://[fc00::1]:{P}/",
  "http://[fd12::1]:{P}/",
  "http://[fe80::1]:{P}/",
  "http://[fec0::1]:{P}/",
  "http://[ff02::1]:{P}/",
  // Userinfo and delimiter tricks: the host is what the URL parser says it is
  "http://example.test@127.0.0.1:{P}/",
  "http://user:pass@localhost:{P}/",
  "http://a@b@127.0.0.1:{P}/",
  "http://127.0.0.1:{P}#@example.test/",
  "http://127.0.0.1:{P}\\@example.test/",
  // Names whose DNS answers are not global (loopback DNS server)
  "http://private.test:{P}/",
  "http://loopback.test:{P}/",
  "http://loopback6.test:{P}/",
  "http://mixed.test:{P}/",
  "http://mixed-family.test:{P}/",
  "http://mapped.test:{P}/",
  "http://zero.test:{P}/",
  "http://metadata.test:{P}/",
  "http://nat64.test:{P}/",
  "http://cgnat.test:{P}/",
];

describe("SSRF: blocked by default", () => {
  it.each(BLOCKED_FORMS)("%s", async (form) => {
    const result = await fetchUrl(form.replace("{P}", String(trap4.port)));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("blocked");
    expect(result.error.message).toContain("web.allowPrivateNetwork");
    expect(result.error.message).not.toMatch(/user|pass/);
    expect(deps.dispatchers.handedOut).toEqual([]);
    expect(trap4.connections).toHaveLength(0);
    expect(trap6.connections).toHaveLength(0);
  });

  it("covers at least 50 forms", () => {
    expect(BLOCKED_FORMS.length).toBeGreaterThanOrEqual(50);
  });

  it.each(["http://[fe80::1%25eth0]:{P}/", "http://[fe80::1%eth0]:{P}/", "http://[::1%251]:{P}/"])(
    "rejects the zone id form %s as an invalid URL",
    async (form) => {
      expect(await fetchUrl(form.replace("{P}", String(trap4.port)))).toMatchObject({ ok: false, error: { code: "invalid-url" } });
      expect(trap6.connections).toHaveLength(0);
    },
  );
});

describe("SSRF: explicit exemptions", () => {
  const at = (host: string) => `http://${host}:${two.port}/`;

  it("allowHosts with an IP lets that origin through and no other", async () => {
    const netPolicy = policy({ allowHosts: ["127.0.0.2"] });
    expect(await fetchUrl(at("127.0.0.2"), netPolicy)).toMatchObject({ ok: true, value: { status: 200, remoteAddress: "127.0.0.2" } });
    expect(await fetchUrl(at("127.0.0.3"), netPolicy)).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(await fetchUrl(at("three.test"), netPolicy)).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(three.connections).toHaveLength(0);
  });

  it("allowHosts with a host name exempts that name's answers only", async () => {
    const netPolicy = policy({ allowHosts: ["two.test"] });
    const result = await fetchUrl(at("two.test"), netPolicy);
    expect(result.ok && Buffer.from(result.value.bytes).toString()).toBe(`two two.test:${two.port}`);
    expect(await fetchUrl(at("127.0.0.2"), netPolicy)).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(await fetchUrl(at("three.test"), netPolicy)).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(three.connections).toHaveLength(0);
  });

  it("allowHosts with a CIDR covers exactly its range", async () => {
    const netPolicy = policy({ allowHosts: ["127.0.0.2/31"] });
    expect((await fetchUrl(at("127.0.0.2"), netPolicy)).ok).toBe(true);
    expect((await fetchUrl(at("three.test"), netPolicy)).ok).toBe(true);
    expect(await fetchUrl(`http://127.0.0.1:${trap4.port}/`, netPolicy)).toMatchObject({ ok: false, error: { code: "blocked" } });
    expect(trap4.connections).toHaveLength(0);
    expect(three.connections.length).toBeGreaterThan(0);
  });

  it("allowPrivateNetwork lets loopback destinations through", async () => {
    const netPolicy = policy({ allowPrivateNetwork: true });
    expect((await fetchUrl(at("127.0.0.2"), netPolicy)).ok).toBe(true);
    expect((await fetchUrl(at("three.test"), netPolicy)).ok).toBe(true);
    const six = await fetchUrl(`http://[::1]:${trap6.port}/`, netPolicy);
    expect(six).toMatchObject({ ok: true, value: { remoteAddress: "::1" } });
  });
});

describe("SSRF: DNS rebinding", () => {
  it("pins each fetch to the address it vetted; a rebound answer is vetted again and refused", async () => {
    two.requests.length = 0;
    const connectionsBefore = two.connections.length;
    const threeBefore = three.connections.length;
    const url = `http://rebind.test:${two.port}/`;
    const netPolicy = policy({ allowHosts: ["127.0.0.2"] });

    const first = await fetchUrl(url, netPolicy);
    expect(first).toMatchObject({ ok: true, value: { status: 200, remoteAddress: "127.0.0.2" } });
    const second = await fetchUrl(url, netPolicy);
    expect(second).toMatchObject({ ok: false, error: { code: "blocked", message: expect.stringContaining("rebind.test resolves to 127.0.0.3") } });

    expect(two.requests.map((r) => r.headers.host)).toEqual([`rebind.test:${two.port}`]);
    expect(two.connections.length - connectionsBefore).toBe(1);
    expect(three.connections.length).toBe(threeBefore);
    // One A and one AAAA query per vetting, none from undici: nothing else resolved the name.
    expect(dns.count("rebind.test", "A")).toBe(2);
    expect(dns.count("rebind.test")).toBe(4);
    expect(deps.dispatchers.handedOut.map((d) => d.vetted.address)).toEqual(["127.0.0.2"]);
  });
});
