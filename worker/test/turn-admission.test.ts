import type { QueueData, SessionMessage, UiMessageChunk } from "@edge-web/shared";
import { describe, expect, inject, it } from "vitest";
import { AgentLoop, type TurnControl } from "../src/agent/turn/agent-loop.ts";
import type { Env } from "../src/env.ts";
import { call, newSession, withConfig } from "./helpers.ts";

const user = (id: string): SessionMessage => ({ id, role: "user", parts: [{ type: "text", text: id }] });
const model = () => ({ role: "user" as const, content: [] });
/** Lets the promise chains of a turn that ended run (no time passes: one macrotask boundary). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The queue's data in `chunks` (all data-pi-queue chunks). */
const queueData = (chunks: UiMessageChunk[]): QueueData[] => chunks.map((c) => (c.type === "data-pi-queue" ? c.data : { steering: [`not a queue chunk: ${c.type}`], followUp: [] }));

/**
 * A loop whose turns end when the test says so; it records the messages that started turns, the
 * turns' controls, and the queue's chunks shown between turns.
 */
function controlledLoop() {
  const started: string[] = [];
  const ends: Array<() => void> = [];
  const controls: TurnControl[] = [];
  const between: UiMessageChunk[] = [];
  const loop = new AgentLoop(
    (message: SessionMessage, control: TurnControl) => {
      started.push(message.id);
      controls.push(control);
      return new Promise<void>((resolve) => ends.push(resolve));
    },
    (chunk) => between.push(chunk),
  );
  return { loop, started, controls, between, endTurn: () => ends.shift()!() };
}

describe("agent loop admission", () => {
  it("reserves the turn before the message is built: a second message meanwhile is refused, steers wait, follow-ups queue", async () => {
    const { loop, started, endTurn } = controlledLoop();
    const first = loop.admit(undefined)!;
    expect(first.starts).toBe(true);
    // The first message is still being built (its images stored): nothing has started, yet the slot is taken.
    expect(loop.running).toBe(true);
    expect(loop.admit(undefined)).toBeUndefined();
    const steer = loop.admit("steer")!;
    const followUp = loop.admit("followUp")!;
    expect([steer.starts, followUp.starts]).toEqual([false, false]);
    // The later messages happen to be built first: they wait behind the reserved turn.
    expect(steer.hand(user("steer"), model)).toBeUndefined();
    expect(followUp.hand(user("follow"), model)).toBeUndefined();
    expect(started).toEqual([]);
    const turn = first.hand(user("first"), model);
    expect(started).toEqual(["first"]);
    expect(loop.pending()).toBe(2);
    endTurn();
    await settle();
    expect(started).toEqual(["first", "steer"]);
    endTurn();
    await settle();
    expect(started).toEqual(["first", "steer", "follow"]);
    endTurn();
    await turn;
    expect(loop.running).toBe(false);
  });

  it("gives the slot back when the message cannot be built, and runs what queued behind it", async () => {
    const { loop, started, endTurn } = controlledLoop();
    const failing = loop.admit(undefined)!;
    loop.admit("followUp")!.hand(user("follow"), model);
    const next = failing.release();
    expect(started).toEqual(["follow"]);
    endTurn();
    await next;
    expect(loop.running).toBe(false);
    const again = loop.admit(undefined)!;
    expect(again.starts).toBe(true);
    again.release();
    expect(loop.running).toBe(false);
  });
});

describe("the queue of waiting messages", () => {
  it("shows each change: queued, delivered where a model call took it, moved on, started, dropped by an abort", async () => {
    const { loop, controls, between, endTurn } = controlledLoop();
    const first = loop.admit(undefined)!.hand(user("first"), model);
    const inTurn: UiMessageChunk[] = [];
    controls[0]!.queue.openMessage((chunk) => inTurn.push(chunk));
    loop.admit("steer")!.hand(user("steer one"), model);
    loop.admit("followUp")!.hand(user("follow"), model);
    controls[0]!.steers.take();
    loop.admit("steer")!.hand(user("steer two"), model);
    controls[0]!.queue.closeMessage();
    expect(queueData(inTurn)).toEqual([
      { steering: ["steer one"], followUp: [] },
      { steering: ["steer one"], followUp: ["follow"] },
      { steering: [], followUp: ["follow"], delivered: ["steer one"] },
      { steering: ["steer two"], followUp: ["follow"] },
    ]);
    expect(between).toEqual([]);

    // The turn ends before a model call takes the second steer: it runs first, as a follow-up, when its turn starts.
    endTurn();
    await settle();
    expect(queueData(between)).toEqual([
      { steering: [], followUp: ["steer two", "follow"] },
      { steering: [], followUp: ["follow"] },
    ]);
    loop.admit("followUp")!.hand(user("later"), model);
    const aborted = loop.abort();
    endTurn();
    await aborted;
    await first;
    expect(queueData(between.slice(2))).toEqual([
      { steering: [], followUp: ["follow", "later"] },
      { steering: [], followUp: [] },
    ]);
    expect(loop.pending()).toBe(0);
  });
});

describe("two image messages sent at once to an idle session", () => {
  const fakes = inject("fakeModels");
  const ENV: Partial<Env> = {
    ...withConfig({}),
    AGENT_CONFIG: JSON.stringify({
      modelProviders: { fake: { api: "openai-compatible", baseURL: fakes.openai.baseURL, apiKey: fakes.openai.apiKey, models: [{ id: "fake-gpt" }] } },
      defaultProvider: "fake",
      defaultModel: "fake-gpt",
    }),
  };
  const png = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a));

  it("start one turn: one is answered 200, the other 409 SESSION_BUSY", async () => {
    for (let round = 0; round < 3; round++) {
      const id = await newSession(ENV);
      const send = () => call("POST", `/api/sessions/${id}/messages`, { message: "look", images: [{ data: png, mimeType: "image/png" }] }, ENV);
      const answers = await Promise.all([send(), send()]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.error.code).toBe("SESSION_BUSY");
      await call("POST", `/api/sessions/${id}/abort`, undefined, ENV);
    }
  });
});
