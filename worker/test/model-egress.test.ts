import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { modelEgress } from "../src/agent/wire/model-egress.ts";
import { loadSettings } from "../src/config/load-settings.ts";
import { EgressRefusedError } from "../src/egress-refused-error.ts";
import type { Env } from "../src/env.ts";
import { RelayUnavailableError } from "../src/relay-unavailable-error.ts";

const bindings = env as unknown as Env;
const origin = inject("originUrl"); // 127.0.0.2: a private address
const AGENT_CONFIG = JSON.stringify({ modelProviders: { corp: { api: "openai-compatible", baseURL: `${origin}/v1`, apiKey: "sk-operator-model-key-0123456789" } } });
const relayState = async (id: string) => (await (await fetch(`${origin}/relay-state?id=${id}`)).json()) as { opened: boolean; closed: boolean };

/** The test deployment's WEB_CONFIG exempts 127.0.0.2 (web.allowHosts); these settings exempt nothing. */
async function operatorSettings(agentConfig = AGENT_CONFIG) {
  const loaded = await loadSettings({ ...bindings, AGENT_CONFIG: agentConfig, WEB_CONFIG: JSON.stringify({ allowHosts: [] }) });
  if (!loaded.ok) throw new Error(loaded.error.message);
  expect(loaded.value.operatorUrls.models.corp).toBe(true);
  return loaded.value;
}

describe("modelEgress", () => {
  it("sends the operator's provider through the sidecar's relay, private addresses included", async () => {
    const settings = await operatorSettings();
    const response = await modelEgress(bindings, settings, "corp")(`${origin}/relay-echo`, { method: "POST", body: "to the operator's model" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { body: string }).body).toBe("to the operator's model");
    // Port 9 on loopback answers nothing: without its sidecar the call fails, though the provider is up.
    const withoutSidecar = modelEgress({ ...bindings, SIDECAR_URL: "http://127.0.0.1:9" }, settings, "corp");
    await expect(withoutSidecar(`${origin}/relay-echo`)).rejects.toBeInstanceOf(RelayUnavailableError);
  });

  it("holds a provider configured through the API to the network policy: a private address is refused", async () => {
    const settings = await operatorSettings();
    const configured = { ...settings, operatorUrls: { ...settings.operatorUrls, models: {} } };
    const refused = await modelEgress(bindings, configured, "corp")(`${origin}/relay-echo`, { method: "POST", body: "{}" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EgressRefusedError);
    expect(refused).toMatchObject({ status: 403, code: "blocked" });
  });

  it("has the relay wait as long as the turn does: settings.agent.modelTimeoutMs, a second more", async () => {
    const settings = await operatorSettings(JSON.stringify({ ...JSON.parse(AGENT_CONFIG), agent: { modelTimeoutMs: 300 } }));
    const response = await modelEgress(bindings, settings, "corp")(`${origin}/relay-stream?id=egress-idle`);
    const reader = response.body!.getReader();
    await reader.read();
    // The upstream holds its stream open and silent: past 1.3 s the relay closes it (its default is a minute).
    await expect.poll(async () => (await relayState("egress-idle")).closed, { timeout: 5_000, interval: 200 }).toBe(true);
    await expect(reader.read()).rejects.toThrow();
  });

  it("caps the relay's wait at its five minutes: a longer modelTimeoutMs still relays", async () => {
    // Uncapped, 10 minutes would fail the relay's own validation and no call would go out.
    const settings = await operatorSettings(JSON.stringify({ ...JSON.parse(AGENT_CONFIG), agent: { modelTimeoutMs: 600_000 } }));
    const response = await modelEgress(bindings, settings, "corp")(`${origin}/relay-echo`, { method: "POST", body: "a long wait allowed" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { body: string }).body).toBe("a long wait allowed");
  });
});
