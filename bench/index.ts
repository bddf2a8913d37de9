import { apiTarget, startBenchStack } from "./bench-stack.ts";
import { benchCompaction } from "./compaction.ts";
import { benchConvert } from "./convert.ts";
import { benchFetchPath } from "./fetch-path.ts";
import { benchSearchCache } from "./search-cache.ts";
import { benchSseFanout } from "./sse-fanout.ts";
import { benchTurnOverhead } from "./turn-overhead.ts";
import { startWorkerdStack } from "./workerd-stack.ts";

/** `npm run bench`: every case against one `npm start` stack and the same worker under workerd directly, each printed as one JSON line. */
const bench = await startBenchStack();
try {
  // The same worker and sidecar without wrangler dev's proxy in front, as deployed.
  const workerd = await startWorkerdStack(bench.webConfig, bench.agentConfig);
  try {
    const direct = apiTarget(workerd.url);
    console.log(JSON.stringify(await benchFetchPath(bench, direct)));
    console.log(JSON.stringify(await benchSearchCache(bench, "npm start: wrangler dev")));
    console.log(JSON.stringify(await benchSearchCache(direct, "workerd directly")));
    console.log(JSON.stringify(await benchTurnOverhead(bench, direct)));
  } finally {
    await workerd.close();
  }
  console.log(JSON.stringify(await benchSseFanout(bench)));
  console.log(JSON.stringify(await benchConvert(bench)));
  console.log(JSON.stringify(await benchCompaction(bench)));
} finally {
  await bench.close();
}
