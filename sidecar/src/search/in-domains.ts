/** A domain covers itself and its subdomains; `include` empty means any domain. Domains are lower case. */
export function inDomains(url: string, include: readonly string[], exclude: readonly string[]): boolean {
  const host = URL.parse(url)?.hostname.toLowerCase().replace(/\.$/, "");
  if (!host) return false;
  const covers = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  return (include.length === 0 || include.some(covers)) && !exclude.some(covers);
}
