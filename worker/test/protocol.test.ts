import { describe, expect, it } from "vitest";
import { call } from "./helpers.ts";

describe("protocol conventions", () => {
  it("stamps every response with the protocol version header and body field", async () => {
    const res = await call("POST", "/api/sessions", { source: "t" });
    expect(res.status).toBe(201);
    expect(res.headers.get("X-Pi-Protocol-Version")).toBe("0.1.0");
    expect(res.body.protocolVersion).toBe("0.1.0");
  });

  it("answers 426 PROTOCOL_VERSION_MISMATCH to another major version", async () => {
    const res = await call("POST", "/api/sessions", { source: "t" }, {}, { "X-Pi-Protocol-Version": "1.0.0" });
    expect(res.status).toBe(426);
    expect(res.body.error.code).toBe("PROTOCOL_VERSION_MISMATCH");
    expect(res.headers.get("X-Pi-Protocol-Version")).toBe("0.1.0");
  });

  it("accepts the same major version", async () => {
    const res = await call("POST", "/api/sessions", { source: "t" }, {}, { "X-Pi-Protocol-Version": "0.2.0" });
    expect(res.status).toBe(201);
  });

  it("answers unknown routes with a JSON 404", async () => {
    const res = await call("GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: "ROUTE_NOT_FOUND" }, protocolVersion: "0.1.0" });
  });

  it("reports healthy only while the sidecar answers", async () => {
    expect((await call("GET", "/healthz")).status).toBe(200);
    const down = await call("GET", "/healthz", undefined, { SIDECAR_URL: "http://127.0.0.1:9" });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe("SIDECAR_UNAVAILABLE");
  });
});

describe("sessions", () => {
  it("creates a session with a UUID", async () => {
    const res = await call("POST", "/api/sessions", { source: "/agent", cwd: "/w", model: "m", env: { A: "1" } });
    expect(res.status).toBe(201);
    expect(res.body.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("requires source, with the field path", async () => {
    const res = await call("POST", "/api/sessions", { cwd: "/w" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", fields: ["source"] });
  });

  it("rejects wrong types with every field path", async () => {
    const res = await call("POST", "/api/sessions", { source: 1, cwd: 2, model: false });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual(["source", "cwd", "model"]);
  });

  it("rejects invalid JSON", async () => {
    const res = await call("POST", "/api/sessions", "{nope");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_JSON");
  });

  it("deletes a session; a second delete and unknown ids are 404", async () => {
    const created = await call("POST", "/api/sessions", { source: "t" });
    const id = created.body.sessionId;
    const deleted = await call("DELETE", `/api/sessions/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.ok).toBe(true);
    expect((await call("DELETE", `/api/sessions/${id}`)).body.error.code).toBe("SESSION_NOT_FOUND");
    expect((await call("DELETE", `/api/sessions/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await call("DELETE", "/api/sessions/not-a-uuid")).status).toBe(404);
  });
});

describe("limits and settings at the boundary", () => {
  it("refuses JSON bodies over 1 MiB, declared or streamed, and keeps serving", async () => {
    const big = JSON.stringify({ source: "x".repeat(1_100_000) });
    const declared = await call("POST", "/api/sessions", big);
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    const { createApp } = await import("../src/app.ts");
    const { env } = await import("cloudflare:workers");
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(100_000)));
        controller.close();
      },
    });
    const streamed = await createApp().request("/api/sessions", { method: "POST", body: chunks, duplex: "half" } as RequestInit, env);
    expect(streamed.status).toBe(413);
    expect((await call("POST", "/api/sessions", { source: "after" })).status).toBe(201);
  });

  it("refuses a body nested more than 128 levels deep as bad input, and keeps serving", async () => {
    const created = await call("POST", "/api/sessions", { source: "t" });
    const tool = `/api/sessions/${created.body.sessionId}/tools/fetch_content`;
    const nested = (levels: number) => `${'{"url":'.repeat(levels)}"http://127.0.0.2/"${"}".repeat(levels)}`;
    for (const [path, code] of [[tool, "INVALID_INPUT"], ["/api/sessions", "INVALID_JSON"]] as const) {
      const deep = await call("POST", path, nested(100_000));
      expect(deep.status).toBe(400);
      expect(deep.body.error).toMatchObject({ code, message: expect.stringContaining("more than 128 levels deep") });
    }
    // 128 levels pass the reading: the tool then finds no URL in them, as in any body it cannot use.
    const deepest = await call("POST", tool, nested(128));
    expect(deepest.body.error).toMatchObject({ code: "INVALID_INPUT", message: expect.not.stringContaining("levels deep") });
    expect((await call("POST", "/api/sessions", { source: "after" })).status).toBe(201);
  });

  it("answers 500 naming the field when WEB_CONFIG is invalid", async () => {
    const bad = { WEB_CONFIG: JSON.stringify({ timeoutMs: "soon" }) };
    const created = await call("POST", "/api/sessions", { source: "t" }, bad);
    const res = await call("POST", `/api/sessions/${created.body.sessionId}/tools/fetch_content`, { url: "http://127.0.0.2/" }, bad);
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ code: "INTERNAL_ERROR", fields: ["timeoutMs"] });
    expect(res.body.error.message).toMatch(/WEB_CONFIG/);
    const notJson = await call("POST", `/api/sessions/${created.body.sessionId}/tools/fetch_content`, { url: "http://127.0.0.2/" }, { WEB_CONFIG: "{nope" });
    expect(notJson.body.error.message).toMatch(/WEB_CONFIG is not valid JSON/);
  });
});
