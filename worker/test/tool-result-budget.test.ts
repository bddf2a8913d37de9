import { describe, expect, it } from "vitest";
import { modelOutputOf } from "../src/agent/context/tool-result-budget.ts";

const page = (content: string) => ({ responseId: "0f0e0d0c-0b0a-4908-8706-050403020100", results: [{ url: "https://example.test/", content, truncated: false }] });

describe("a tool's answer as the model gets it", () => {
  it("is the answer's JSON text when it fits, and a cut copy's JSON, naming how to read on, when it does not", () => {
    const small = page("a short page");
    expect(modelOutputOf(small, {}, 12_000)).toEqual({ type: "text", value: JSON.stringify(small) });
    const cut = modelOutputOf(page("word ".repeat(2_000)), {}, 3_000);
    expect(cut.type).toBe("text");
    const value = JSON.parse(cut.value as string) as ReturnType<typeof page>;
    expect((cut.value as string).length).toBeLessThanOrEqual(3_000);
    expect(value.results[0]!.content).toContain("get_search_content { responseId: \"0f0e0d0c-0b0a-4908-8706-050403020100\", urlIndex: 0, offset:");
  });

  it("is JSON null for an answer that has no JSON (nothing came back)", () => {
    expect(modelOutputOf(undefined, {}, 12_000)).toEqual({ type: "json", value: null });
  });
});
