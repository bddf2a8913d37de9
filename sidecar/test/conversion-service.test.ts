import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { AddressInfo } from "node:net";
import type { Worker } from "node:worker_threads";
import zlib from "node:zlib";
import { CONVERT_REQUEST_HEADER, createHostLimiter, DEFAULT_WEB_CONFIG, type ConvertLimits } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, type Origin, routes } from "../../test-support/origin.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { createConvertPool } from "../src/convert/service/convert-pool.ts";
import { createSidecarServer, listen } from "../src/server.ts";
import { startDnsServer, type DnsServer } from "./support/dns-server.ts";
import { buildDocx, buildNestedPdf, buildPdf, buildZipBomb, greyPng, wordComments, wordParagraph, wordPicture, wordRun } from "./support/document-fixtures.ts";
import { deflatedFiller } from "./support/document-zip.ts";
import { egressDeps } from "./support/egress.ts";

const TOKEN = "test-token-0123456789";
const LIMITS: ConvertLimits = { ...DEFAULT_WEB_CONFIG.convert };
const OPTIONS = { allowHosts: ["127.0.0.2"] };

let base: string;
let origin: Origin;
let dns: DnsServer;
let bigPdf: Buffer;
const converter = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 256 });
let server: ReturnType<typeof createSidecarServer>;
let closeDispatchers: () => Promise<void>;

beforeAll(async () => {
  bigPdf = Buffer.from(await buildPdf({ pages: 2_000 }));
  const small = Buffer.from(await buildPdf({ pages: [{ heading: "Small", paragraphs: ["A short document."] }] }));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      "/small.pdf": send(200, "application/pdf", small),
      "/big.pdf": send(200, "application/pdf", bigPdf),
      "/small.gz.pdf": send(200, "application/pdf", zlib.gzipSync(small), { "content-encoding": "gzip" }),
      "/hello.txt": send(200, "text/plain", "hello"),
      "/to-private": send(302, "text/plain", "", { location: "http://127.0.0.1:9/x.pdf" }),
      "/gone": send(410, "text/plain", "gone"),
      "/broken": send(500, "text/plain", "oops"),
      "/busy": send(429, "text/plain", "slow down"),
      "/private": send(403, "text/plain", "no"),
      "/download": send(200, "application/pdf", small, { "content-disposition": "attachment; filename*=UTF-8''annual%20report.pdf" }),
    }),
  );
  dns = await startDnsServer(() => "nxdomain");
  const egress = egressDeps(dns);
  closeDispatchers = () => egress.dispatchers.close();
  server = createSidecarServer({ token: TOKEN, deps: { ...egress, limiter: createHostLimiter({ maxConcurrent: 16, maxPerHost: 8, maxQueue: 64 }), converter } });
  const address: AddressInfo = await listen(server, 0, "127.0.0.1");
  base = `http://127.0.0.1:${address.port}`;
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await converter.close();
  await closeDispatchers();
  await dns.close();
  await origin.close();
});

const auth = { authorization: `Bearer ${TOKEN}` };
const convertUrl = async (url: string, limits: Partial<ConvertLimits> = {}, budgetMs?: number) =>
  (await (
    await fetch(`${base}/v1/convert`, { method: "POST", headers: auth, body: JSON.stringify({ url, options: OPTIONS, limits: { ...LIMITS, ...limits }, ...(budgetMs && { budgetMs }) }) })
  ).json()) as any;
const convertFile = async (bytes: Uint8Array, request: object) =>
  fetch(`${base}/v1/convert-file`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/octet-stream", [CONVERT_REQUEST_HEADER]: encodeURIComponent(JSON.stringify(request)) },
    body: bytes,
  });

/** A one-page PDF whose content stream is FlateDecode data inflating to `inflatedBytes` spaces (built without inflating it). */
function pdfStreamBomb(inflatedBytes: number): Uint8Array {
  // zlib's two header bytes, raw deflate, and a checksum pdf.js does not check.
  const stream = Buffer.concat([Buffer.from([0x78, 0x9c]), deflatedFiller(inflatedBytes).data, Buffer.alloc(4)]);
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from("\nendstream")]),
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n")];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    offsets.push(at);
    parts.push(object);
    at += object.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}
const fetchPage = async () =>
  (await (await fetch(`${base}/v1/fetch`, { method: "POST", headers: auth, body: JSON.stringify({ url: `${origin.url}/hello.txt`, options: OPTIONS }) })).json()) as any;
const healthy = async () => (await fetch(`${base}/healthz`, { headers: auth })).status === 200;

