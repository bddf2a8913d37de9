import { argumentPieces, serveFakeModel, streamChunks, type FakeModelServer, type ScriptedReply } from "./model-script.ts";

const event = (data: unknown) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/** The chunks of a reply in the OpenAI Chat Completions streaming format. */
function chatChunks(reply: ScriptedReply, model: string, includeUsage: boolean): string[] {
  const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1_700_000_000, model };
  const delta = (d: object, finish: string | null = null) => event({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] });
  const chunks = [delta({ role: "assistant", content: "" })];
  if (reply.malformed) chunks.push("data: {not json\n\n");
  for (const piece of reply.reasoning ?? []) chunks.push(delta({ reasoning_content: piece }));
  for (const piece of reply.text ?? []) chunks.push(delta({ content: piece }));
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? `call_${index + 1}`;
    chunks.push(delta({ tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const piece of argumentPieces(call)) chunks.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  chunks.push(delta({}, reply.finish ?? (reply.toolCalls?.length ? "tool_calls" : "stop")));
  if (includeUsage) {
    const { input = 10, output = 5, cacheRead = 0 } = reply.usage ?? {};
    chunks.push(event({ ...base, choices: [], usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output, prompt_tokens_details: { cached_tokens: cacheRead } } }));
  }
  chunks.push(event("[DONE]"));
  return chunks;
}

/**
 * An OpenAI-compatible server on loopback: `GET /v1/models` and streaming
 * `POST /v1/chat/completions`, scripted per test, every request logged. Requests must carry
 * `Authorization: Bearer <apiKey>`; others get OpenAI's 401 answer.
 */
export async function startFakeOpenAI(options: { host?: string; apiKey: string; models?: string[] }): Promise<FakeModelServer> {
  return serveFakeModel(options.host ?? "127.0.0.1", async (req, res, body, script) => {
    const entry = script.record(req, res, body);
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } }));
      return;
    }
    if (req.method === "GET" && entry.path === "/v1/models") {
      const data = (options.models ?? ["fake-model"]).map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "fake" }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data }));
      return;
    }
    if (req.method !== "POST" || entry.path !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const reply = script.next(entry);
    if (!reply) {
      const message = `This model's maximum context length is ${script.contextWindow} tokens. However, your messages resulted in ${entry.tokens} tokens. Please reduce the length of the messages.`;
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } }));
      return;
    }
    if (reply.status) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify({ error: { message: `scripted ${reply.status}`, type: "api_error" } }));
      return;
    }
    await streamChunks(res, entry, reply, chatChunks(reply, entry.body?.model ?? "fake-model", entry.body?.stream_options?.include_usage === true));
  });
}
