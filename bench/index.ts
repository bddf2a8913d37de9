import { apiTarget, startBenchStack } from "./bench-stack.ts";
import { benchFetchThroughStack } from "./fetch-through-stack.ts";
import { benchSearchCache } from "./search-cache.ts";
import { benchSseFanout } from "./sse-fanout.ts";
import { startWorkerdStack } from "./workerd-stack.ts";

/** `npm run bench`: every case against one `npm start` stack, each printed as one JSON line. */
const bench = await startBenchStack();
try {
  console.log(JSON.stringify(await benchFetchThroughStack(bench)));
  console.log(JSON.stringify(await benchSearchCache(bench, "npm start: wrangler dev")));
  // The same worker and sidecar without wrangler dev's proxy in front, as deployed.
  const workerd = await startWorkerdStack(bench.webConfig);
  try {
    console.log(JSON.stringify(await benchSearchCache(apiTarget(workerd.url), "workerd directly")));
  } finally {
    await workerd.close();
  }
  console.log(JSON.stringify(await benchSseFanout(bench)));
} finally {
  await bench.close();
}
