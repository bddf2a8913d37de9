import type { ConfigDomain } from "./config-domains.ts";
import type { JsonObject } from "@edge-web/shared";

/** What the config API has stored: each domain's values (only what was written) and a revision that grows on every write. */
export interface StoredConfig {
  revision: number;
  domains: Partial<Record<ConfigDomain, JsonObject>>;
}

export interface ConfigStore {
  read(): StoredConfig;
  /** Replaces these domains' values if nothing was written since `revision`; false when something was. */
  write(domains: Partial<Record<ConfigDomain, JsonObject>>, revision: number): boolean;
}

/** The stored config as rows of the ConfigObject's SQLite storage: one JSON body per domain. */
export function createConfigStore(sql: SqlStorage): ConfigStore {
  sql.exec("CREATE TABLE IF NOT EXISTS config (domain TEXT PRIMARY KEY, body TEXT NOT NULL, revision INTEGER NOT NULL)");
  const revision = () => sql.exec<{ revision: number }>("SELECT COALESCE(MAX(revision), 0) AS revision FROM config").one().revision;
  return {
    read() {
      const domains: StoredConfig["domains"] = {};
      for (const row of sql.exec<{ domain: string; body: string }>("SELECT domain, body FROM config")) {
        domains[row.domain as ConfigDomain] = JSON.parse(row.body) as JsonObject;
      }
      return { revision: revision(), domains };
    },
    write(domains, expected) {
      const current = revision();
      if (current !== expected) return false;
      // Synchronous SQL in one event: the rows change together or not at all.
      for (const [domain, values] of Object.entries(domains)) {
        sql.exec(
          "INSERT INTO config (domain, body, revision) VALUES (?, ?, ?) ON CONFLICT (domain) DO UPDATE SET body = excluded.body, revision = excluded.revision",
          domain,
          JSON.stringify(values),
          current + 1,
        );
      }
      return true;
    },
  };
}
