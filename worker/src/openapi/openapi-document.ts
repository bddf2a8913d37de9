import { ErrorBodySchema, PROTOCOL_HEADER, PROTOCOL_VERSION, type ErrorCode } from "@edge-web/shared";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { statusesFor } from "../http/status-for.ts";
import { API_ROUTES, type ApiRoute } from "./api-route-table.ts";

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

function errorResponses(route: ApiRoute): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  // Every route behind auth may refuse a caller (401), or a request an open server does not serve (403).
  const auth: ErrorCode[] = route.auth === false ? [] : ["UNAUTHORIZED", "FORBIDDEN"];
  for (const code of new Set([...route.errors, ...auth, ...ALWAYS])) {
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

function operation(route: ApiRoute): Json {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  const query = Object.entries(route.query ?? {}).map(([name, q]) => ({ name, in: "query", required: q.required ?? false, description: q.description, schema: { type: "string" } }));
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
      ? { [ok.type]: { schema: ok.type === "application/json" ? { type: "object" } : { type: "string" } } }
      : undefined;
  return {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description && { description: route.description }),
    ...(route.auth === false && { security: [] }),
    parameters: [...pathParams, ...query, ...headers],
    ...(route.body && {
      requestBody: { required: true, content: { [route.body.type ?? "application/json"]: { schema: jsonSchema(route.body.schema) } } },
    }),
    responses: {
      [String(ok.status)]: { description: ok.description, ...(okContent && { content: okContent }) },
      ...errorResponses(route),
      ...Object.fromEntries(Object.entries(route.otherResponses ?? {}).map(([status, other]) => [status, { description: other.description, content: { [other.type]: { schema: { type: other.type === "application/json" ? "object" : "string" } } } }])),
    },
  };
}

/** The OpenAPI 3.1 document of the API, built from the route table and the schemas that validate requests; `serverUrl` may be relative (the base path). */
export function openApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of API_ROUTES) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  return {
    openapi: "3.1.0",
    info: {
      title: "edge-web-tools",
      version: PROTOCOL_VERSION,
      description:
        "Web search, safe fetching and clean Markdown for AI agents, in sessions you can follow live. With API_TOKENS set, every /api route and /mcp needs `Authorization: Bearer <token>`; without it the service is open.",
    },
    servers: [{ url: serverUrl }],
    tags: ["sessions", "tools", "stream", "agent", "reads", "attachments", "config", "service"].map((name) => ({ name })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: { Error: jsonSchema(ErrorBodySchema) },
    },
  };
}
