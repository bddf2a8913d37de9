import { fail, isWebErrorCode } from "@edge-web/shared";
import type { Tool, ToolAnswer, ToolContext } from "./tool.ts";

/**
 * Runs a tool and counts it (calls, results, errors by code), whoever asked: a direct call or an
 * agent turn. A tool that throws answers INTERNAL_ERROR; what it threw is logged, never answered.
 */
export async function executeTool(tool: Tool, params: unknown, ctx: ToolContext): Promise<ToolAnswer<unknown>> {
  ctx.record.count("toolCalls");
  ctx.record.count(`tool.${tool.name}`);
  let answer: ToolAnswer<unknown>;
  try {
    answer = await tool.run(params, ctx);
  } catch (error) {
    console.error(`${tool.name} threw`, error instanceof Error ? error.message : String(error));
    answer = fail("INTERNAL_ERROR", `${tool.name} failed unexpectedly; try again.`);
  }
  ctx.record.count("toolResults");
  if (!answer.ok) ctx.record.count(`errors.${isWebErrorCode(answer.error.code) ? answer.error.code : "INTERNAL_ERROR"}`);
  return answer;
}