describe("POST /v1/convert: a document at a URL", () => {
  it("downloads through the fetch pipeline and converts on a converter thread", async () => {
    const answer = await convertUrl(`${origin.url}/small.pdf`);
    expect(answer).toMatchObject({ ok: true, value: { source: `${origin.url}/small.pdf`, provider: "unpdf", metadata: { fileName: "small.pdf", pages: { total: 1, included: 1 } } } });
    expect(answer.value.content).toContain("A short document.");
    expect(answer.bytes).toBeGreaterThan(100);
    // A download names its file in Content-Disposition.
    expect((await convertUrl(`${origin.url}/download`)).value.metadata.fileName).toBe("annual report.pdf");
    // Decoded bytes are what is converted (and counted against the cap).
    expect((await convertUrl(`${origin.url}/small.gz.pdf`)).value.content).toContain("A short document.");
  });

  it("answers in convert_content's codes", async () => {
    expect((await convertUrl("http://127.0.0.1:9/x.pdf")).error.code).toBe("PRIVATE_NETWORK_BLOCKED");
    expect((await convertUrl(`${origin.url}/to-private`)).error.code).toBe("PRIVATE_NETWORK_BLOCKED");
    expect((await convertUrl("gopher://127.0.0.2/x")).error.code).toBe("UNSUPPORTED_PROTOCOL");
    expect((await convertUrl("http://")).error.code).toBe("INVALID_INPUT");
    expect((await convertUrl("localhost:8080/x.pdf")).error.code).toBe("INVALID_INPUT");
    expect((await convertUrl("example.com:443/x.pdf")).error.code).toBe("INVALID_INPUT");
    // Where the code covers several faults, `details` says which one, with the origin's status.
    expect((await convertUrl(`${origin.url}/gone`)).error).toMatchObject({ code: "FILE_NOT_FOUND", details: { fault: "not-found", upstreamStatus: 410 } });
    expect((await convertUrl(`${origin.url}/broken`)).error).toMatchObject({ code: "NETWORK_ERROR", details: { fault: "upstream" } });
    expect((await convertUrl(`${origin.url}/busy`)).error).toMatchObject({ code: "NETWORK_ERROR", details: { fault: "upstream", upstreamStatus: 429 } });
    expect((await convertUrl(`${origin.url}/private`)).error).toMatchObject({ code: "CONVERT_FAILED", details: { fault: "upstream", upstreamStatus: 403 } });
    expect((await convertUrl("http://nowhere.test/x.pdf")).error.code).toBe("NETWORK_ERROR");
    const tooLarge = await convertUrl(`${origin.url}/small.gz.pdf`, { maxResponseBytes: 500 });
    expect(tooLarge.error).toMatchObject({ code: "FILE_TOO_LARGE", message: expect.stringMatching(/500 bytes/) });
  });
});

describe("POST /v1/convert-file: a document's bytes", () => {
  it("converts the body with the header's description, whatever script its file name is in", async () => {
    const res = await convertFile(buildDocx({ heading: "Uploaded" }), { source: "attachment:att_1", fileName: "報告 café.docx", limits: LIMITS });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, value: { source: "attachment:att_1", provider: "mammoth", metadata: { fileName: "報告 café.docx" } } });
  });

  it("passes the images and comments options to the converter", async () => {
    const png = greyPng(2, 2);
    const bytes = buildDocx({
      xml: [wordParagraph(`${wordRun("Noted")}<w:r><w:commentReference w:id="1"/></w:r>${wordPicture("rIdImg", { descr: "Dot" })}`)],
      relationships: [
        { id: "rIdImg", type: "image", target: "media/dot.png" },
        { id: "rIdComments", type: "comments", target: "comments.xml" },
      ],
      entries: [
        { name: "word/media/dot.png", data: png },
        { name: "word/comments.xml", data: wordComments([{ id: "1", author: "Bo", text: "Why?" }]) },
      ],
    });
    const plain = (await (await convertFile(bytes, { source: "attachment:att_3", limits: LIMITS })).json()) as any;
    expect(plain.value.content).toMatch(/\n\nNoted!\[Dot\]\(dot\.png\)$/);
    const asked = (await (await convertFile(bytes, { source: "attachment:att_3", limits: { ...LIMITS, images: "inline", comments: true } })).json()) as any;
    expect(asked.value.content).toMatch(/\n\nNoted\[\^c1\]!\[Dot\]\(data:image\/png;base64,[A-Za-z0-9+/=]+\)\n\n\[\^c1\]: Bo: Why\?$/);
  });

  it("refuses a body over the cap and a header that is not a valid description", async () => {
    const over = await convertFile(new Uint8Array(2_000), { source: "attachment:att_2", limits: { ...LIMITS, maxResponseBytes: 1_000 } });
    expect(over.status).toBe(413);
    expect(((await over.json()) as any).error.code).toBe("FILE_TOO_LARGE");
    const bad = await fetch(`${base}/v1/convert-file`, { method: "POST", headers: { ...auth, [CONVERT_REQUEST_HEADER]: "{not json" }, body: "x" });
    expect(bad.status).toBe(400);
    const invalid = await convertFile(new Uint8Array(10), { source: 3 });
    expect(invalid.status).toBe(400);
  });
});

