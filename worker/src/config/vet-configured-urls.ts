import { configuredUrlPolicy, deadlineIn, fail, ok, PROVIDER_NAMES, type Result } from "@edge-web/shared";
import type { SidecarClient } from "../sidecar-client.ts";
import type { Settings } from "./resolve-settings.ts";

/** How long a write waits for the sidecar to vet its URLs. */
const VET_BUDGET_MS = 5_000;

/**
 * A write's new provider URLs that the operator did not set must pass the network policy (names,
 * every IP notation, DNS answers), exempt only through web.allowHosts: a refused one fails the write
 * with 422 naming its field (without `before`, every such URL counts as new). The operator's URLs (defaults, WEB_CONFIG, AGENT_CONFIG) are not vetted.
 */
export async function vetConfiguredUrls(before: Settings | undefined, after: Settings, sidecar: Pick<SidecarClient, "vetUrl">): Promise<Result<true>> {
  const fields: Array<{ field: string; url: string }> = [];
  for (const name of PROVIDER_NAMES) {
    const url = after.config[name].baseUrl;
    if (url !== "" && !after.operatorUrls.search[name] && url !== before?.config[name].baseUrl) fields.push({ field: `${name}.baseUrl`, url });
  }
  for (const [name, provider] of Object.entries(after.agent.modelProviders)) {
    if (!after.operatorUrls.models[name] && provider.baseURL !== before?.agent.modelProviders[name]?.baseURL) fields.push({ field: `modelProviders.${name}.baseURL`, url: provider.baseURL });
  }
  if (fields.length === 0) return ok(true);
  const policy = configuredUrlPolicy(after.config);
  const deadline = deadlineIn(VET_BUDGET_MS);
  const answers = await Promise.all(fields.map(({ url }) => sidecar.vetUrl({ url, policy }, deadline)));
  const refused: string[] = [];
  const reasons: string[] = [];
  for (const [index, answer] of answers.entries()) {
    if (answer.ok) continue;
    if (answer.error.code === "SIDECAR_UNAVAILABLE") return fail("SIDECAR_UNAVAILABLE", answer.error.message);
    refused.push(fields[index]!.field);
    reasons.push(`${fields[index]!.field}: ${answer.error.message}`);
  }
  if (refused.length === 0) return ok(true);
  return fail("SCHEMA_VALIDATION_FAILED", `A URL set through the config API must pass the network policy. ${reasons.join(" ")}`, refused);
}
