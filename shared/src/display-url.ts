/** A URL safe to show in messages, logs and streams: no user name or password. Unparseable text comes back as it is. */
export function displayUrl(url: string | URL): string {
  const parsed = typeof url === "string" ? URL.parse(url.trim()) : url;
  if (!parsed) return String(url);
  if (!parsed.username && !parsed.password) return parsed.href;
  const shown = new URL(parsed.href);
  shown.username = "";
  shown.password = "";
  return shown.href;
}
