import { fail } from "@edge-web/shared";
import { Hono } from "hono";
import * as v from "valibot";
import type { Env } from "../env.ts";
import { jsonError, jsonOk } from "../http/respond.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { validate } from "../http/validate.ts";
import { sessionStub } from "../session/session-stub.ts";

const CreateSessionSchema = v.looseObject({
  source: v.string("source is required: a string naming the agent or client"),
  cwd: v.optional(v.string()),
  model: v.optional(v.string()),
  env: v.optional(v.record(v.string(), v.string())),
});

export const sessionRoutes = new Hono<{ Bindings: Env }>()
  .post("/", async (c) => {
    const body = await readJsonBody(c, "INVALID_JSON");
    if (!body.ok) return jsonError(c, body.error);
    const input = validate(CreateSessionSchema, body.value, "VALIDATION_FAILED");
    if (!input.ok) return jsonError(c, input.error);
    const sessionId = crypto.randomUUID();
    const { source, cwd, model } = input.value;
    await sessionStub(c.env, sessionId)!.create({ sessionId, source, ...(cwd !== undefined && { cwd }), ...(model !== undefined && { model }) });
    return jsonOk(c, { sessionId }, 201);
  })
  .delete("/:id", async (c) => {
    const stub = sessionStub(c.env, c.req.param("id"));
    if (!stub) return jsonError(c, fail("SESSION_NOT_FOUND", "Session not found.").error);
    const ended = await stub.end("deleted");
    if (!ended.ok) {
      // Deleting twice finds nothing to delete.
      const code = ended.error.code === "SESSION_ENDED" ? "SESSION_NOT_FOUND" : ended.error.code;
      return jsonError(c, { ...ended.error, code });
    }
    return jsonOk(c, ended.value);
  });
