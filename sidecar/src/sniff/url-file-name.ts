/** The last segment of a URL's path, percent-decoded; undefined when the URL or its escapes are malformed. */
export function urlFileName(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  } catch {
    return undefined;
  }
}
