import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { charsOf, ContextMeter, IMAGE_CHARS, tokensOfChars } from "../src/agent/context/context-meter.ts";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const answer = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });
const size = (messages: ModelMessage[]) => messages.reduce((n, m) => n + JSON.stringify(m).length, 0);

describe("ContextMeter", () => {
  const history = [user("a".repeat(40_000)), answer("b".repeat(40_000))];
  const added = [user("c".repeat(4_000))];

  it("goes on from the provider's input count when it is plausible for what was sent", () => {
    const meter = new ContextMeter();
    meter.record(history, 17_000);
    expect(meter.estimate(1_000, [...history, ...added])).toBe(17_000 + tokensOfChars(size(added)));
  });

  it("forgets a count below a token per 16 characters sent, as if none had come", () => {
    const meter = new ContextMeter();
    meter.record(history, 10);
    expect(meter.estimate(1_000, [...history, ...added])).toBe(tokensOfChars(1_000 + size([...history, ...added])));
    // Just at a token per 16 characters it is believed.
    meter.record(history, Math.ceil(size(history) / 16));
    expect(meter.estimate(0, history)).toBe(Math.ceil(size(history) / 16));
  });

  it("counts an image as IMAGE_CHARS whatever its bytes, as a data URL or as bytes", () => {
    const text = { type: "text" as const, text: "What is in this picture?" };
    const withUrl: ModelMessage = { role: "user", content: [text, { type: "image", image: `data:image/png;base64,${"A".repeat(1_000_000)}`, mediaType: "image/png" }] };
    const withBytes: ModelMessage = { role: "user", content: [text, { type: "file", data: new Uint8Array(500_000), mediaType: "image/jpeg" }] };
    const textOnly = JSON.stringify({ role: "user", content: [text] }).length;
    for (const message of [withUrl, withBytes]) {
      expect(charsOf(message)).toBeGreaterThan(textOnly + IMAGE_CHARS);
      expect(charsOf(message)).toBeLessThan(textOnly + IMAGE_CHARS + 100);
    }
  });
});
