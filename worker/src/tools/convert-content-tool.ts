import {
  ConvertContentParamsSchema,
  ConvertContentSuccessSchema,
  convertLimitsFrom,
  fail,
  fetchOptionsFrom,
  ok,
  type ConvertContentParams,
  type ConvertContentSuccess,
  type ConvertedDocument,
  type ExtractedContent,
} from "@edge-web/shared";
import { callSlots } from "./call-slots.ts";
import { capContent } from "./cap-content.ts";
import { sharedRobots } from "./shared-robots.ts";
import { slotFailure } from "./slot-failure.ts";
import type { Tool } from "./tool.ts";
import { callDeadline, type ToolDeadline } from "./tool-deadline.ts";

/** How an uploaded file is named as a conversion's source (and selected again with get_search_content's `url`). */
export const attachmentSource = (id: string) => `attachment:${id}`;

/** A conversion as get_search_content reads it back: one fetched "page" whose URL is the source. */
function asStoredPage(document: ConvertedDocument): ExtractedContent {
  const { metadata } = document;
  const described = {
    converter: document.provider,
    ...(metadata?.fileName && { fileName: metadata.fileName }),
    ...(metadata?.fileSize !== undefined && { fileSize: String(metadata.fileSize) }),
    ...(metadata?.pages && { pages: `${metadata.pages.included} of ${metadata.pages.total}` }),
  };
  return {
    url: document.source,
    ...(metadata?.title && { title: metadata.title }),
    content: document.content,
    truncated: document.truncated,
    ...(metadata?.contentType && { contentType: metadata.contentType }),
    metadata: described,
  };
}

const DEADLINE: ToolDeadline<ConvertContentParams> = { family: "convert", budgetMs: (params, { convert }) => Math.min(params.timeoutMs ?? convert.timeoutMs, convert.timeoutMs) };

export const convertContentTool: Tool<typeof ConvertContentParamsSchema, ConvertContentSuccess> = {
  name: "convert_content",
  title: "Read a document",
  description:
    "Read documents as Markdown: PDFs (text in reading order, headings, tables, page breaks; `pages` like \"1-3,7\"), Word (DOCX: pictures, equations as LaTeX, `comments: true` for comments) and ODT, spreadsheets (XLSX, ODS: one table per sheet), presentations (PPTX: slides, pictures, charts, speaker notes; ODP), e-books (EPUB), RTF, e-mail (EML), notebooks (ipynb), ZIP archives of such files, and pages. Pass an http(s) `url`, or the `attachmentId` of a file uploaded to this session. Use it when fetch_content says a URL is a document.",
  params: ConvertContentParamsSchema,
  needs: { oneOf: ["url", "attachmentId"] },
  output: ConvertContentSuccessSchema,
  deadline: DEADLINE,
  async run(params, ctx) {
    const url = params.url?.trim();
    const attachmentId = params.attachmentId?.trim();
    if (Boolean(url) === Boolean(attachmentId)) {
      return fail("INVALID_INPUT", "Pass exactly one of `url` (an http(s) URL) and `attachmentId` (a file uploaded to this session).", ["url", "attachmentId"]);
    }
    const { convert, maxStoredContentChars, maxStoredResults } = ctx.config;
    const limits = convertLimitsFrom(ctx.config, params);
    const deadline = callDeadline(DEADLINE, params, ctx);
    const slots = callSlots(ctx.limiter, deadline, ctx.signal);
    const what = url ? "Converting the document" : `Converting attachment ${attachmentId}`;

    const robotsRecord = url ? await sharedRobots(ctx, url) : undefined;
    const slot = await slots.run(async () => {
      if (url) {
        const { robotsRead, ...answer } = await ctx.sidecar.convertUrl({ url, options: fetchOptionsFrom(ctx.config), limits, ...(robotsRecord && { robotsRecord }) }, deadline, ctx.signal);
        ctx.robotsCache.put(robotsRead ?? []);
        return answer;
      }
      const file = await ctx.attachment(attachmentId!);
      if (!file) return fail("FILE_NOT_FOUND", `No attachment "${attachmentId}" in this session; upload the file with POST /api/sessions/:id/attachments and pass the id it answers.`);
      if (file.bytes.length > limits.maxResponseBytes) {
        return fail("FILE_TOO_LARGE", `Attachment ${attachmentId} is ${file.bytes.length} bytes, over web.convert.maxResponseBytes (${limits.maxResponseBytes}); convert a smaller document.`);
      }
      const source = attachmentSource(attachmentId!);
      return ctx.sidecar.convertFile(file.bytes, { source, fileName: file.name, contentType: file.mimeType, limits }, deadline, ctx.signal);
    });
    if (!slot.ok) return slotFailure(slot.error, "convert", what, slots, ctx.config);
    const answer = slot.value;
    if (!answer.ok) return answer;
    // A downloaded document counts in the session's bytesFetched like any page.
    if (url) ctx.record.count("fetch.bytes", answer.bytes);
    const responseId = ctx.newResponseId();
    ctx.store.save(capContent({ kind: "fetch", responseId, results: [asStoredPage(answer.value)] }, maxStoredContentChars), maxStoredResults);
    return ok({ responseId, ...answer.value });
  },
};
