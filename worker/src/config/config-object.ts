import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env.ts";
import type { ConfigDomain } from "./config-domains.ts";
import { createConfigStore, type ConfigStore, type StoredConfig } from "./config-store.ts";
import type { JsonObject } from "@edge-web/shared";

/** The singleton (idFromName("config")) holding what the config API stored. Merging, masking and validation live in plain modules. */
export class ConfigObject extends DurableObject<Env> {
  private readonly store: ConfigStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = createConfigStore(ctx.storage.sql);
  }

  async read(): Promise<StoredConfig> {
    return this.store.read();
  }

  /** Compare-and-set: stores `values` for `domain` only if the revision is still `revision`. */
  async write(domain: ConfigDomain, values: JsonObject, revision: number): Promise<boolean> {
    return this.store.write(domain, values, revision);
  }
}
