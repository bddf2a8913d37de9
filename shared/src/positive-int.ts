import * as v from "valibot";

/** A whole number above zero: every count, size and duration setting. */
export const PositiveIntSchema = v.pipe(v.number(), v.integer(), v.minValue(1));

/** An optional positive integer setting with its default. */
export const positiveInt = (fallback: number) => v.optional(PositiveIntSchema, fallback);
