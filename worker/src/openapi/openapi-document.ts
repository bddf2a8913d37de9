import { ErrorBodySchema, PROTOCOL_HEADER, PROTOCOL_VERSION, type ErrorCode } from "@edge-web/shared";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { statusesFor } from "../http/status-for.ts";
import type { ApiRoute } from "../routes/api-route.ts";
import { API_ROUTES } from "./api-route-table.ts";

type Json = Record<string, unknown>;

const ALWAYS: ErrorCode[] = ["PROTOCOL_VERSION_MISMATCH", "INTERNAL_ERROR"];
const PROTOCOL_HEADER_DESCRIPTION = `The protocol version the client speaks (this server: ${PROTOCOL_VERSION}); another major version answers 426.`;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a valibot schema; checks that JSON Schema cannot say are left out. */
function jsonSchema(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "ignore" }) as Json;
  return rest;
}

/** Every JSON answer carries the protocol version next to its own fields. */
function withProtocolVersion(schema: v.GenericSchema): v.GenericSchema {
  const entries = (schema as { entries?: v.ObjectEntries }).entries;
  if (!entries) return schema;
  const next = { ...entries, protocolVersion: v.string() };
  return schema.type === "loose_object" ? v.looseObject(next) : v.object(next);
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
const operationId = (route: ApiRoute) =>
  route.method + openApiPath(route.path).split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");

/** What the running server asks of callers: a bearer token everywhere (API_TOKENS), the admin token for admin routes (ADMIN_TOKEN), or nothing. */
export interface ServerAuth {
  bearer: boolean;
  admin: boolean;
}

/** Whether an operation needs a bearer token on this server. */
const needsBearer = (route: ApiRoute, auth: ServerAuth) => route.auth !== false && (auth.bearer || (auth.admin && route.auth === "admin"));

function errorResponses(route: ApiRoute, auth: ServerAuth): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  // Every route behind auth may refuse a caller without a valid token (401, only when tokens are required),
  // or a request this server does not serve (403).
  const refusals: ErrorCode[] = route.auth === false ? [] : needsBearer(route, auth) ? ["UNAUTHORIZED", "FORBIDDEN"] : ["FORBIDDEN"];
  for (const code of new Set([...route.errors, ...refusals, ...ALWAYS])) {
    for (const status of statusesFor(code)) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [
      String(status),
      {
        description: codes.map((code) => `\`${code}\``).join(", "),
        content: {
          "application/json": {
            schema: { allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { error: { properties: { code: { enum: codes } } } } }] },
          },
        },
      },
    ]),
  );
}

const requiredOneOf = (keys: readonly string[]) => keys.map((key) => ({ required: [key] }));

/**
 * A request body's schema, with what the route needs beyond its types (`needs`: at least one, or
 * exactly one, of some keys; `onlyWith`: keys allowed only next to one of some others).
 */
function bodySchema(body: NonNullable<ApiRoute["body"]>): Json {
  const schema = jsonSchema(body.schema);
  const needs = body.needs && ("anyOf" in body.needs ? { anyOf: requiredOneOf(body.needs.anyOf) } : { oneOf: requiredOneOf(body.needs.oneOf) });
  const onlyWith = body.onlyWith && { dependentSchemas: Object.fromEntries(Object.entries(body.onlyWith).map(([key, others]) => [key, { anyOf: requiredOneOf(others) }])) };
  return { ...schema, ...needs, ...onlyWith };
}

/** A success body that is not JSON: text, an event stream, or a file of any type. */
const rawSchema = (type: string): Json => (type === "application/json" ? { type: "object" } : type === "*/*" ? { type: "string", contentMediaType: "application/octet-stream" } : { type: "string" });

function operation(route: ApiRoute, auth: ServerAuth): Json {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => {
    const values = route.pathValues?.[name!];
    return { name, in: "path", required: true, schema: values ? { type: "string", enum: [...values] } : { type: "string" } };
  });
  const query = Object.entries(route.query?.entries ?? {}).map(([name, entry]) => {
    const { description, ...schema } = jsonSchema(entry);
    return { name, in: "query", required: entry.type !== "optional", description, schema };
  });
  const headers = Object.entries({ ...route.headers, [PROTOCOL_HEADER]: PROTOCOL_HEADER_DESCRIPTION }).map(([name, description]) => ({
    name,
    in: "header",
    required: false,
    description,
    schema: { type: "string" },
  }));
  const ok = route.ok;
  const okContent = ok.schema
    ? { "application/json": { schema: jsonSchema(withProtocolVersion(ok.schema)) } }
    : ok.type
      ? { [ok.type]: { schema: rawSchema(ok.type) } }
      : undefined;
  return {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description && { description: route.description }),
    // The document's default is the server's: open routes on a token server, and admin routes on an open one, say otherwise.
    ...(auth.bearer && route.auth === false && { security: [] }),
    ...(!auth.bearer && needsBearer(route, auth) && { security: [{ bearerAuth: [] }] }),
    parameters: [...pathParams, ...query, ...headers],
    ...(route.body && {
      requestBody: { required: true, content: { [route.body.type ?? "application/json"]: { schema: bodySchema(route.body) } } },
    }),
    responses: {
      [String(ok.status)]: { description: ok.description, ...(okContent && { content: okContent }) },
      ...errorResponses(route, auth),
      ...Object.fromEntries(Object.entries(route.otherResponses ?? {}).map(([status, other]) => [status, { description: other.description, content: { [other.type]: { schema: { type: other.type === "application/json" ? "object" : "string" } } } }])),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the API, built from the route table and the schemas that validate requests;
 * `serverUrl` may be relative (the base path). `auth` is what this server requires, so the document says it.
 */
export function openApiDocument(serverUrl: string, auth: ServerAuth): Json {
  const paths: Record<string, Json> = {};
  for (const route of API_ROUTES) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route, auth);
  return {
    openapi: "3.1.0",
    info: {
      title: "edge-web-tools",
      version: PROTOCOL_VERSION,
      description: `Web search, safe fetching and clean Markdown for AI agents, in sessions you can follow live. ${
        auth.bearer
          ? "This server requires `Authorization: Bearer <token>` on every /api route and /mcp (API_TOKENS)."
          : "This server requires no token (no API_TOKENS set): it answers only requests addressed to this machine or a name in SERVED_HOSTNAMES."
      }${auth.admin || auth.bearer ? " Reading and changing the configuration needs the admin token (ADMIN_TOKEN) as the bearer token." : ""}`,
    },
    servers: [{ url: serverUrl }],
    tags: ["sessions", "tools", "stream", "agent", "reads", "attachments", "config", "service"].map((name) => ({ name })),
    // An open server says so (an empty requirement): a document without one reads as security forgotten.
    security: auth.bearer ? [{ bearerAuth: [] }] : [],
    paths,
    components: {
      ...((auth.bearer || auth.admin) && { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } }),
      schemas: { Error: jsonSchema(ErrorBodySchema) },
    },
  };
}
