import { API_ROUTES } from "./api-route-table.ts";

/** A table path against a request path: `:param` segments match any one segment. */
export function matchesPattern(pattern: string, path: string): boolean {
  const a = pattern.split("/");
  const b = path.split("/");
  return a.length === b.length && a.every((segment, i) => segment === b[i] || (segment.startsWith(":") && b[i] !== ""));
}

/** The methods the route table serves at `path` (HEAD with GET, as Hono answers it); none for a path it does not know. */
export function allowedMethods(path: string): string[] {
  const methods = new Set(API_ROUTES.filter((route) => matchesPattern(route.path, path)).map((route) => route.method.toUpperCase()));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
