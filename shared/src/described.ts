import * as v from "valibot";

/** A schema with a description: it travels into every JSON Schema made from it (models, MCP, OpenAPI). */
export const described = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));