describe("the converter threads", () => {
  it("keep the sidecar serving fetches while a long document converts", async () => {
    const conversion = convertUrl(`${origin.url}/big.pdf`, { maxPages: 2_000 }, 20_000);
    // Wait until the thread is busy with it, then fetch: the fetches finish while it still converts.
    await waitFor(() => converter.load().busy === 1, "the thread to take the long document");
    for (let i = 0; i < 5; i++) expect((await fetchPage()).value.content).toBe("hello");
    expect(converter.load().busy).toBe(1);
    const answer = await conversion;
    expect(answer.ok).toBe(true);
    expect(answer.value.metadata.pages.total).toBe(2_000);
  }, 30_000);

  it("answer a 2,000-page PDF within a short deadline with the pages they got", async () => {
    const answer = await convertUrl(`${origin.url}/big.pdf`, { maxPages: 2_000 }, 3_000);
    expect(answer).toMatchObject({ ok: true, value: { truncated: true } });
    expect(answer.value.metadata.pages.included).toBeGreaterThan(0);
    expect(answer.value.metadata.pages.included).toBeLessThan(2_000);
  }, 15_000);

  it("refuse work beyond the queue at once", async () => {
    const first = convertUrl(`${origin.url}/big.pdf`, { maxPages: 2_000 }, 8_000);
    await waitFor(() => converter.load().busy === 1, "the thread to take the long document");
    const waiting = convertUrl(`${origin.url}/small.pdf`, {}, 8_000);
    await waitFor(() => converter.load().queued === 1, "the second document to wait for the thread");
    const refused = await convertUrl(`${origin.url}/small.pdf`);
    expect(refused.error).toMatchObject({ code: "CONVERT_FAILED", message: expect.stringMatching(/busy/) });
    expect((await first).ok).toBe(true);
    expect((await waiting).ok).toBe(true);
  }, 20_000);

  it("count waiting for the thread against the deadline: a queued document is answered when its time is up, not after the one before it", async () => {
    // The pool itself, so that nothing but the queue stands between the call and the deadline (a fetch on a loaded
    // machine could use up a short deadline before the document is queued).
    const pool = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 256 });
    try {
      const converting = pool.run({ bytes: Buffer.from(bigPdf), hints: { fileName: "big.pdf" }, options: { ...LIMITS, maxPages: 2_000, deadlineMs: Date.now() + 20_000 } });
      let convertingDone = false;
      void converting.then(() => (convertingDone = true));
      const waiting = pool.run({ bytes: Buffer.from(bigPdf), hints: { fileName: "big.pdf" }, options: { ...LIMITS, maxPages: 2_000, deadlineMs: Date.now() + 50 } });
      expect(pool.load()).toEqual({ busy: 1, queued: 1 });
      expect(await waiting).toMatchObject({ ok: false, error: { code: "CONVERT_TIMEOUT" } });
      expect(convertingDone).toBe(false);
      expect((await converting).ok).toBe(true);
    } finally {
      await pool.close();
    }
  }, 30_000);

  it("fail hostile files cleanly and stay healthy", async () => {
    const hostile: Array<[string, Uint8Array, { code: string; message: RegExp }]> = [
      ["bomb.xlsx", buildZipBomb(), { code: "FILE_TOO_LARGE", message: /unpacks to 1024 MiB, more than the 100 MiB limit/ }],
      ["liar.xlsx", buildZipBomb({ inflatedBytes: 300 * 1024 * 1024, declaredBytes: 1_000 }), { code: "CONVERT_FAILED", message: /inflates to more than the 1000 bytes it declares/ }],
      ["nested.pdf", buildNestedPdf(), { code: "CONVERT_FAILED", message: /PDF could not be read/ }],
      ["garbage.pdf", new Uint8Array(Buffer.from("%PDF-1.7\n" + "\u0000\u00ff".repeat(5_000))), { code: "CONVERT_FAILED", message: /not a readable PDF/ }],
    ];
    for (const [fileName, bytes, refusal] of hostile) {
      const res = await convertFile(bytes, { source: `attachment:${fileName}`, fileName, limits: LIMITS });
      expect(res.status).toBe(200);
      expect({ fileName, answer: await res.json() }).toMatchObject({ fileName, answer: { ok: false, error: { code: refusal.code, message: expect.stringMatching(refusal.message) } } });
      expect(await healthy()).toBe(true);
    }
    expect((await convertUrl(`${origin.url}/small.pdf`)).ok).toBe(true);
  }, 60_000);

  it("refuse a document past the queue as the service's capacity (503), not the document's fault, and take the next once there is room", async () => {
    const tight = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 256 });
    try {
      const job = () => ({ bytes: Buffer.from(bigPdf), hints: { fileName: "big.pdf" }, options: { ...LIMITS, maxPages: 2_000, deadlineMs: Date.now() + 20_000 } });
      const converting = tight.run(job());
      const waiting = tight.run(job());
      expect(tight.load()).toEqual({ busy: 1, queued: 1 });
      expect(await tight.run(job())).toMatchObject({
        ok: false,
        error: { code: "CONVERT_FAILED", message: expect.stringMatching(/busy \(1 documents converting, 1 waiting\); retry/), details: { fault: "unavailable" } },
      });
      expect((await converting).ok).toBe(true);
      expect((await waiting).ok).toBe(true);
    } finally {
      await tight.close();
    }
    // A pool that is shutting down refuses the same way.
    expect(await tight.run({ bytes: Buffer.from(bigPdf), hints: {}, options: { ...LIMITS, deadlineMs: Date.now() + 5_000 } })).toMatchObject({
      ok: false,
      error: { code: "CONVERT_FAILED", message: expect.stringMatching(/shutting down; retry/), details: { fault: "unavailable" } },
    });
  }, 60_000);

  it("stop a thread whose buffers outgrow its memory limit (a PDF stream inflating to gigabytes)", async () => {
    const tight = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 64 });
    try {
      const bomb = pdfStreamBomb(3 * 1024 * 1024 * 1024);
      expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
      const outcome = await tight.run({ bytes: bomb, hints: { fileName: "bomb.pdf" }, options: { ...LIMITS, deadlineMs: Date.now() + 60_000 } });
      expect(outcome).toMatchObject({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringMatching(/64 MB of memory/) } });
      const small = await buildPdf({ pages: [{ heading: "After", paragraphs: ["Still converting."] }] });
      expect((await tight.run({ bytes: small, hints: {}, options: { ...LIMITS, deadlineMs: Date.now() + 10_000 } })).ok).toBe(true);
    } finally {
      await tight.close();
    }
  }, 60_000);

  it("never hand work to a thread that died while idle", async () => {
    const tight = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 8 });
    // Node announces each thread it creates: the warmed one is watched until it dies.
    let warmed: Worker | undefined;
    let died = false;
    const onThread = (message: unknown) => {
      warmed ??= (message as { worker: Worker }).worker;
      warmed.once("exit", () => (died = true));
      unsubscribe("worker_threads", onThread);
    };
    subscribe("worker_threads", onThread);
    try {
      tight.warm();
      // A warmed thread with too little memory to load the converters dies before any job.
      await waitFor(() => died, "the warmed thread to die while idle", { timeoutMs: 10_000 });
      expect(tight.load()).toEqual({ busy: 0, queued: 0 });
      const small = await buildPdf({ pages: [{ heading: "Idle", paragraphs: ["A job for a thread that died."] }] });
      const started = Date.now();
      const outcome = await tight.run({ bytes: small, hints: {}, options: { ...LIMITS, deadlineMs: Date.now() + 5_000 } });
      expect(outcome).toMatchObject({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringMatching(/memory/) } });
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      unsubscribe("worker_threads", onThread);
      await tight.close();
    }
  }, 20_000);

  it("stop a thread that runs out of memory, and go on with a new one", async () => {
    const tight = createConvertPool({ threads: 1, maxQueued: 1, memoryMb: 64 });
    try {
      // 135 KB of DOCX whose 40,000 paragraphs need well over 64 MB to convert (a thread with the converters loaded holds about 35 MB of it).
      const heavy = buildDocx({ paragraphs: Array.from({ length: 40_000 }, (_, i) => `Paragraph ${i} ${"words ".repeat(40)}`) });
      const options = { ...LIMITS, deadlineMs: Date.now() + 30_000 };
      const outcome = await tight.run({ bytes: heavy, hints: { fileName: "heavy.docx" }, options });
      expect(outcome).toMatchObject({ ok: false, error: { code: "CONVERT_FAILED", message: expect.stringMatching(/64 MB of memory/) } });
      const small = await buildPdf({ pages: [{ heading: "After", paragraphs: ["Still converting."] }] });
      const next = await tight.run({ bytes: small, hints: {}, options: { ...options, deadlineMs: Date.now() + 10_000 } });
      expect(next).toMatchObject({ ok: true, value: { content: expect.stringContaining("Still converting.") } });
    } finally {
      await tight.close();
    }
  }, 60_000);
});
