/**
 * The text without the run of one character that ends it: a host name's final dots ("example.com." names the same
 * host as "example.com"), a URL path's final slashes. Cut by hand: a pattern for the run at the end (`/\.+$/`,
 * `/\/+$/`) reads each run from every character in it, and a host name of 100,000 dots, which the URL parser keeps
 * whole, took 8 s; a path of slashes in a provider's result URL does the same.
 */
export function withoutTrailing(text: string, char: string): string {
  const code = char.charCodeAt(0);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === code) end--;
  return text.slice(0, end);
}
