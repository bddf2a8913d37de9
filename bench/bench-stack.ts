import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import type { FakeModelServer } from "../test-support/model-script.ts";
import { routes, send, startOrigin, type Origin } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { benchArticle } from "./bench-article.ts";

/** The 15 KB article the fetch cases read (about 14.5 KB of Markdown once extracted). */
export const BENCH_PAGE = benchArticle(15_000, "Bench page");

/** 20,000 characters of distinct paragraphs (plain text: no extraction folds them). */
export const BENCH_CHAPTER = Array.from({ length: 50 }, (_, p) => `Paragraph ${p}: finding ${p} of the survey, in the words of the page.`.padEnd(398, ".")).join("\n\n");

/** A small page a script builds (the render bench's): the served HTML is a shell whose script writes the article after a fetch-free tick. */
export const BENCH_APP_PAGE = `<!doctype html><html><head><title>Bench app</title></head><body><div id="root"></div><script>
setTimeout(() => { document.getElementById("root").innerHTML = "<article><h1>Bench app</h1>" + Array.from({ length: 20 }, (_, i) => "<p>Paragraph " + i + ": a script wrote this sentence, so only a browser sees it.</p>").join("") + "</article>"; }, 0);
</script></body></html>`;

export const BENCH_MODEL_KEY = "sk-bench-model-key-0123456789";

/** The search provider's answer time the cache case measures against. */
export const PROVIDER_DELAY_MS = 50;

/** The answer time of /slow-page.html, the origin the fetch cache case measures against (as the provider's). */
export const PAGE_DELAY_MS = 50;

const ddgLite = (q: string) => `<!DOCTYPE html><html><body><table>
<tr><td>1.</td><td><a rel="nofollow" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(`https://example.test/${encodeURIComponent(q)}`)}&amp;rut=1" class='result-link'>Result for ${q}</a></td></tr>
<tr><td></td><td class='result-snippet'>A snippet.</td></tr></table></body></html>`;

/** An API to call: `npm start`'s stack, or the same worker served by workerd directly. */
export interface ApiTarget {
  url: string;
  post(path: string, body: unknown): Promise<Response>;
  newSession(): Promise<string>;
}

export function apiTarget(url: string): ApiTarget {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return {
    url,
    post,
    async newSession() {
      return ((await (await post("/api/sessions", { source: "bench" })).json()) as { sessionId: string }).sessionId;
    },
  };
}

export interface BenchStack extends ApiTarget {
  stack: Stack;
  origin: Origin;
  /** WEB_CONFIG of the stack (page origin allowed, DuckDuckGo Lite pointed at the slow fake). */
  webConfig: object;
  /** A fake OpenAI-compatible model answering at once, and the AGENT_CONFIG that makes it the default. */
  model: FakeModelServer;
  agentConfig: object;
  close(): Promise<void>;
}

/**
 * One `npm start` stack for every case: a page origin on 127.0.0.2 (allowed) and a DuckDuckGo Lite
 * fake on 127.0.0.3 that answers after PROVIDER_DELAY_MS.
 */
export async function startBenchStack(): Promise<BenchStack> {
  const origin = await startOrigin("127.0.0.2", routes({ "/page.html": send(200, "text/html; charset=utf-8", BENCH_PAGE), "/slow-page.html": async (req, res, body) => {
    await sleep(PAGE_DELAY_MS);
    send(200, "text/html; charset=utf-8", BENCH_PAGE)(req, res, body);
  }, "/app.html": send(200, "text/html; charset=utf-8", BENCH_APP_PAGE), "/chapter.txt": send(200, "text/plain; charset=utf-8", BENCH_CHAPTER) }));
  const provider = await startOrigin(
    "127.0.0.3",
    routes({
      "/lite/": async (req, res) => {
        await sleep(PROVIDER_DELAY_MS);
        const q = new URL(req.url ?? "/", "http://p").searchParams.get("q") ?? "";
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ddgLite(q));
      },
    }),
  );
  const persist = mkdtempSync(join(tmpdir(), "edge-web-bench-"));
  // The cases measure the path to the origin: the fetch cache case turns the cache on for itself.
  const webConfig = { allowHosts: ["127.0.0.2"], ddgs: { baseUrl: `${provider.url}/lite/` }, fetchCache: { enabled: false } };
  const model = await startFakeOpenAI({ apiKey: BENCH_MODEL_KEY, models: ["bench-model"] });
  const agentConfig = { modelProviders: { bench: { api: "openai-compatible", baseURL: model.baseURL, apiKey: BENCH_MODEL_KEY, models: [{ id: "bench-model" }] } } };
  const stack = await startStack({ ...(process.env.INSPECTOR_PORT && { INSPECTOR_PORT: process.env.INSPECTOR_PORT }), WEB_CONFIG: JSON.stringify(webConfig), AGENT_CONFIG: JSON.stringify(agentConfig), PERSIST_DIR: persist });
  return {
    ...apiTarget(stack.url),
    stack,
    origin,
    webConfig,
    model,
    agentConfig,
    async close() {
      await stack.stop();
      await model.close();
      await origin.close();
      await provider.close();
      rmSync(persist, { recursive: true, force: true });
    },
  };
}
