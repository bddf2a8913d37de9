import type { ThinkingLevel } from "@edge-web/shared";
import type { ModelSelection } from "../agent/model/resolve-model.ts";
import { NO_TOKENS, type TokenTotals } from "../agent/model/token-usage.ts";
import { createJsonRow } from "./json-row.ts";

/** A session's agent state: its model and thinking choices, and what its model calls used. */
export interface AgentState {
  selection?: ModelSelection;
  thinkingLevel?: ThinkingLevel;
  tokens: TokenTotals;
  cost: number;
}

export interface AgentStateStore {
  read(): AgentState;
  write(state: AgentState): void;
}

/** A session's agent state before any choice or model call. */
export function emptyAgentState(): AgentState {
  return { tokens: { ...NO_TOKENS }, cost: 0 };
}

/** The agent state as one row of the session's SQLite storage. */
export function createAgentStateStore(sql: SqlStorage): AgentStateStore {
  const row = createJsonRow<AgentState>(sql, "agent_state");
  return {
    read: () => row.read() ?? emptyAgentState(),
    write: (state) => row.write(state),
  };
}
