import { benchFetchThroughStack } from "./fetch-through-stack.ts";

/** `npm run bench`: every case in one run, each printed as one JSON line. */
const results = [await benchFetchThroughStack()];
for (const result of results) console.log(JSON.stringify(result));
