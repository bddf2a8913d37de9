import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { DEFAULT_WEB_CONFIG } from "@edge-web/shared";
import mammoth from "mammoth";
import { extractText } from "unpdf";
import { convertDocument } from "../sidecar/src/convert/service/convert-document.ts";
import {
  buildDocx,
  buildEpub,
  buildPdf,
  buildPptx,
  buildXlsx,
  chartXml,
  greyPng,
  mathRun,
  wordMath,
  wordParagraph,
  wordPicture,
  wordRun,
} from "../sidecar/test/support/document-fixtures.ts";
import { percentiles } from "./percentiles.ts";

/** A document of each format, with the features the converters read (pictures, equations, charts, tables …). */
async function documents(): Promise<Record<string, { bytes: Uint8Array; fileName: string }>> {
  const prose = "Agents read documents like this one through convert_content, in reading order, with nothing lost. ".repeat(2);
  const docx = buildDocx({
    xml: Array.from({ length: 200 }, (_, i) =>
      i % 10 === 0
        ? wordParagraph(`${wordRun("Figure: ")}${wordPicture("rIdImg", { descr: `Figure ${i}` })}${wordRun(" where ")}${wordMath(`<m:f><m:num>${mathRun("a")}</m:num><m:den>${mathRun("b")}</m:den></m:f>`)}`)
        : wordParagraph(wordRun(`${i}. ${prose}`)),
    ),
    relationships: [{ id: "rIdImg", type: "image", target: "media/image1.png" }],
    entries: [{ name: "word/media/image1.png", data: greyPng(8, 8) }],
  });
  const chart = { title: "Sales", categories: ["North", "South", "East", "West"], series: [{ name: "2023", values: [1, 2, 3, 4] }, { name: "2024", values: [2, 3, 4, 5] }] };
  const pptx = buildPptx({
    slides: Array.from({ length: 50 }, (_, i) => ({
      title: `Slide ${i + 1}`,
      bullets: ["A point", ["A sub-point", 1] as [string, number], "Another point"],
      pictures: [{ file: `image${i}.png`, descr: "A picture" }],
      ...(i % 5 === 0 && { chart }),
      notes: "Say this.",
    })),
  });
  const xlsx = buildXlsx({
    sheets: [{ name: "Data", rows: [["Item", "Amount", "Share"], ...Array.from({ length: 2000 }, (_, i) => [`Item ${i}`, { number: i * 10.5, format: "#,##0.00" }, { number: i / 2000, format: "0.0%" }])] }],
  });
  const epub = buildEpub({ chapters: Array.from({ length: 20 }, (_, i) => `<h1>Chapter ${i + 1}</h1>${`<p>${prose}</p>`.repeat(20)}`) });
  const table = Array.from({ length: 12 }, (_, r) => (r === 0 ? ["Name", "Dose", "Outcome"] : [`P-${r}`, `${r} mg`, "Stable"]));
  const pdf = await buildPdf({ pages: Array.from({ length: 50 }, (_, i) => ({ heading: `Section ${i + 1}`, paragraphs: [prose], table })) });
  return {
    pdf: { bytes: pdf, fileName: "doc.pdf" },
    docx: { bytes: docx, fileName: "doc.docx" },
    pptx: { bytes: pptx, fileName: "deck.pptx" },
    xlsx: { bytes: xlsx, fileName: "book.xlsx" },
    epub: { bytes: epub, fileName: "book.epub" },
  };
}

/** The p50 time of a run, in milliseconds, after two warm-up runs. */
async function p50(rounds: number, once: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let round = -2; round < rounds; round++) {
    const started = performance.now();
    await once();
    if (round >= 0) samples.push(performance.now() - started);
  }
  return percentiles(samples).p50;
}

v8.setFlagsFromString("--expose-gc");
/** The collector, reached without starting node with --expose-gc. */
const collect = runInNewContext("gc") as () => void;
/** What the process holds in its heap and in buffers outside it. */
const held = (): number => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/**
 * The most memory (heap and buffers) one conversion held above what the process held before it, collected
 * first, sampled every few milliseconds; converters yield between pages and parts, so the samples see it grow.
 */
async function memoryPeakMb(once: () => Promise<unknown>): Promise<number> {
  collect();
  const before = held();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, held())), 2);
  try {
    await once();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, held());
  return +((peak - before) / 1024 / 1024).toFixed(1);
}

/**
 * convert_content's converters in-process, one document of each format: documents per second (p50), against the
 * libraries underneath where there is one (unpdf's plain extractText for PDF, mammoth's HTML for DOCX), and the
 * memory peak per document.
 */
export async function benchConvertFormats(rounds = 10) {
  const docs = await documents();
  const convert = (name: string) => async () => {
    const { bytes, fileName } = docs[name]!;
    const converted = await convertDocument(new Uint8Array(bytes), { fileName }, { ...DEFAULT_WEB_CONFIG.convert, deadlineMs: Date.now() + 60_000 });
    if (!converted.ok) throw new Error(`${name}: ${converted.error.message}`);
  };
  const peers: Record<string, () => Promise<unknown>> = {
    pdf: () => extractText(new Uint8Array(docs.pdf!.bytes), { mergePages: true }),
    docx: () => mammoth.convertToHtml({ buffer: Buffer.from(docs.docx!.bytes) }),
  };
  const formats: Record<string, { documentsPerSecond: number; peer?: { name: string; documentsPerSecond: number; ratio: number }; memoryPeakMb: number }> = {};
  for (const name of Object.keys(docs)) {
    const ours = 1000 / (await p50(rounds, convert(name)));
    const peer = peers[name];
    const theirs = peer ? 1000 / (await p50(rounds, peer)) : undefined;
    formats[name] = {
      documentsPerSecond: +ours.toFixed(1),
      ...(theirs !== undefined && { peer: { name: name === "pdf" ? "unpdf extractText" : "mammoth convertToHtml", documentsPerSecond: +theirs.toFixed(1), ratio: +(ours / theirs).toFixed(2) } }),
      memoryPeakMb: await memoryPeakMb(convert(name)),
    };
  }
  return {
    case: "convert_content's converters in-process: a document of each format (PDF 50 pages with tables, DOCX 200 paragraphs with pictures and equations, PPTX 50 slides with pictures, charts and notes, XLSX 2,000 formatted rows, EPUB 20 chapters)",
    formats,
  };
}
