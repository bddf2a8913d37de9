/** The session protocol version this service speaks (pi-web compatible). */
export const PROTOCOL_VERSION = "0.1.0";
export const PROTOCOL_HEADER = "X-Pi-Protocol-Version";

/** A client may declare any version with our major; no declaration is accepted too. */
export function isCompatibleProtocolVersion(declared: string | null | undefined): boolean {
  if (declared === null || declared === undefined || declared.trim() === "") return true;
  const major = declared.trim().replace(/^v/i, "").split(".")[0];
  return major === PROTOCOL_VERSION.split(".")[0];
}
