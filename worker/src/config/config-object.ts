import { DurableObject } from "cloudflare:workers";
import type { JsonObject } from "@edge-web/shared";
import type { ConfigDomain } from "./config-domains.ts";
import type { Env } from "../env.ts";
import { createConfigStore, type ConfigStore, type StoredConfig } from "./config-store.ts";

/**
 * How long a reader may keep using what it read without asking again. A write answers only once
 * every lease granted before it has run out, so after a PUT no isolate still serves the old values.
 */
export const CONFIG_LEASE_MS = 1_000;

/** What a reader gets: the stored values and how long it may cache them (measured from before it asked). */
export interface ConfigLease {
  stored: StoredConfig;
  leaseMs: number;
}

/**
 * The singleton (idFromName("config")) holding what the config API stored, and the leases that let
 * isolates cache it. Merging, masking and validation live in plain modules.
 */
export class ConfigObject extends DurableObject<Env> {
  private readonly store: ConfigStore;
  /** Until when some reader may still hold the current values. A fresh object cannot know, so it assumes a full lease. */
  private leasedUntil = Date.now() + CONFIG_LEASE_MS;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = createConfigStore(ctx.storage.sql);
  }

  /** What is stored, for a reader that does not cache it (the config API's own reads and writes). */
  async read(): Promise<StoredConfig> {
    return this.store.read();
  }

  /** What is stored, for a reader that caches it for `leaseMs`. */
  async lease(): Promise<ConfigLease> {
    this.leasedUntil = Math.max(this.leasedUntil, Date.now() + CONFIG_LEASE_MS);
    return { stored: this.store.read(), leaseMs: CONFIG_LEASE_MS };
  }

  /**
   * Compare-and-set: stores each domain's values only if the revision is still `revision` (all or
   * none), then waits out the leases on the values it replaced.
   */
  async write(domains: Partial<Record<ConfigDomain, JsonObject>>, revision: number): Promise<boolean> {
    if (!this.store.write(domains, revision)) return false;
    const outstanding = this.leasedUntil - Date.now();
    if (outstanding > 0) await new Promise((resolve) => setTimeout(resolve, outstanding));
    return true;
  }
}
