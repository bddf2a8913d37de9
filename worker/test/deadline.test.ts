import { deadlineIn } from "@edge-web/shared";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { loadSettings } from "../src/config/load-settings.ts";
import type { Env } from "../src/env.ts";
import type { SessionObject } from "../src/session/session-object.ts";
import { answerByDeadline, deadlinePassed } from "../src/tools/tool-deadline.ts";
import { waitFor } from "../../test-support/wait-for.ts";
import { call, newSession, tool, withConfig } from "./helpers.ts";

const origin = inject("originUrl");
const attacker = inject("attackerUrl");
const bindings = env as unknown as Env;
const sessions = bindings.SESSIONS as DurableObjectNamespace<SessionObject>;
const stubOf = (id: string) => sessions.get(sessions.idFromName(id));

/** The recording server on 127.0.0.9 stands in for an origin: what it received is what the sidecar was asked to fetch. */
const CONFIG = withConfig({ allowHosts: ["127.0.0.2", "127.0.0.9"], timeoutMs: 1_000 });
const reached = async (path: string) => ((await (await fetch(`${attacker}/__received`)).json()) as Array<{ url: string }>).some((r) => r.url === path);

async function settings() {
  const loaded = await loadSettings({ ...bindings, ...CONFIG });
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

describe("a call's deadline runs from when the worker received it", () => {
  it("answers CONTENT_FETCH_TIMEOUT without asking the sidecar when the deadline passed on the way to the session object", async () => {
    const id = await newSession(CONFIG);
    const path = `/deadline-passed-${crypto.randomUUID()}`;
    const late = (await stubOf(id).callTool("fetch_content", { url: `${attacker}${path}` }, await settings(), Date.now() - 5_000)) as { ok: boolean; error?: { code: string; message: string } };
    expect(late).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_TIMEOUT", message: expect.stringMatching(/could not start within its 1000 ms deadline/) } });

    // The same call received just now is fetched: it is the passed deadline that kept it from the sidecar.
    const onTime = `/deadline-on-time-${crypto.randomUUID()}`;
    const fetched = (await stubOf(id).callTool("fetch_content", { url: `${attacker}${onTime}` }, await settings(), Date.now())) as { ok: boolean };
    expect(fetched.ok).toBe(true);
    expect(await reached(onTime)).toBe(true);
    expect(await reached(path)).toBe(false);
  });

  it("runs a direct call whose whole deadline is shorter than the answer's reserve, ending its work a quarter early at most", async () => {
    const config = withConfig({ allowHosts: ["127.0.0.2", "127.0.0.9"], timeoutMs: 250 });
    const id = await newSession(config);
    const loaded = await loadSettings({ ...bindings, ...config });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const quick = `/short-budget-${crypto.randomUUID()}`;
    const fetched = (await stubOf(id).callTool("fetch_content", { url: `${attacker}${quick}` }, loaded.value, Date.now())) as { ok: boolean };
    expect(fetched.ok).toBe(true);
    expect(await reached(quick)).toBe(true);
  });

  it("a call whose deadline passes while it waits in the session's queue answers the timeout code, and the sidecar never hears of it", async () => {
    const config = withConfig({ allowHosts: ["127.0.0.2", "127.0.0.9"], timeoutMs: 4_000, concurrency: { maxConcurrent: 1, maxQueueSize: 10 } });
    const id = await newSession(config);
    const holder = tool(id, "fetch_content", { url: `${origin}/delay?ms=2500` }, config);
    await waitFor(async () => (await call("GET", `/api/sessions/${id}/state`, undefined, config)).body.state.pendingMessageCount === 1, "the first call on the session's slot");
    // Received 3.5 s ago (it waited for CPU on its way here): 0.5 s left, spent in the queue behind the first call's 2.5 s.
    const path = `/queued-${crypto.randomUUID()}`;
    const loaded = await loadSettings({ ...bindings, ...config });
    if (!loaded.ok) throw new Error(loaded.error.message);
    const queued = (await stubOf(id).callTool("fetch_content", { url: `${attacker}${path}` }, loaded.value, Date.now() - 3_500)) as { ok: boolean; error?: { code: string; message: string } };
    expect(queued).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_TIMEOUT", message: expect.stringMatching(/waited \d+ ms in this session's queue/) } });
    expect((await holder).status).toBe(200);
    expect(await reached(path)).toBe(false);
  });
});

describe("answerByDeadline", () => {
  const late = () => deadlinePassed("fetch", 100);

  it("answers the tool's timeout code once the deadline passes, however long the work is stuck", async () => {
    let settle: (value: { ok: true; value: string }) => void = () => {};
    const stuck = new Promise<{ ok: true; value: string } | ReturnType<typeof late>>((resolve) => (settle = resolve));
    const answer = await answerByDeadline(stuck, deadlineIn(100), late);
    expect(answer).toMatchObject({ ok: false, error: { code: "CONTENT_FETCH_TIMEOUT", message: expect.stringMatching(/100 ms deadline \(web\.timeoutMs\)/) } });
    settle({ ok: true, value: "too late" });
  });

  it("answers the work's own answer when it comes first, and a failure of work already answered for is not thrown", async () => {
    const page: Promise<{ ok: true; value: string } | ReturnType<typeof late>> = Promise.resolve({ ok: true, value: "page" });
    expect(await answerByDeadline(page, deadlineIn(5_000), late)).toEqual({ ok: true, value: "page" });
    await expect(answerByDeadline(Promise.reject(new Error("session object gone")), deadlineIn(5_000), late)).rejects.toThrow("session object gone");
    // A deadline already passed answers at once; the work failing afterwards is nobody's concern.
    expect(await answerByDeadline(Promise.reject(new Error("late failure")), deadlineIn(0), late)).toMatchObject({ error: { code: "CONTENT_FETCH_TIMEOUT" } });
  });
});
