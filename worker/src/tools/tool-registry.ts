import type { ToolName } from "@edge-web/shared";
import { convertContentTool } from "./convert-content-tool.ts";
import { fetchContentTool } from "./fetch-content-tool.ts";
import { getSearchContentTool } from "./get-search-content-tool.ts";
import type { Tool } from "./tool.ts";
import { webSearchTool } from "./web-search-tool.ts";

/** The tools a session serves, by name. */
export const TOOLS: Record<ToolName, Tool> = {
  web_search: webSearchTool as Tool,
  fetch_content: fetchContentTool as Tool,
  get_search_content: getSearchContentTool as Tool,
  convert_content: convertContentTool as Tool,
};
