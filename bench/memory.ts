import { startBenchStack } from "./bench-stack.ts";
import { benchMixedMemory, WORK, type Work } from "./mixed-memory.ts";

/**
 * `npm run bench:memory [-- SESSIONS SECONDS [fetch,read,convert,turn]]`: the mixed-work memory scenario against one `npm start`
 * stack (16 sessions for 180 s unless told), printed as one JSON line. Separate from `npm run bench`: it runs for minutes.
 */
const [sessions = 16, seconds = 180] = process.argv.slice(2, 4).map(Number);
const work = (process.argv[4]?.split(",") ?? WORK) as Work[];
const bench = await startBenchStack();
try {
  console.log(JSON.stringify(await benchMixedMemory(bench, sessions, seconds, work)));
} finally {
  await bench.close();
}
