import type { ThinkingLevel } from "@edge-web/shared";
import type { ModelSelection } from "../agent/resolve-model.ts";
import { NO_TOKENS, type TokenTotals } from "../agent/token-usage.ts";

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

/** The agent state as one row of the session's SQLite storage. */
export function createAgentStateStore(sql: SqlStorage): AgentStateStore {
  sql.exec("CREATE TABLE IF NOT EXISTS agent_state (k INTEGER PRIMARY KEY CHECK (k = 1), body TEXT NOT NULL)");
  return {
    read() {
      const row = sql.exec<{ body: string }>("SELECT body FROM agent_state WHERE k = 1").toArray()[0];
      return row ? (JSON.parse(row.body) as AgentState) : { tokens: { ...NO_TOKENS }, cost: 0 };
    },
    write(state) {
      sql.exec("INSERT OR REPLACE INTO agent_state (k, body) VALUES (1, ?)", JSON.stringify(state));
    },
  };
}
