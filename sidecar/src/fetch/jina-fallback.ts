import { fail, failWith, ok, type FetchOptions, type Result } from "@edge-web/shared";
import type { HandlerOutput } from "../extract/content-handler.ts";
import { scriptBuiltSignals } from "./script-built-signals.ts";
import type { DispatcherSource, HostResolver, NetworkPolicy, ReaderKey } from "./egress-types.ts";
import { safeFetch } from "./safe-fetch.ts";

/** Whether an HTML extraction should be replaced by the reader service's rendering. */
export function wantsReader(extracted: HandlerOutput, options: FetchOptions, preferReader: boolean): boolean {
  if (!options.enableJinaFallback) return false;
  if (preferReader) return true;
  const found = scriptBuiltSignals(extracted);
  return options.jinaTriggers.some((trigger) => found.has(trigger));
}

/** The reader's rendering, or undefined when it answered non-2xx or nothing (the original extraction stands). */
export async function readViaReader(
  pageUrl: string,
  options: FetchOptions,
  policy: NetworkPolicy,
  deps: { resolver: HostResolver; dispatchers: DispatcherSource; userAgent: string; reader?: ReaderKey },
  signal?: AbortSignal,
): Promise<Result<{ title?: string; content: string } | undefined>> {
  const url = readerUrl(options.jinaBaseUrl, pageUrl);
  // The key was set for the sidecar's reader origin: a base URL from a request never receives it.
  const key = deps.reader && URL.parse(url)?.origin === deps.reader.origin ? deps.reader.apiKey : undefined;
  const answer = await safeFetch(
    {
      url,
      headers: {
        accept: "text/plain",
        "x-return-format": "markdown",
        ...(key && { authorization: `Bearer ${key}` }),
      },
      policy,
      timeoutMs: options.jinaTimeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      ...(signal && { signal }),
    },
    { resolver: deps.resolver, dispatchers: deps.dispatchers, userAgent: deps.userAgent },
  );
  if (!answer.ok) {
    return answer.error.code === "timeout" || answer.error.code === "aborted"
      ? fail("CONTENT_FETCH_TIMEOUT", `The reader service did not answer within ${options.jinaTimeoutMs} ms (web.jinaTimeoutMs); retry, or fetch without preferReader.`)
      : failWith("CONTENT_FETCH_FAILED", `The reader service could not be reached: ${answer.error.message}`, { fault: answer.error.code === "blocked" ? "policy" : "upstream" });
  }
  const { status, bytes } = answer.value;
  if (status < 200 || status > 299) return ok(undefined);
  const parsed = parseReaderAnswer(new TextDecoder().decode(bytes));
  return parsed.content === "" ? ok(undefined) : ok(parsed);
}

/** The reader URL for a page: the base URL with the page's URL appended. */
export function readerUrl(baseUrl: string, pageUrl: string): string {
  return `${baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`}${pageUrl}`;
}

/** Reader answers may begin with "Title:" / "URL Source:" lines before "Markdown Content:". */
export function parseReaderAnswer(body: string): { title?: string; content: string } {
  const text = body.replace(/\r\n?/g, "\n");
  const marker = text.indexOf("Markdown Content:");
  if (!/^Title:/.test(text) || marker < 0) return { content: text.trim() };
  const title = /^Title:[ \t]*(.*)$/m.exec(text.slice(0, marker))?.[1]?.trim();
  const content = text.slice(marker + "Markdown Content:".length).trim();
  return title ? { title, content } : { content };
}
