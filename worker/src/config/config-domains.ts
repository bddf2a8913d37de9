import { AgentSandboxEntries, AgentSettingsEntries, ModelProviderSchema, WebConfigSchema, type KeyedProviderName } from "@edge-web/shared";
import * as v from "valibot";

/** The configuration domains of `GET/PUT /api/config/:domain`. */
export const CONFIG_DOMAINS = ["auth", "settings", "sandbox"] as const;
export type ConfigDomain = (typeof CONFIG_DOMAINS)[number];

export const isConfigDomain = (name: string): name is ConfigDomain => (CONFIG_DOMAINS as readonly string[]).includes(name);

/** The web.* keys that make up the network policy; they live in the sandbox domain, every other web.* key in settings. */
export const SANDBOX_KEYS = ["allowPrivateNetwork", "allowHosts", "deniedDomains", "allowedDomains"] as const;

/** Every web.* key but the network policy, and the agent's defaults. */
export const SettingsSchema = v.object({ ...v.omit(WebConfigSchema, SANDBOX_KEYS).entries, ...AgentSettingsEntries });
/** The network policy, and whether agent tool calls wait for the user's approval. */
export const SandboxSchema = v.object({ ...v.pick(WebConfigSchema, SANDBOX_KEYS).entries, ...AgentSandboxEntries });

/** Marks a string field as a secret: masked when read, kept when its mask is written back. */
export const SECRET = { secret: true } as const;

const secret = (title: string, description: string) => v.optional(v.pipe(v.string(), v.metadata(SECRET), v.title(title), v.description(description)));

const providerAuth = (provider: string) =>
  v.optional(
    v.pipe(
      v.object({ apiKey: secret(`${provider} API key`, `Overrides the worker secret named by web.${provider.toLowerCase()}.apiKeyEnv. Send "" to clear it.`) }),
      v.title(provider),
    ),
    {},
  );

/** A model provider as stored: the shared schema with its key marked secret. */
const ModelProviderAuthSchema = v.object({
  ...ModelProviderSchema.entries,
  apiKey: secret("API key", 'Sent to the provider as its API key; never shown. Send "" to clear it.'),
});

/** Search provider keys (each overrides the worker secret of the same provider) and the model providers. */
export const AuthSchema = v.object({
  brave: providerAuth("Brave"),
  tavily: providerAuth("Tavily"),
  serper: providerAuth("Serper"),
  openserp: providerAuth("OpenSERP"),
  modelProviders: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.nonEmpty()), ModelProviderAuthSchema),
      v.title("Model providers"),
      v.description("name → { api: openai-compatible | anthropic, baseURL, apiKey, models? }"),
    ),
  ),
} satisfies Record<KeyedProviderName, v.GenericSchema> & Record<string, v.GenericSchema>);
export type AuthConfig = v.InferOutput<typeof AuthSchema>;

/** Each domain's schema; the form schema and unknown-key checks are derived from these. */
export const DOMAIN_SCHEMAS = {
  auth: AuthSchema,
  settings: SettingsSchema,
  sandbox: SandboxSchema,
} as const satisfies Record<ConfigDomain, v.GenericSchema>;
