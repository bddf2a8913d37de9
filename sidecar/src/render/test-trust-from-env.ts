import { fail, ok, type Result } from "@edge-web/shared";

/** A SHA-256 hash in base64: 43 characters and one "=". */
const SPKI_HASH = /^[A-Za-z0-9+/]{43}=$/;

/**
 * SIDECAR_TEST_TRUST_SPKI: the public keys (comma-separated base64 SHA-256 SPKI hashes) of test
 * origins whose certificates the browser accepts, so a test can render HTTPS pages on loopback.
 * It turns certificate checks off for those keys, so it is refused unless SIDECAR_TEST_MODE=1.
 */
export function testTrustFromEnv(env: NodeJS.ProcessEnv): Result<string[], "config"> {
  const raw = env.SIDECAR_TEST_TRUST_SPKI?.trim();
  if (!raw) return ok([]);
  if (env.SIDECAR_TEST_MODE !== "1") {
    return fail("config", "SIDECAR_TEST_TRUST_SPKI trusts certificates the browser would refuse: it is for tests only, and needs SIDECAR_TEST_MODE=1. Unset it in production.");
  }
  const hashes = raw.split(",").map((hash) => hash.trim());
  const invalid = hashes.filter((hash) => !SPKI_HASH.test(hash));
  if (invalid.length > 0) return fail("config", `SIDECAR_TEST_TRUST_SPKI takes base64 SHA-256 SPKI hashes; these are not: ${invalid.join(", ")}.`);
  return ok(hashes);
}
