/** What an answer shows of itself: enough to tell a bot check or block page from the page asked for. */
export interface PageAnswer {
  /** The status the origin answered (a rendered page: its document's). */
  status: number;
  /** Response headers, names lower-case (none for a rendered page or the reader's answer). */
  headers: Readonly<Record<string, string>>;
  /** The body as text: the markup of an HTML page, else what was read. */
  body: string;
  title?: string;
  /** The readable text extracted from it. */
  text: string;
  /** Characters the page shows a reader (an HTML body's text), the measure of a short page. */
  shownChars: number;
}

/** One way a bot check or block page gives itself away; the reason names what was seen. */
export interface BlockSign {
  name: string;
  recognise(answer: PageAnswer): string | undefined;
}
