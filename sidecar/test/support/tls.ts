import { execFileSync } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway self-signed certificate for `hostname` (a name or an IP address; it is its own CA),
 * made with the openssl CLI, with its public key's SPKI hash (base64 SHA-256) as Chromium's
 * --ignore-certificate-errors-spki-list takes it.
 */
export function selfSignedCert(hostname: string): { key: string; cert: string; spki: string } {
  const dir = mkdtempSync(join(tmpdir(), "egress-tls-"));
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", `/CN=${hostname}`, "-addext", `subjectAltName=${isIP(hostname) ? "IP" : "DNS"}:${hostname}`,
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    const cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const spki = createHash("sha256").update(new X509Certificate(cert).publicKey.export({ type: "spki", format: "der" })).digest("base64");
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert, spki };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
