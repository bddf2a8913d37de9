declare module "vitest" {
  export interface ProvidedContext {
    originUrl: string;
    /** A second sidecar (same token, same DNS) keeping robots.txt records in its own memory; the bindings' sidecar keeps none. */
    secondSidecarUrl: string;
    /** A loopback server on 127.0.0.9 that records what it receives: GET /__received, GET /__reset. */
    attackerUrl: string;
    /** Steers the fake search providers: /behave?provider=&behavior=, /reset, and request counts. */
    controlUrl: string;
    providerUrls: Record<string, string>;
    providerKeys: Record<string, string>;
    /** A DuckDuckGo Lite fake answering two of the labelled passage pages (test-support/passage-pages.ts). */
    passageSearchUrl: string;
    /** A DuckDuckGo Lite fake whose results point at the loopback origin as http://pages.test:PORT/. */
    localSearchUrl: string;
    /** The same fake answering one result: a long text page (/long.txt), then one that fails. */
    localLongSearchUrl: string;
    /** The same fake answering the article, then a page behind a bot check (/challenge/0). */
    blockedSearchUrl: string;
    /** The same fake answering one result per query: the origin's /cache/changing page keyed by the query. */
    cacheSearchUrl: string;
    /** Fake model servers speaking the OpenAI Chat Completions and Anthropic Messages streaming formats. */
    fakeModels: Record<"openai" | "anthropic", { baseURL: string; url: string; apiKey: string }>;
    /** The same, for the compaction tests alone (they give them a small context window). */
    smallModels: Record<"openai" | "anthropic", { baseURL: string; url: string; apiKey: string }>;
  }
}
export {};
