import { describe, expect, it } from "vitest";
import { describeModelError } from "../src/agent/wire/describe-model-error.ts";
import { modelFetch, ModelUnreachableError } from "../src/agent/wire/model-fetch.ts";
import { EgressRefusedError } from "../src/egress-refused-error.ts";
import { RelayUnavailableError } from "../src/relay-unavailable-error.ts";

const SIDECAR_DOWN = "The sidecar could not be reached to relay the request; check that it is running and SIDECAR_URL points at it.";

describe("a failed model call as the user reads it", () => {
  it("names the sidecar, not the provider's URL, when the relay itself is unavailable", async () => {
    // modelFetch passes the relay's error on as it is: wrapped as unreachable, it would blame the provider.
    const failed = await modelFetch(5_000, async () => {
      throw new RelayUnavailableError(SIDECAR_DOWN);
    })("http://model.test/v1/chat/completions").catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RelayUnavailableError);
    expect(failed).not.toBeInstanceOf(ModelUnreachableError);
    expect(describeModelError(failed, "fake", "openai-compatible")).toBe(`The model provider "fake" cannot be called: ${SIDECAR_DOWN}`);
  });

  it("says to check the provider's baseURL when the relay could not reach it, with the relay's reason", () => {
    const unreachable = new EgressRefusedError("network", 502, "The request to http://127.0.0.2:9 failed: the connection was refused.");
    expect(describeModelError(unreachable, "fake", "openai-compatible")).toBe(
      'The model provider "fake" could not be reached; check auth.modelProviders.fake.baseURL. The request to http://127.0.0.2:9 failed: the connection was refused.',
    );
  });

  it("gives the policy's refusal as the relay worded it", () => {
    const blocked = new EgressRefusedError("blocked", 403, "The URL http://10.0.0.1 was blocked by the network policy.");
    expect(describeModelError(blocked, "corp", "openai-compatible")).toBe('The model provider "corp" cannot be called: The URL http://10.0.0.1 was blocked by the network policy.');
  });
});
