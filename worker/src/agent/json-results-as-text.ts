import type { LanguageModelV4Prompt } from "@ai-sdk/provider";

/** Each tool result's JSON, by its value: a turn sends every result of the view with each model call. */
const sent = new WeakMap<object, string>();

function jsonOf(value: object): string {
  let json = sent.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    sent.set(value, json);
  }
  return json;
}

/**
 * The prompt with its JSON tool results as the text a request carries for them (their JSON), made
 * once per result rather than on every call: the SDK's providers (Chat Completions and Anthropic
 * Messages alike) serialise JSON results with a replacer (for BigInts and cycles, which results read
 * from JSON never have), their slow path, again for every call of every turn. What is sent is the
 * same text.
 */
export function jsonResultsAsText(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  return prompt.map((message) => {
    if (message.role !== "tool") return message;
    const content = message.content.map((part) => {
      if (part.type !== "tool-result" || part.output.type !== "json" || typeof part.output.value !== "object" || part.output.value === null) return part;
      const { providerOptions } = part.output;
      return { ...part, output: { type: "text" as const, value: jsonOf(part.output.value), ...(providerOptions && { providerOptions }) } };
    });
    return { ...message, content };
  });
}
