import * as v from "valibot";
import { parseHttpUrl } from "./parse-http-url.ts";

/** RFC 9309 §2.4: rules kept up to 24 hours. */
const RULES_MS = 24 * 3_600_000;
/** An origin whose robots.txt failed is asked again sooner, so a bad minute on its server does not close it for a day. */
const FAILED_MS = 10 * 60_000;
/** The largest record shared between sidecars (its JSON, UTF-8): it rides in a sidecar request, which is kept small; a larger one stays in its sidecar's memory. */
export const ROBOTS_SHARED_MAX_BYTES = 64 * 1024;
/** Most records one answer reports: a page, its 5 redirects and a few documents a rendered page loads. */
const MAX_REPORTED = 10;

/**
 * What an origin's robots.txt said (RFC 9309 §2.3.1): its rules (at most the first 500 KiB), or what
 * its failure means: unavailable (4xx, more than 5 redirects) allows everything, unreachable (5xx, no
 * answer) disallows everything. The rules keep every line, Crawl-delay too, for a crawler that honours it.
 */
export const RobotsRecordSchema = v.variant("kind", [
  v.object({ kind: v.literal("rules"), url: v.string(), body: v.string() }),
  v.object({ kind: v.literal("allow-all"), url: v.string() }),
  v.object({ kind: v.literal("disallow-all"), url: v.string(), why: v.pipe(v.string(), v.maxLength(1_000)) }),
]);
export type RobotsRecord = v.InferOutput<typeof RobotsRecordSchema>;

const isOrigin = (origin: string) => parseHttpUrl(origin)?.origin === origin;

/**
 * A record with its origin and when it was read (epoch ms), as the sidecar reports it and the worker
 * keeps it in KV: its URL must be its origin's /robots.txt, and the whole of it small enough to share.
 */
export const RobotsEntrySchema = v.pipe(
  v.object({ origin: v.string(), readAt: v.pipe(v.number(), v.integer(), v.minValue(0)), record: RobotsRecordSchema }),
  v.check((entry) => isOrigin(entry.origin) && entry.record.url === `${entry.origin}/robots.txt`, "must be an http(s) origin's /robots.txt"),
  v.check((entry) => new TextEncoder().encode(JSON.stringify(entry)).byteLength <= ROBOTS_SHARED_MAX_BYTES, `must be at most ${ROBOTS_SHARED_MAX_BYTES} bytes`),
);
export type RobotsEntry = v.InferOutput<typeof RobotsEntrySchema>;

/** An entry as another process sent or stored it: one that does not pass is dropped (robots.txt is read again), never trusted, never a refusal of the request. */
export const SentRobotsEntrySchema = v.pipe(
  v.unknown(),
  v.transform((sent) => {
    const entry = v.safeParse(RobotsEntrySchema, sent);
    return entry.success ? entry.output : undefined;
  }),
);

/** Entries a sidecar reports: those that pass, at most MAX_REPORTED. */
export const SentRobotsEntriesSchema = v.pipe(
  v.array(v.unknown()),
  v.transform((sent) => sent.flatMap((item) => v.parse(SentRobotsEntrySchema, item) ?? []).slice(0, MAX_REPORTED)),
);

/** How long a record holds from its read: 24 h, a failed read (disallowing everything) 10 min. */
export const robotsKeepMs = (record: RobotsRecord): number => (record.kind === "disallow-all" ? FAILED_MS : RULES_MS);
