import * as v from "valibot";

/**
 * pi's command shapes, as the original pi-web client reads them (GET /commands). Written from how
 * the client uses them: it lists a command as "/" + `name`, sends "/" + `name` + arguments as a
 * message, and hides commands whose `source` is "extension" unless told otherwise. Unknown keys are
 * allowed, as the client ignores them.
 */

/** Where a command comes from (pi's SourceInfo). */
export const PiSourceInfoSchema = v.looseObject({
  path: v.string(),
  source: v.string(),
  scope: v.picklist(["user", "project", "temporary"]),
  origin: v.picklist(["package", "top-level"]),
  baseDir: v.optional(v.string()),
});

/** One slash command (pi's RpcSlashCommand); the client puts the slash in front of `name` itself. */
export const PiSlashCommandSchema = v.looseObject({
  name: v.pipe(v.string(), v.regex(/^[^/\s]\S*$/, "a command name is a word without a leading slash")),
  description: v.optional(v.string()),
  source: v.picklist(["extension", "prompt", "skill"]),
  sourceInfo: PiSourceInfoSchema,
});

export const PiCommandsResponseSchema = v.looseObject({ commands: v.array(PiSlashCommandSchema) });
