import type { ScriptedReply } from "../test-support/model-script.ts";
import { sseReader } from "../test-support/sse-reader.ts";
import { BENCH_MODEL_KEY, type BenchStack } from "./bench-stack.ts";
import { percentiles } from "./percentiles.ts";
import { stackCpu } from "./stack-cpu.ts";

/** A two-step turn: the model calls a tool, then answers. */
const TURN: ScriptedReply[] = [
  { toolCalls: [{ name: "get_search_content", arguments: { responseId: "none" } }], usage: { input: 50, output: 10 } },
  { text: ["The", " answer", "."], usage: { input: 80, output: 5 } },
];

/** Milliseconds (from `start`) at which a turn's first text-delta and its finish arrived on the stream. */
async function turnTimes(stream: ReturnType<typeof sseReader>, start: number): Promise<{ firstDelta: number; finish: number }> {
  let firstDelta = Number.NaN;
  for (;;) {
    const frame = await stream.next();
    if (!frame) throw new Error("the stream ended before the turn did");
    const type = frame.data?.chunk?.type;
    if (Number.isNaN(firstDelta) && type === "text-delta") firstDelta = performance.now() - start;
    if (type === "finish") return { firstDelta, finish: performance.now() - start };
  }
}

/** The fake model's own time for the turn's two calls, asked directly, one after the other. */
async function modelAlone(bench: BenchStack): Promise<number> {
  bench.model.script.script(...TURN);
  const started = performance.now();
  for (let i = 0; i < TURN.length; i++) {
    const res = await fetch(`${bench.model.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${BENCH_MODEL_KEY}` },
      body: JSON.stringify({ model: "bench-model", stream: true, messages: [{ role: "user", content: "q" }] }),
    });
    await res.arrayBuffer();
  }
  return performance.now() - started;
}

/** A new session, followed on its stream. */
async function followedSession(bench: BenchStack) {
  const sessionId = await bench.newSession();
  return { sessionId, stream: sseReader((await fetch(`${bench.url}/api/sessions/${sessionId}/stream`)).body!) };
}

/** One two-step turn in a new session (made beforehand when given), followed on its stream: when its first text-delta and its finish arrived. */
export async function throughApi(bench: BenchStack, session?: Awaited<ReturnType<typeof followedSession>>) {
  const { sessionId, stream } = session ?? (await followedSession(bench));
  bench.model.script.script(...TURN);
  const started = performance.now();
  const res = await bench.post(`/api/sessions/${sessionId}/messages`, { message: "a question" });
  if (res.status !== 200) throw new Error(`POST /messages answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  const times = await turnTimes(stream, started);
  await stream.cancel();
  return times;
}

/**
 * Agent turn overhead: from POST /messages to the first text-delta and to finish on the stream,
 * for a two-step turn (a tool call, then an answer) against a fake model answering at once, through
 * `npm start`; the peer is the same two model calls made directly, taking turns with it. The added
 * milliseconds are what the worker, the session object and the turn loop cost; the worker's CPU
 * per turn is read from /proc. Each turn runs in a session of its own, made (and followed) before
 * the turns, whose CPU is reported apart: making a session is not part of a turn.
 */
export async function benchTurnOverhead(bench: BenchStack, rounds = 60) {
  const samples = { model: [] as number[], delta: [] as number[], finish: [] as number[] };
  const creating = stackCpu(bench.stack);
  const sessions = [];
  for (let i = 0; i < rounds + 5; i++) sessions.push(await followedSession(bench));
  const perSession = creating.perCall(rounds + 5);
  let cpu = stackCpu(bench.stack);
  for (let round = -5; round < rounds; round++) {
    if (round === 0) cpu = stackCpu(bench.stack);
    const model = await modelAlone(bench);
    const served = await throughApi(bench, sessions[round + 5]);
    if (round < 0) continue;
    samples.model.push(model);
    samples.delta.push(served.firstDelta);
    samples.finish.push(served.finish);
  }
  const perTurn = cpu.perCall(rounds);
  const p = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, percentiles(list)])) as Record<keyof typeof samples, { p50: number; p95: number }>;
  return {
    case: "agent turn (tool call + answer) through npm start: to first text-delta and to finish, against the fake model's own time",
    rounds,
    modelAlone: p.model,
    firstTextDelta: p.delta,
    finish: p.finish,
    addedMsP50ToFinish: +(p.finish.p50 - p.model.p50).toFixed(2),
    // Includes the tool call's own (tiny) work.
    workerCpuMsPerTurn: perTurn.workerMs,
    // The sidecar relays both model calls and runs the tool call.
    sidecarCpuMsPerTurn: perTurn.sidecarMs,
    workerCpuMsPerSessionMadeAndFollowed: perSession.workerMs,
  };
}
