import * as v from "valibot";

/** pi-web's explicit write of a secret field in `PUT /config/:domain`: keep it, clear it, or set a new value. */
export const PiSecretWriteSchema = v.variant("action", [
  v.object({ __secret: v.literal(true), action: v.literal("keep") }),
  v.object({ __secret: v.literal(true), action: v.literal("clear") }),
  v.object({ __secret: v.literal(true), action: v.literal("set"), value: v.string() }),
]);
export type PiSecretWrite = v.InferOutput<typeof PiSecretWriteSchema>;

/** The three writes, checked against the schema so a test cannot send a shape pi's client would not. */
export const secretKeep = (): PiSecretWrite => v.parse(PiSecretWriteSchema, { __secret: true, action: "keep" });
export const secretClear = (): PiSecretWrite => v.parse(PiSecretWriteSchema, { __secret: true, action: "clear" });
export const secretSet = (value: string): PiSecretWrite => v.parse(PiSecretWriteSchema, { __secret: true, action: "set", value });
