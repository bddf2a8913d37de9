import * as v from "valibot";

export type FormFieldKind = "string" | "secret" | "number" | "boolean" | "enum" | "stringList" | "object" | "record" | "objectList";
export type FormOption = string | number | boolean;

/** One field of a settings form, as a UI renders it. */
export interface FormField {
  kind: FormFieldKind;
  label?: string;
  description?: string;
  default?: unknown;
  /** The allowed values: for `enum`, and for a `stringList` whose items are an enum. */
  options?: FormOption[];
  /** The nested fields of an `object`, of each value of a `record` (keyed by name), of each item of an `objectList`. */
  fields?: FormSchema;
}
export type FormSchema = Record<string, FormField>;

type AnySchema = v.GenericSchema & Record<string, unknown>;

const WRAPPERS = new Set(["optional", "exact_optional", "nullable", "nullish", "undefinedable"]);

/** The schema inside optional/nullable wrappers. */
export function unwrap(schema: v.GenericSchema): AnySchema {
  let inner = schema as AnySchema;
  while (WRAPPERS.has(inner.type)) inner = inner.wrapped as AnySchema;
  return inner;
}

/** The schema of a record's values (through wrappers), or undefined for anything else. */
export function recordValue(schema: v.GenericSchema): v.GenericSchema | undefined {
  const inner = unwrap(schema);
  return inner.type === "record" ? (inner.value as v.GenericSchema) : undefined;
}

/** The entries of an object schema (through wrappers), or undefined for anything else. */
export function objectEntries(schema: v.GenericSchema): Record<string, v.GenericSchema> | undefined {
  const inner = unwrap(schema);
  return inner.type === "object" || inner.type === "strict_object" || inner.type === "loose_object"
    ? (inner.entries as Record<string, v.GenericSchema>)
    : undefined;
}

const ACRONYMS: Record<string, string> = { url: "URL", ttl: "TTL", api: "API", ddgs: "DDGS" };

/** A label from a key, for fields without a title: "maxResults" → "Max results", "ttlMs" → "TTL (ms)". */
function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ")
    .map((word) => ACRONYMS[word] ?? word);
  if (words.length > 1 && words.at(-1) === "ms") words.splice(-1, 1, "(ms)");
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Options of an enum-like schema (picklist, literal, or a union of those), else undefined. */
function enumOptions(schema: AnySchema): FormOption[] | undefined {
  if (schema.type === "picklist") return [...(schema.options as FormOption[])];
  if (schema.type === "literal") return [schema.literal as FormOption];
  if (schema.type === "union") {
    const options: FormOption[] = [];
    for (const member of schema.options as v.GenericSchema[]) {
      const inner = enumOptions(unwrap(member));
      if (!inner) return undefined;
      options.push(...inner);
    }
    return options;
  }
  return undefined;
}

function describeField(key: string, schema: v.GenericSchema): FormField {
  const inner = unwrap(schema);
  const label = v.getTitle(inner) ?? v.getTitle(schema) ?? humanize(key);
  const description = v.getDescription(inner) ?? v.getDescription(schema);
  const metadata = v.getMetadata(inner) as Record<string, unknown>;
  const base = { label, ...(description !== undefined && { description }) };
  const fallback: unknown = schema === inner ? undefined : v.getDefault(schema);
  const withDefault = (field: FormField): FormField => (fallback === undefined ? field : { ...field, default: fallback });

  const entries = objectEntries(inner);
  if (entries) return { kind: "object", ...base, fields: formSchemaOf(inner) };
  const value = recordValue(inner);
  if (value) return { kind: "record", ...base, fields: formSchemaOf(value) };
  const options = enumOptions(inner);
  if (options) return withDefault({ kind: "enum", ...base, options });
  switch (inner.type) {
    case "string":
      return withDefault({ kind: metadata.secret === true ? "secret" : "string", ...base });
    case "union": {
      // A union with a string member (e.g. "" or a URL) is edited as a string.
      const members = (inner.options as v.GenericSchema[]).map((m) => unwrap(m).type);
      if (members.includes("string")) return withDefault({ kind: "string", ...base });
      break;
    }
    case "number":
      return withDefault({ kind: "number", ...base });
    case "boolean":
      return withDefault({ kind: "boolean", ...base });
    case "array": {
      const item = unwrap(inner.item as v.GenericSchema);
      const itemOptions = enumOptions(item);
      if (item.type === "string" || itemOptions) return withDefault({ kind: "stringList", ...base, ...(itemOptions && { options: itemOptions }) });
      if (objectEntries(item)) return withDefault({ kind: "objectList", ...base, fields: formSchemaOf(item) });
      break;
    }
  }
  throw new Error(`formSchemaOf: no form field kind for "${key}" (${inner.type})`);
}

/** Describes an object schema's fields for a settings UI: kinds, labels, defaults and options come from the schema itself. */
export function formSchemaOf(schema: v.GenericSchema): FormSchema {
  const entries = objectEntries(schema);
  if (!entries) throw new Error("formSchemaOf needs an object schema");
  return Object.fromEntries(Object.entries(entries).map(([key, entry]) => [key, describeField(key, entry)]));
}

/** Dot paths of the secret fields, `*` standing for a record's keys, e.g. ["brave.apiKey", "modelProviders.*.apiKey"]. */
export function secretPaths(form: FormSchema, prefix = ""): string[] {
  return Object.entries(form).flatMap(([key, field]) => {
    if (field.kind === "secret") return [`${prefix}${key}`];
    if (field.kind === "record" && field.fields) return secretPaths(field.fields, `${prefix}${key}.*.`);
    return field.kind === "object" && field.fields ? secretPaths(field.fields, `${prefix}${key}.`) : [];
  });
}
