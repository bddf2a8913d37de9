import { startBenchStack } from "./bench-stack.ts";
import { benchCallTrace } from "./call-trace.ts";
import { benchCompaction } from "./compaction.ts";
import { benchConvert } from "./convert.ts";
import { benchCrawl } from "./crawl.ts";
import { benchFetchCache } from "./fetch-cache.ts";
import { benchFetchPath } from "./fetch-path.ts";
import { benchPassages } from "./passages.ts";
import { benchReliability } from "./reliability.ts";
import { benchRender } from "./render.ts";
import { benchRobots } from "./robots.ts";
import { benchSearchCache } from "./search-cache.ts";
import { benchSearchProviders } from "./search-providers.ts";
import { benchSseFanout } from "./sse-fanout.ts";
import { benchTurnOverhead } from "./turn-overhead.ts";

/** `npm run bench`: every case against one `npm start` stack, each printed as one JSON line. */
const bench = await startBenchStack();
try {
  console.log(JSON.stringify(await benchCallTrace(bench)));
  console.log(JSON.stringify(await benchFetchPath(bench)));
  console.log(JSON.stringify(await benchSearchCache(bench)));
  console.log(JSON.stringify(await benchFetchCache(bench)));
  console.log(JSON.stringify(await benchRobots(bench)));
  console.log(JSON.stringify(await benchTurnOverhead(bench)));
  console.log(JSON.stringify(await benchSseFanout(bench)));
  console.log(JSON.stringify(await benchConvert(bench)));
  console.log(JSON.stringify(await benchPassages(bench)));
  console.log(JSON.stringify(await benchCompaction(bench)));
  // Last on the shared stack: the browser it starts stays up and would weigh on the cases after it.
  console.log(JSON.stringify(await benchRender(bench)));
} finally {
  await bench.close();
}
// Its own stack (web.timeoutMs 4 s), after the others so its load weighs on none of them.
console.log(JSON.stringify(await benchReliability()));
// Its own stack too: three fake providers at 50, 150 and 400 ms.
console.log(JSON.stringify(await benchSearchProviders()));
console.log(JSON.stringify(await benchCrawl()));
