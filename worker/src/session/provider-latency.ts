export interface ProviderLatency {
  record(provider: string, ms: number): void;
  /** Per provider: how many samples are kept and their median. */
  summary(): Record<string, { samples: number; p50Ms: number }>;
  clear(): void;
}

/** The newest `keep` search latencies per provider, for the session's stats. */
export function createProviderLatency(sql: SqlStorage, keep = 200): ProviderLatency {
  sql.exec("CREATE TABLE IF NOT EXISTS latencies (seq INTEGER PRIMARY KEY AUTOINCREMENT, provider TEXT NOT NULL, ms REAL NOT NULL)");
  sql.exec("CREATE INDEX IF NOT EXISTS latencies_by_provider ON latencies (provider, seq)");
  return {
    record(provider, ms) {
      sql.exec("INSERT INTO latencies (provider, ms) VALUES (?, ?)", provider, ms);
      sql.exec(
        "DELETE FROM latencies WHERE provider = ? AND seq <= (SELECT seq FROM latencies WHERE provider = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)",
        provider,
        provider,
        keep,
      );
    },
    summary() {
      const rows = sql.exec<{ provider: string; ms: number }>("SELECT provider, ms FROM latencies ORDER BY provider, ms").toArray();
      const byProvider = new Map<string, number[]>();
      for (const row of rows) byProvider.set(row.provider, [...(byProvider.get(row.provider) ?? []), row.ms]);
      return Object.fromEntries(
        [...byProvider].map(([provider, sorted]) => [provider, { samples: sorted.length, p50Ms: Math.round(sorted[Math.floor((sorted.length - 1) / 2)]!) }]),
      );
    },
    clear() {
      sql.exec("DELETE FROM latencies");
    },
  };
}
