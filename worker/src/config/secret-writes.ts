import { fail, isPlainObject, ok, type JsonObject, type Result } from "@edge-web/shared";
import * as v from "valibot";
import { CONFIG_DOMAINS, type ConfigDomain } from "./config-domains.ts";
import { FORM_SCHEMAS } from "./config-values.ts";
import { secretPaths } from "./form-schema.ts";
import { expandPath, getPath, withoutPath, withPath } from "./json-paths.ts";

/** pi-web's client writes a secret field as one of three actions instead of a string. */
const SecretWriteSchema = v.variant("action", [
  v.object({ __secret: v.literal(true), action: v.literal("keep") }),
  v.object({ __secret: v.literal(true), action: v.literal("clear") }),
  v.object({ __secret: v.literal(true), action: v.literal("set"), value: v.string() }),
]);

const SECRET_PATHS = Object.fromEntries(CONFIG_DOMAINS.map((domain) => [domain, secretPaths(FORM_SCHEMAS[domain])])) as Record<ConfigDomain, string[]>;

/**
 * A `PUT /api/config/:domain` patch with pi-web's secret writes (`{ __secret: true, action }` on a
 * secret field) turned into the seed's forms, so one set of rules — masks, and keys bound to their
 * URLs — holds for both: `set` is its value, `clear` is "", and `keep` leaves the field out, as
 * writing its mask back does (neither gives a key: a provider whose URL the same write changes loses
 * its stored one). Any other object on a secret field is 422 naming it; elsewhere the domain's schema
 * refuses it.
 */
export function readSecretWrites(domain: ConfigDomain, patch: JsonObject): Result<JsonObject> {
  let out = patch;
  const invalid: string[] = [];
  for (const path of SECRET_PATHS[domain].flatMap((pattern) => expandPath(patch, pattern))) {
    const written = getPath(patch, path);
    if (!isPlainObject(written)) continue;
    const write = v.safeParse(SecretWriteSchema, written);
    if (!write.success) invalid.push(path);
    else if (write.output.action === "keep") out = withoutPath(out, path);
    else out = withPath(out, path, write.output.action === "set" ? write.output.value : "");
  }
  if (invalid.length > 0) {
    return fail(
      "SCHEMA_VALIDATION_FAILED",
      `${invalid.join(", ")}: a secret is written as a string (its mask keeps it, "" clears it) or as {"__secret":true,"action":"keep"|"clear"} or {"__secret":true,"action":"set","value":"…"}.`,
      invalid,
    );
  }
  return ok(out);
}
