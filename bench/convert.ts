import { DEFAULT_WEB_CONFIG } from "@edge-web/shared";
import { extractText } from "unpdf";
import { convertDocument } from "../sidecar/src/convert/service/convert-document.ts";
import { buildPdf } from "../sidecar/test/support/document-fixtures.ts";
import { routes, send, startOrigin } from "../test-support/origin.ts";
import type { BenchStack } from "./bench-stack.ts";
import { benchConvertFormats } from "./convert-formats.ts";
import { percentiles, timeEach } from "./percentiles.ts";

const PAGES = 200;

/**
 * convert_content on a generated 200-page PDF: pages per second through the running stack (download,
 * converter thread, storage), our converter in-process, and the peer — unpdf's own extractText,
 * the plain text with no reading order, headings or page marks — in the same run. Then the p50 of
 * a small fetch_content while large documents convert without pause, against the same p50 with
 * nothing converting: what a conversion costs the sidecar's other work. Last, each format in-process
 * (convert-formats.ts): documents per second against the library underneath, and the memory peak per document.
 */
export async function benchConvert(bench: BenchStack, rounds = 15) {
  // A heading and a paragraph per page: the whole document fits convert.maxContentChars, so every page is read.
  const text = "Agents read reports like this one through convert_content, page by page, in reading order. ".repeat(3);
  const pdf = Buffer.from(await buildPdf({ pages: Array.from({ length: PAGES }, (_, i) => ({ heading: `Section ${i + 1}`, paragraphs: [text] })) }));
  const large = Buffer.from(await buildPdf({ pages: 2_000 }));
  const origin = await startOrigin("127.0.0.2", routes({ "/doc.pdf": send(200, "application/pdf", pdf), "/large.pdf": send(200, "application/pdf", large) }));
  try {
    const sessionId = await bench.newSession();
    const tool = async (name: string, params: object) => {
      const res = await bench.post(`/api/sessions/${sessionId}/tools/${name}`, params);
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}: ${await res.text()}`);
      return res.json() as Promise<{ metadata?: { pages?: { included: number } } }>;
    };
    const ways = {
      stack: async () => {
        const answer = await tool("convert_content", { url: `${origin.url}/doc.pdf` });
        if (answer.metadata?.pages?.included !== PAGES) throw new Error("the stack converted fewer pages than the document has");
      },
      inProcess: async () => {
        const converted = await convertDocument(new Uint8Array(pdf), { fileName: "doc.pdf" }, { ...DEFAULT_WEB_CONFIG.convert, deadlineMs: Date.now() + 60_000 });
        if (!converted.ok || converted.value.pages?.included !== PAGES) throw new Error("the converter read fewer pages than the document has");
      },
      unpdfExtractText: async () => {
        const { totalPages } = await extractText(new Uint8Array(pdf), { mergePages: true });
        if (totalPages !== PAGES) throw new Error("unpdf read another page count");
      },
    };
    const samples: Record<keyof typeof ways, number[]> = { stack: [], inProcess: [], unpdfExtractText: [] };
    for (let round = -2; round < rounds; round++) {
      for (const [name, once] of Object.entries(ways) as [keyof typeof ways, () => Promise<void>][]) {
        const started = performance.now();
        await once();
        if (round >= 0) samples[name].push(performance.now() - started);
      }
    }
    const pagesPerSecond = Object.fromEntries(
      Object.entries(samples).map(([name, ms]) => [name, +((PAGES * 1000) / percentiles(ms).p50).toFixed(0)]),
    ) as Record<keyof typeof ways, number>;

    const page = `${bench.origin.url}/page.html`;
    const fetchOnce = async () => void (await tool("fetch_content", { url: page }));
    const idle = await timeEach(100, fetchOnce);
    let converting = true;
    let conversions = 0;
    const background = (async () => {
      const other = await bench.newSession();
      while (converting) {
        await bench.post(`/api/sessions/${other}/tools/convert_content`, { url: `${origin.url}/large.pdf` }).then((r) => r.arrayBuffer());
        conversions++;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const busy = await timeEach(100, fetchOnce);
    converting = false;
    await background;
    const idleP = percentiles(idle);
    const busyP = percentiles(busy);
    return {
      case: "convert_content: a 200-page PDF through the stack, in-process and by unpdf alone; fetch_content while documents convert",
      pdfPages: PAGES,
      pagesPerSecondP50: pagesPerSecond,
      ratio: { inProcessVsUnpdfExtractText: +(pagesPerSecond.inProcess / pagesPerSecond.unpdfExtractText).toFixed(2), stackVsInProcess: +(pagesPerSecond.stack / pagesPerSecond.inProcess).toFixed(2) },
      fetchContentWhileConverting: { idle: idleP, converting: busyP, largeConversions: conversions, ratioP50: +(busyP.p50 / idleP.p50).toFixed(2) },
      perFormat: await benchConvertFormats(),
    };
  } finally {
    await origin.close();
  }
}
