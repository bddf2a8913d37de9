import type { ConvertContentSuccess, ExtractedContent, FetchContentSuccess, GetSearchContentSuccess, QueryResultData, StoredResult, ToolName, WebSearchSuccess } from "@edge-web/shared";

const page = (item: ExtractedContent) =>
  [`## ${item.title || item.url}`, `<${item.url}>${item.truncated ? " (truncated)" : ""}`, "", item.content].join("\n");

const query = (data: QueryResultData) =>
  [
    `## Results for ${JSON.stringify(data.query)}`,
    ...(data.results.length === 0 ? ["(no results)"] : []),
    ...data.results.map((r, i) => {
      const lines = [`${i + 1}. [${r.title || r.url}](${r.url})${r.snippet ? ` — ${r.snippet}` : ""}`];
      if (r.content) lines.push("", r.content.content.replace(/^/gm, "   "));
      return lines.join("\n");
    }),
  ].join("\n");

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
  else {
    const { result } = value as GetSearchContentSuccess;
    sections = "kind" in result ? stored(result) : "query" in result ? [query(result)] : [page(result)];
  }
  return [`responseId: ${(value as { responseId: string }).responseId}`, ...sections].join("\n\n");
}
