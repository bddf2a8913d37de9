import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { modelEgress } from "../src/agent/model-egress.ts";
import { loadSettings } from "../src/config/load-settings.ts";
import { EgressRefusedError } from "../src/egress-refused-error.ts";
import type { Env } from "../src/env.ts";
import { RelayUnavailableError } from "../src/relay-unavailable-error.ts";

const bindings = env as unknown as Env;
const origin = inject("originUrl"); // 127.0.0.2: a private address
const AGENT_CONFIG = JSON.stringify({ modelProviders: { corp: { api: "openai-compatible", baseURL: `${origin}/v1`, apiKey: "sk-operator-model-key-0123456789" } } });

/** The test deployment's WEB_CONFIG exempts 127.0.0.2 (web.allowHosts); these settings exempt nothing. */
async function operatorSettings() {
  const loaded = await loadSettings({ ...bindings, AGENT_CONFIG, WEB_CONFIG: JSON.stringify({ allowHosts: [] }) });
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
});
