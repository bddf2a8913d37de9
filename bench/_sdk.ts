import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText, tool, jsonSchema } from "ai";
import { startFakeOpenAI } from "../test-support/fake-openai.ts";
import { TURN } from "./turn-overhead.ts";
const model = await startFakeOpenAI({ apiKey: "k", models: ["m"] });
const provider = createOpenAICompatible({ name: "bench", baseURL: model.baseURL, apiKey: "k" });
const tools = { get_search_content: tool({ description: "x", inputSchema: jsonSchema({ type: "object", properties: { responseId: { type: "string" } } }), execute: async () => ({ ok: true }) }) };
const turn = async () => {
  model.script.script(...TURN);
  const r = streamText({ model: provider("m"), messages: [{ role: "user", content: "q" }], tools, stopWhen: stepCountIs(5) });
  const reader = r.toUIMessageStream().getReader();
  while (!(await reader.read()).done);
};
for (let i = 0; i < 10; i++) await turn();
const c0 = process.cpuUsage(); const t0 = performance.now(); const n = 60;
for (let i = 0; i < n; i++) await turn();
const c = process.cpuUsage(c0);
console.log("AI SDK alone in Node: cpu ms/turn", ((c.user + c.system) / 1000 / n).toFixed(2), "wall", ((performance.now() - t0) / n).toFixed(2));
await model.close();
