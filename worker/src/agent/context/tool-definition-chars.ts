import { TOOL_INPUT_SCHEMAS } from "../../tools/tool-input-schemas.ts";
import { TOOLS } from "../../tools/tool-registry.ts";

/** The tools' definitions as a model request carries them, in characters (part of every call's size). */
export const TOOL_DEFINITION_CHARS = Object.values(TOOLS).reduce(
  (n, web) => n + web.name.length + web.description.length + JSON.stringify(TOOL_INPUT_SCHEMAS.get(web.name)).length,
  0,
);
