/**
 * A host name without the dots that end it ("example.com." names the same host as "example.com"). Cut by hand: the
 * URL parser keeps a name of many dots whole, and a pattern for the dots at the end reads each run from every dot in
 * it (100,000 dots took 8 s).
 */
export function withoutTrailingDots(name: string): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 0x2e) end--;
  return name.slice(0, end);
}
