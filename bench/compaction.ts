import type { ScriptedReply } from "../test-support/model-script.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import type { BenchStack } from "./bench-stack.ts";
import { percentiles } from "./percentiles.ts";

/** The window the case gives the bench model (settings.agent.compaction.defaultContextWindow: it lists no window of its own). */
// Big enough that compaction comes every few turns, as in a real session, not at every call.
const WINDOW = 64_000;

/** One turn: three fetches of 20,000-character pages, one per model call, then the answer. */
function turnScript(pageUrl: string, turn: number): ScriptedReply[] {
  const fetches = [1, 2, 3].map((n): ScriptedReply => ({ toolCalls: [{ name: "fetch_content", arguments: { url: `${pageUrl}?turn=${turn}&page=${n}` } }] }));
  return [...fetches, { text: [`Turn ${turn}: read three pages.`] }];
}

async function putSettings(bench: BenchStack, values: object): Promise<void> {
  const res = await fetch(`${bench.url}/api/config/settings`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ values }) });
  if (res.status !== 200) throw new Error(`PUT /api/config/settings answered ${res.status}: ${await res.text()}`);
}

/** A session of `turns` turns; what the model was sent and how long each turn took from POST to finish. */
async function session(bench: BenchStack, turns: number) {
  const script = bench.model.script;
  script.reset();
  // A window no request reaches: the fake reports each request's measured size as its usage, as a provider would.
  script.contextWindow = 1_000_000_000;
  const sessionId = await bench.newSession();
  const stream = sseReader((await fetch(`${bench.url}/api/sessions/${sessionId}/stream`)).body!);
  const turnMs: number[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    script.script(...turnScript(`${bench.origin.url}/chapter.txt`, turn));
    const started = performance.now();
    const res = await bench.post(`/api/sessions/${sessionId}/messages`, { message: `Turn ${turn}: read the pages.` });
    if (res.status !== 200) throw new Error(`POST /messages answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    for (;;) {
      const frame = await stream.next();
      if (!frame) throw new Error("the stream ended before the turn did");
      if (frame.data?.chunk?.type === "error") throw new Error(`turn ${turn} failed: ${frame.data.chunk.errorText}`);
      if (frame.data?.chunk?.type === "finish") break;
    }
    turnMs.push(performance.now() - started);
  }
  await stream.cancel();
  const stats = (await (await fetch(`${bench.url}/api/sessions/${sessionId}/stats`)).json()) as { stats: { compactions: { count: number } } };
  const calls = script.requests.filter((r) => r.path === "/v1/chat/completions" && !r.summary).map((r) => r.tokens);
  const sorted = [...calls].sort((a, b) => a - b);
  script.contextWindow = undefined;
  return {
    modelCalls: calls.length,
    requestTokens: { max: sorted.at(-1) ?? 0, p50: sorted[Math.floor(sorted.length / 2)] ?? 0 },
    overWindow: calls.filter((t) => t > WINDOW).length,
    compactions: stats.stats.compactions.count,
    modelCallsPerCompaction: stats.stats.compactions.count ? +(calls.length / stats.stats.compactions.count).toFixed(1) : null,
    summaryCalls: script.requests.filter((r) => r.summary).length,
    turnMs: percentiles(turnMs),
  };
}

/**
 * A long session with a window it fills many times over: `turns` turns of three page fetches each against the fake
 * model answering at once, with automatic compaction on, then off (the peer). Request sizes are the
 * fake's measure (a token per 4 characters of the request body, the worker's own estimate).
 */
export async function benchCompaction(bench: BenchStack, turns = 50) {
  try {
    await putSettings(bench, { agent: { compaction: { enabled: true, defaultContextWindow: WINDOW } } });
    const on = await session(bench, turns);
    await putSettings(bench, { agent: { compaction: { enabled: false, defaultContextWindow: WINDOW } } });
    const off = await session(bench, turns);
    const ratio = (a: number, b: number) => +(a / b).toFixed(2);
    return {
      case: `compaction: ${turns} turns × 3 page fetches, window ${WINDOW} tokens, compaction on vs off`,
      on,
      off,
      ratios: { maxRequestOnToOff: ratio(on.requestTokens.max, off.requestTokens.max), turnMsP50OnToOff: ratio(on.turnMs.p50, off.turnMs.p50) },
    };
  } finally {
    await putSettings(bench, { agent: null });
  }
}
