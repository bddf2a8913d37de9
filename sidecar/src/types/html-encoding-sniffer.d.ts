// html-encoding-sniffer ships no types: its one function, as decode-text.ts calls it.
declare module "html-encoding-sniffer" {
  /**
   * The WHATWG encoding sniffing algorithm: a byte order mark, else the transport-layer label, else (HTML)
   * the prescan of the first maxPrescanBytes (1024) for <meta> or (XML) the XML declaration, else
   * defaultEncoding. Answers the encoding's WHATWG name ("UTF-8", "Shift_JIS" …).
   */
  export default function sniffHTMLEncoding(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string; maxPrescanBytes?: number },
  ): string;
}
