import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { routes, send, startOrigin } from "../test-support/origin.ts";
import { startStack } from "../test-support/stack.ts";
import { percentiles, timeEach } from "./percentiles.ts";

const paragraph = "<p>Agents read pages like this one through the stack; the sidecar vets, fetches and extracts it. </p>";
const PAGE = `<!doctype html><html><head><title>Bench page</title></head><body><nav><a href="/">Home</a></nav><main><h1>Bench</h1>${paragraph.repeat(150)}</main></body></html>`;

/**
 * p50 of fetch_content through `npm start`'s stack (worker → session object → sidecar → origin →
 * Markdown) against the peer: a plain fetch of the same page straight from the origin.
 */
export async function benchFetchThroughStack(rounds = 200) {
  const origin = await startOrigin("127.0.0.2", routes({ "/page.html": send(200, "text/html; charset=utf-8", PAGE) }));
  const persist = mkdtempSync(join(tmpdir(), "edge-web-bench-"));
  const stack = await startStack({ WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"] }), PERSIST_DIR: persist });
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const { sessionId } = (await (await post("/api/sessions", { source: "bench" })).json()) as { sessionId: string };
    const viaStack = async () => {
      const res = await post(`/api/sessions/${sessionId}/tools/fetch_content`, { url: `${origin.url}/page.html` });
      if (res.status !== 200) throw new Error(`fetch_content answered ${res.status}`);
      await res.arrayBuffer();
    };
    const direct = async () => {
      await (await fetch(`${origin.url}/page.html`)).text();
    };
    await timeEach(20, viaStack);
    await timeEach(20, direct);
    const stackMs = percentiles(await timeEach(rounds, viaStack));
    const directMs = percentiles(await timeEach(rounds, direct));
    return {
      case: "fetch_content through the stack vs a direct fetch",
      pageBytes: PAGE.length,
      rounds,
      stack: stackMs,
      direct: directMs,
      ratioP50: +(stackMs.p50 / directMs.p50).toFixed(2),
    };
  } finally {
    await stack.stop();
    await origin.close();
    rmSync(persist, { recursive: true, force: true });
  }
}
