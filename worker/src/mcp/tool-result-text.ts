import type {
  ConvertContentSuccess,
  ExtractedContent,
  FetchContentSuccess,
  GetSearchContentSuccess,
  PageResult,
  QueryResultData,
  SearchResult,
  StoredResult,
  ToolName,
  WebSearchSuccess,
} from "@edge-web/shared";

/** When a fetched page's content was read from its origin, and whether the fetch cache answered it. */
const readAt = ({ fetchedAt, fromCache }: Partial<Pick<PageResult, "fetchedAt" | "fromCache">>) => (fetchedAt ? ` — read ${fetchedAt}${fromCache ? " (cached copy)" : ""}` : "");

/** A page's passages for a question (each with its heading and where it lies), and how to read past a maxChars cut. */
const fitted = ({ passages, note }: ExtractedContent): string[] => [
  ...(note ? ["", note] : []),
  ...(passages?.length === 0 ? ["", "No passage fits the question."] : []),
  ...(passages ?? []).flatMap((p, i) => ["", `### Passage ${i + 1}${p.heading ? ` — ${p.heading}` : ""} (characters ${p.offset}-${p.end}, score ${p.score})`, "", p.text]),
];

const page = (item: ExtractedContent & Partial<PageResult>) =>
  [`## ${item.title || item.url}`, `<${item.url}>${item.truncated ? " (truncated)" : ""}${readAt(item)}`, ...fitted(item), "", ...(item.passages ? ["### Content", ""] : []), item.content].join("\n");

/** How each provider held the filters, and which providers failed: a text-only client tells a filtered answer from an unfiltered one by it. */
const providerNotes = ({ applied, providerErrors }: QueryResultData) => [
  ...Object.entries(applied ?? {}).map(([provider, how]) => `Applied by ${provider}: ${Object.entries(how).map(([filter, way]) => `${filter} ${way}`).join(", ")}`),
  ...Object.entries(providerErrors ?? {}).map(([provider, error]) => `${provider} failed: ${error.code}: ${error.message}`),
];

const query = (data: QueryResultData) =>
  [
    `## Results for ${JSON.stringify(data.query)}`,
    ...providerNotes(data),
    ...(data.results.length === 0 ? ["(no results)"] : []),
    ...data.results.map((r, i) => searchResult(r, i + 1)),
  ].join("\n");

function searchResult(r: SearchResult, number: number): string {
  const found = r.sources ? ` (${r.sources.map((source) => `${source.provider} #${source.rank}`).join(", ")})` : "";
  const lines = [`${number}. [${r.title || r.url}](${r.url})${found}${r.snippet ? ` — ${r.snippet}` : ""}`];
  if (r.content) lines.push(...fitted(r.content).map((line) => line.replace(/^(?=.)/gm, "   ")), "", r.content.content.replace(/^/gm, "   "));
  return lines.join("\n");
}

const stored = (result: StoredResult) => (result.kind === "search" ? result.queries.map(query) : result.results.map(page));

/** What an answer says to a client that reads text only: its Markdown, with the responseId to come back with. */
export function toolResultText(tool: ToolName, value: unknown): string {
  let sections: string[];
  if (tool === "web_search") sections = (value as WebSearchSuccess).queries.map(query);
  else if (tool === "fetch_content") sections = (value as FetchContentSuccess).results.map(page);
  else if (tool === "convert_content") {
    const document = value as ConvertContentSuccess;
    sections = [page({ url: document.source, title: document.metadata?.title ?? document.metadata?.fileName ?? "", content: document.content, truncated: document.truncated })];
  }
  else sections = storedAnswer(value as GetSearchContentSuccess);
  return [`responseId: ${(value as { responseId: string }).responseId}`, ...sections].join("\n\n");
}

/** A stored item, a window of one (with where it is and where to read on), or found passages. */
function storedAnswer(answer: GetSearchContentSuccess): string[] {
  const more = answer.nextOffset === undefined ? [] : [`nextOffset: ${answer.nextOffset} (pass it as offset to go on)`];
  if (answer.passages) {
    const summary = `${answer.matchCount} match(es) for ${JSON.stringify(answer.find)}${answer.capped ? ` (stopped early: ${answer.capped})` : ""}`;
    return [summary, ...answer.passages.map((p) => `## <${p.url}> characters ${p.offset}-${p.end}\n\n${p.text}`), ...more];
  }
  const { result } = answer;
  if (!result) return more;
  const item = "kind" in result ? stored(result) : "query" in result ? [query(result)] : typeof result.content === "string" ? [page(result as ExtractedContent)] : [searchResult(result as SearchResult, 1)];
  const where = answer.totalChars === undefined ? [] : [`characters ${answer.offset}-${answer.end} of ${answer.totalChars}`];
  return [...item, ...where, ...more];
}
