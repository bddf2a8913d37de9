import { toJsonSchema } from "@valibot/to-json-schema";
import { TOOLS } from "./tool-registry.ts";

/** Each tool's input as JSON Schema (for `GET /commands` and for models), derived once from its valibot schema. */
export const TOOL_INPUT_SCHEMAS = new Map(Object.values(TOOLS).map((tool) => [tool.name, toJsonSchema(tool.params, { errorMode: "ignore" })]));
