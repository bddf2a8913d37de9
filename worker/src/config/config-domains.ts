import { WebConfigSchema, type KeyedProviderName } from "@edge-web/shared";
import * as v from "valibot";

/** The configuration domains of `GET/PUT /api/config/:domain`. */
export const CONFIG_DOMAINS = ["auth", "settings", "sandbox"] as const;
export type ConfigDomain = (typeof CONFIG_DOMAINS)[number];

export const isConfigDomain = (name: string): name is ConfigDomain => (CONFIG_DOMAINS as readonly string[]).includes(name);

/** The web.* keys that make up the network policy; they live in the sandbox domain, every other web.* key in settings. */
export const SANDBOX_KEYS = ["allowPrivateNetwork", "allowHosts", "deniedDomains", "allowedDomains"] as const;


export const SettingsSchema = v.omit(WebConfigSchema, SANDBOX_KEYS);
export const SandboxSchema = v.pick(WebConfigSchema, SANDBOX_KEYS);

/** Marks a string field as a secret: masked when read, kept when its mask is written back. */
export const SECRET = { secret: true } as const;

const apiKey = (provider: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.metadata(SECRET),
      v.title(`${provider} API key`),
      v.description(`Overrides the worker secret named by web.${provider.toLowerCase()}.apiKeyEnv. Send "" to clear it.`),
    ),
  );

const providerAuth = (provider: string) => v.optional(v.pipe(v.object({ apiKey: apiKey(provider) }), v.title(provider)), {});

/** Provider API keys stored by the config API; each overrides the worker secret of the same provider. */
export const AuthSchema = v.object({
  brave: providerAuth("Brave"),
  tavily: providerAuth("Tavily"),
  serper: providerAuth("Serper"),
  openserp: providerAuth("OpenSERP"),
} satisfies Record<KeyedProviderName, v.GenericSchema>);
export type AuthConfig = v.InferOutput<typeof AuthSchema>;

/** Each domain's schema; the form schema and unknown-key checks are derived from these. */
export const DOMAIN_SCHEMAS = {
  auth: AuthSchema,
  settings: SettingsSchema,
  sandbox: SandboxSchema,
} as const satisfies Record<ConfigDomain, v.GenericSchema>;
