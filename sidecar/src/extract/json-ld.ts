/** Reading schema.org JSON-LD (embedded in pages or served as JSON) as an article summary. */

export interface JsonLdSummary {
  title?: string;
  description?: string;
  authors: string[];
  datePublished?: string;
  body?: string;
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** JSON-LD: an object with a schema.org @context, a @graph or a @type (or an array holding one). */
export function isJsonLd(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isJsonLd);
  if (!isObject(value)) return false;
  if ("@graph" in value || "@type" in value) return true;
  return "@context" in value && JSON.stringify(value["@context"]).includes("schema.org");
}

/** The nodes a document describes: array items and @graph members, one level deep. */
export function jsonLdNodes(value: unknown): JsonObject[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => {
    if (!isObject(item)) return [];
    const graph = item["@graph"];
    return Array.isArray(graph) ? [item, ...graph.filter(isObject)] : [item];
  });
}

/** Whether any node a document describes has the schema.org type (alone or among its types). */
export function declaresType(value: unknown, type: string): boolean {
  return jsonLdNodes(value).some((node) => {
    const declared = node["@type"];
    return declared === type || (Array.isArray(declared) && declared.includes(type));
  });
}

function score(node: JsonObject): number {
  if (text(node.headline)) return 3;
  if (text(node.articleBody) ?? text(node.text)) return 2;
  return text(node.name) ? 1 : 0;
}

/** Author names; a {"@id": …} reference is looked up among the document's nodes (Yoast-style graphs). */
function authorNames(value: unknown, byId: ReadonlyMap<string, JsonObject>): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => {
    const node = isObject(item) && typeof item["@id"] === "string" ? (byId.get(item["@id"]) ?? item) : item;
    const name = isObject(node) ? text(node.name) : text(node);
    return name ? [name] : [];
  });
}

/** The summary of the most article-like node (headline, then body, then name), or undefined when none has anything to say. */
export function summarizeJsonLd(value: unknown): JsonLdSummary | undefined {
  const nodes = jsonLdNodes(value);
  const byId = new Map<string, JsonObject>();
  let best: JsonObject | undefined;
  for (const node of nodes) {
    if (typeof node["@id"] === "string") byId.set(node["@id"], node);
    if (!best || score(node) > score(best)) best = node;
  }
  if (!best) return undefined;
  const summary: JsonLdSummary = { authors: authorNames(best.author, byId) };
  const title = text(best.headline) ?? text(best.name);
  const description = text(best.description);
  const datePublished = text(best.datePublished);
  const body = text(best.articleBody) ?? text(best.text);
  if (title) summary.title = title;
  if (description) summary.description = description;
  if (datePublished) summary.datePublished = datePublished;
  if (body) summary.body = body;
  const empty = !title && !description && !datePublished && !body && summary.authors.length === 0;
  return empty ? undefined : summary;
}
