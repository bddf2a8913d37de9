import { argumentPieces, serveFakeModel, streamChunks, type FakeModelServer, type ScriptedReply } from "./model-script.ts";

const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The events of a reply in the Anthropic Messages streaming format, message_start to message_stop. */
function messageEvents(reply: ScriptedReply, model: string): string[] {
  const { input = 10, output = 5, cacheRead = 0 } = reply.usage ?? {};
  const events = [
    event("message_start", {
      message: { id: "msg_fake", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: 0 } },
    }),
  ];
  if (reply.malformed) events.push("event: content_block_delta\ndata: {not json\n\n");
  let index = 0;
  if (reply.reasoning?.length) {
    events.push(event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    for (const piece of reply.reasoning) events.push(event("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } }));
    events.push(event("content_block_delta", { index, delta: { type: "signature_delta", signature: "fake-signature" } }));
    events.push(event("content_block_stop", { index }));
    index++;
  }
  if (reply.text?.length) {
    events.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
    for (const piece of reply.text) events.push(event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
    events.push(event("content_block_stop", { index }));
    index++;
  }
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    events.push(event("content_block_start", { index, content_block: { type: "tool_use", id: call.id ?? `toolu_${n + 1}`, name: call.name, input: {} } }));
    for (const piece of argumentPieces(call)) events.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }));
    events.push(event("content_block_stop", { index }));
    index++;
  }
  const stop = reply.finish === "length" ? "max_tokens" : reply.toolCalls?.length ? "tool_use" : "end_turn";
  events.push(event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } }));
  events.push(event("message_stop", {}));
  return events;
}

/**
 * An Anthropic Messages server on loopback: streaming `POST /v1/messages`, scripted per test,
 * every request logged. Requests must carry `x-api-key: <apiKey>`; others get Anthropic's 401 answer.
 */
export async function startFakeAnthropic(options: { host?: string; apiKey: string }): Promise<FakeModelServer> {
  return serveFakeModel(options.host ?? "127.0.0.1", async (req, res, body, script) => {
    const entry = script.record(req, res, body);
    if (req.headers["x-api-key"] !== options.apiKey) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
      return;
    }
    if (req.method !== "POST" || entry.path !== "/v1/messages") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "not found" } }));
      return;
    }
    const reply = script.next(entry);
    if (!reply) {
      const message = `prompt is too long: ${entry.tokens} tokens > ${script.contextWindow} maximum`;
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }));
      return;
    }
    if (reply.status) {
      const type = reply.status === 429 ? "rate_limit_error" : reply.status >= 500 ? "api_error" : "invalid_request_error";
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify({ type: "error", error: { type, message: `scripted ${reply.status}` } }));
      return;
    }
    await streamChunks(res, entry, reply, messageEvents(reply, entry.body?.model ?? "claude-fake"));
  });
}
