import type { BenchStack } from "./bench-stack.ts";
import { throughApi } from "./turn-overhead.ts";

/** A trace line the worker writes per tool call at web.debug "trace": milliseconds since the request arrived at each boundary, and each step's. */
interface TraceLine {
  event: string;
  tool: string;
  phases?: Record<string, number>;
  steps?: Record<string, number>;
}

/** The trace lines (`event`) logged since output line `from`. */
function traced(bench: BenchStack, from: number, event: string): TraceLine[] {
  return bench.stack.output
    .slice(from)
    .join("")
    .split("\n")
    .filter((line) => line.startsWith(`{"event":"${event}"`) && line.includes('"phases"'))
    .map((line) => JSON.parse(line) as TraceLine);
}

const p50 = (values: number[]) => +([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN).toFixed(2);

/** Per boundary, the p50 of the milliseconds since the previous one (the phase it ends), and the p50 of each step. */
function breakdown(lines: TraceLine[]) {
  const order = Object.keys(lines[0]?.phases ?? {});
  const phases = Object.fromEntries(
    order.map((phase, i) => [phase, p50(lines.map((line) => line.phases![phase]! - (i === 0 ? 0 : line.phases![order[i - 1]!]!)))]),
  );
  const stepNames = [...new Set(lines.flatMap((line) => Object.keys(line.steps ?? {})))];
  const steps = Object.fromEntries(stepNames.map((name) => [name, p50(lines.map((line) => line.steps?.[name] ?? 0))]));
  return { calls: lines.length, phaseMsP50: phases, stepMsP50: steps, totalMsP50: p50(lines.map((line) => line.phases!.returned ?? NaN)) };
}

/**
 * Where a call's time goes: web.debug set to "trace" through the config API for the run, a number
 * of fetch_content calls of the bench page and of cached web_search calls, and from the lines the
 * worker logged, the p50 of each phase — request received → opened (auth, session, body) →
 * settings → entered (the session object) → ran (tool, sidecar round trip, result stored, frames
 * fanned out) → flushed (writes committed) → returned (answer back in the worker) — and of each
 * step (session queue, cache, sidecar round trip and the sidecar's own: queue, vet, connect,
 * read, extract); and for a two-step agent turn, when each step started, called its tool, had
 * the tool's output, streamed its first text and ended, since the turn started. The workerd clock advances only across I/O, so a phase that is pure computation
 * reads 0 here; its CPU is what the other cases read from /proc.
 */
export async function benchCallTrace(bench: BenchStack, calls = 100) {
  const setDebug = async (debug: false | "trace") => {
    const res = await fetch(`${bench.url}/api/config/settings`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ values: { debug } }) });
    if (res.status !== 200) throw new Error(`setting web.debug answered ${res.status}: ${await res.text()}`);
  };
  const sessionId = await bench.newSession();
  const run = async (tool: string, params: object) => {
    const from = bench.stack.output.length;
    for (let i = 0; i < calls; i++) {
      const res = await bench.post(`/api/sessions/${sessionId}/tools/${tool}`, params);
      if (res.status !== 200) throw new Error(`${tool} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
    // Log lines arrive on the stack's output a moment after the answers.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return breakdown(traced(bench, from, "tool_call").filter((line) => line.tool === tool));
  };
  // A two-step turn (a tool call, then an answer) against the fake model, which answers at once.
  const turns = async (count: number) => {
    const from = bench.stack.output.length;
    for (let i = 0; i < count; i++) await throughApi(bench);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = traced(bench, from, "turn");
    const names = [...new Set(lines.flatMap((line) => Object.keys(line.phases ?? {})))];
    return { turns: lines.length, msSinceTurnStartP50: Object.fromEntries(names.map((name) => [name, p50(lines.map((line) => line.phases?.[name] ?? NaN))])) };
  };
  await setDebug("trace");
  try {
    await bench.post(`/api/sessions/${sessionId}/tools/web_search`, { query: "traced" });
    return {
      case: "where a tool call's time goes (web.debug trace, p50 per phase and step)",
      fetchContent: await run("fetch_content", { url: `${bench.origin.url}/page.html` }),
      cachedWebSearch: await run("web_search", { query: "traced" }),
      twoStepTurn: await turns(Math.ceil(calls / 4)),
    };
  } finally {
    await setDebug(false);
  }
}
