import { localName } from "./local-name.ts";

/** A namespaced attribute (r:id, table:name) whatever its prefix; plain attributes are read from attribs directly. */
export function prefixedAttribute(attributes: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(attributes)) {
    if (key.includes(":") && localName(key) === name) return value;
  }
  return undefined;
}
