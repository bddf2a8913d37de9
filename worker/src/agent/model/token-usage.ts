import type { ModelEntry } from "@edge-web/shared";
import type { LanguageModelUsage } from "ai";

/** Tokens summed over a session's model calls; `input` counts the uncached input tokens. */
export interface TokenTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const NO_TOKENS: TokenTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** One model call's usage as the provider reported it, split the way the totals are. */
export function tokensOf(usage: LanguageModelUsage): TokenTotals {
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  const input = usage.inputTokenDetails?.noCacheTokens ?? Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite);
  return { input, output: usage.outputTokens ?? 0, cacheRead, cacheWrite };
}

export function addTokens(a: TokenTotals, b: TokenTotals): TokenTotals {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

/** USD for `tokens` at a model's prices (per million tokens); cached tokens at the input price unless priced. */
export function costOf(tokens: TokenTotals, cost: ModelEntry["cost"] | undefined): number {
  if (!cost) return 0;
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  return (
    tokens.input * perToken(cost.input) +
    tokens.output * perToken(cost.output) +
    tokens.cacheRead * perToken(cost.cacheRead ?? cost.input) +
    tokens.cacheWrite * perToken(cost.cacheWrite ?? cost.input)
  );
}
