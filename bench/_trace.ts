import { startBenchStack } from "./bench-stack.ts";
import { benchCallTrace } from "./call-trace.ts";
const bench = await startBenchStack();
try { console.log(JSON.stringify(await benchCallTrace(bench, 40))); } finally { await bench.close(); }
