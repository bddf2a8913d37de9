import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, type Origin, routes } from "../test-support/origin.ts";
import { startStack, type Stack } from "../test-support/stack.ts";
import { waitFor } from "../test-support/wait-for.ts";

const SECRET = "sekrit-query-token-0123456789";
const BRAVE_KEY = "BSA-e2e-key-should-never-print";

describe("the tool-call path over npm start's stack", () => {
  let origin: Origin;
  let stack: Stack;
  const persist = mkdtempSync(join(tmpdir(), "edge-web-path-"));

  beforeAll(async () => {
    origin = await startOrigin("127.0.0.2", routes({ "/big.txt": send(200, "text/plain", "z".repeat(40_000)) }));
    stack = await startStack({
      WEB_CONFIG: JSON.stringify({ allowHosts: ["127.0.0.2"], maxStoredContentChars: 2_000, debug: "verbose" }),
      BRAVE_SEARCH_API_KEY: BRAVE_KEY,
      PERSIST_DIR: persist,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await origin?.close();
    rmSync(persist, { recursive: true, force: true });
  });

  /** The first tool-call log line `matching`: npm start prints the worker's log lines as they come. */
  const toolCallLine = (matching: (text: string) => boolean, what: string) =>
    waitFor(
      () =>
        stack.output
          .join("")
          .split("\n")
          .map((text) => text.slice(text.indexOf("{")))
          .filter((text) => text.startsWith('{"event":"tool_call"') && matching(text))
          .map((text) => JSON.parse(text))[0],
      what,
      { timeoutMs: 10_000, intervalMs: 250 },
    );

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };

  it("caps stored copies, logs one line per call with step timings and no secrets, and forgets deleted sessions", async () => {
    const id = (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId;
    const fetched = await api("POST", `/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/big.txt?token=${SECRET}` });
    expect(fetched.status).toBe(200);
    expect(fetched.body.results[0].content).toHaveLength(30_000);
    expect(fetched.headers.get("x-content-type-options")).toBe("nosniff");

    const { messages } = (await api("GET", `/api/sessions/${id}/messages?format=ui`)).body;
    expect(messages[0].parts[0].output.results[0].content).toHaveLength(2_000);
    expect(messages[0].parts[0].output.responseId).toBe(fetched.body.responseId);

    const line = await toolCallLine(() => true, "the tool call's log line");
    expect(line).toMatchObject({ event: "tool_call", tool: "fetch_content", sessionId: id, outcome: "ok", urls: 1 });
    expect(Object.keys(line.steps)).toEqual(expect.arrayContaining(["session-queue", "sidecar.vet", "sidecar.connect", "sidecar.read", "sidecar.extract"]));
    const printed = stack.output.join("");
    expect(printed).not.toContain(SECRET);
    expect(printed).not.toContain(BRAVE_KEY);

    expect((await api("DELETE", `/api/sessions/${id}`)).status).toBe(200);
    for (const path of ["state", "messages", "stats"]) expect((await api("GET", `/api/sessions/${id}/${path}`)).body.error.code).toBe("SESSION_NOT_FOUND");
    const after = await api("POST", `/api/sessions/${id}/tools/get_search_content`, { responseId: fetched.body.responseId });
    expect(after).toMatchObject({ status: 404, body: { error: { code: "SESSION_NOT_FOUND" } } });
  });

  it("at web.debug trace, logs when each boundary of the call was passed, in order, with the sidecar's round trip", async () => {
    expect((await api("PUT", "/api/config/settings", { values: { debug: "trace" } })).status).toBe(200);
    try {
      const id = (await api("POST", "/api/sessions", { source: "e2e" })).body.sessionId;
      // maxAge 0: read from the origin, past the fetch cache the earlier test filled, so the sidecar is traced.
      expect((await api("POST", `/api/sessions/${id}/tools/fetch_content`, { url: `${origin.url}/big.txt?token=${SECRET}`, maxAge: 0 })).status).toBe(200);
      const line = await toolCallLine((text) => text.includes(id), "the traced call's log line");
      expect(Object.keys(line.phases)).toEqual(["opened", "settings", "entered", "ran", "flushed", "returned"]);
      const times = Object.values(line.phases) as number[];
      expect(times.every((t, i) => t >= 0 && (i === 0 || t >= times[i - 1]!))).toBe(true);
      expect(line.ms).toBeGreaterThanOrEqual(times.at(-1)!);
      // The worker's clock counts whole milliseconds (and moves only across I/O); the sidecar's has fractions.
      expect(line.steps.sidecar + 1).toBeGreaterThanOrEqual(line.steps["sidecar.extract"]);
      expect(stack.output.join("")).not.toContain(SECRET);
    } finally {
      await api("PUT", "/api/config/settings", { values: { debug: "verbose" } });
    }
  });
});
