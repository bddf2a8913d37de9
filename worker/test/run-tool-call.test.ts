import { createSemaphore, DEFAULT_WEB_CONFIG, type UiMessageChunk } from "@edge-web/shared";
import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { createFetchCache } from "../src/cache/fetch-cache.ts";
import { createRobotsCache } from "../src/cache/robots-cache.ts";
import { createSearchCache } from "../src/cache/search-cache.ts";
import type { Env } from "../src/env.ts";
import type { ToolUiMessage } from "@edge-web/shared";
import { runToolCall } from "../src/session/run-tool-call.ts";
import { createSidecarClient } from "../src/sidecar-client.ts";
import type { Tool, ToolContext } from "../src/tools/tool.ts";
import { OPERATOR_URLS_ONLY } from "../../test-support/operator-urls.ts";

const bindings = env as unknown as Env;

/** A tool of the family whose run throws, as a bug or a storage failure would. */
const throwing: Tool = {
  name: "fetch_content",
  title: "Throws",
  description: "throws",
  params: v.looseObject({}),
  output: v.unknown(),
  run: async () => {
    throw new Error("storage exploded");
  },
};

function context(counted: string[]): ToolContext {
  return {
    config: DEFAULT_WEB_CONFIG,
    operatorUrls: OPERATOR_URLS_ONLY,
    providerKeys: {},
    sidecar: createSidecarClient(bindings),
    store: { save: () => {}, get: () => undefined },
    attachment: async () => undefined,
    cache: createSearchCache(bindings.CACHE, DEFAULT_WEB_CONFIG.cache),
    fetchCache: createFetchCache(bindings.CACHE, DEFAULT_WEB_CONFIG.fetchCache),
    robotsCache: createRobotsCache(bindings.CACHE),
    record: { count: (name) => counted.push(name), latency: () => {}, step: () => {} },
    limiter: createSemaphore({ maxConcurrent: 1, maxQueue: 1 }),
    newResponseId: () => "r1",
  };
}

describe("runToolCall", () => {
  it("ends a call whose tool throws with tool-output-error and finish, and records the error", async () => {
    const chunks: UiMessageChunk[] = [];
    const messages: ToolUiMessage[] = [];
    const counted: string[] = [];
    let n = 0;
    const answer = await runToolCall(throwing, { url: "x" }, context(counted), { chunk: (c) => chunks.push(c), message: (m) => messages.push(m as ToolUiMessage) }, () => String(++n));
    expect(answer).toEqual({ ok: false, error: { code: "INTERNAL_ERROR", message: expect.stringMatching(/failed unexpectedly/) } });
    expect(chunks.map((c) => c.type)).toEqual(["start", "tool-input-available", "tool-output-error", "finish"]);
    expect(chunks[2]).toMatchObject({ errorText: expect.stringMatching(/^INTERNAL_ERROR: /) });
    expect(JSON.stringify(chunks)).not.toContain("storage exploded");
    expect(messages.at(-1)!.parts[0]).toMatchObject({ state: "output-error", errorText: expect.stringMatching(/^INTERNAL_ERROR/) });
    expect(counted).toEqual(["toolCalls", "tool.fetch_content", "toolResults", "errors.INTERNAL_ERROR"]);
  });
});
