import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";

/**
 * A JSON Schema the SDK advertises but does not enforce: arguments are checked by the tool's own
 * valibot schema, so a bad call answers `isError` with INVALID_INPUT and the fields, as over HTTP.
 */
export function advertised(json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    "~standard": {
      version: 1,
      vendor: "edge-web",
      validate: (value) => ({ value }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}
