import { startBenchStack } from "./bench-stack.ts";
import { benchFetchThroughStack } from "./fetch-through-stack.ts";
import { benchSearchCache } from "./search-cache.ts";
import { benchSseFanout } from "./sse-fanout.ts";

/** `npm run bench`: every case against one `npm start` stack, each printed as one JSON line. */
const bench = await startBenchStack();
try {
  for (const run of [benchFetchThroughStack, benchSearchCache, benchSseFanout]) console.log(JSON.stringify(await run(bench)));
} finally {
  await bench.close();
}
