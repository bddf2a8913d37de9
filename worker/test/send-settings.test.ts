import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../src/config/load-settings.ts";
import type { Env } from "../src/env.ts";
import { sendSettings } from "../src/http/send-settings.ts";
import { NEED_SETTINGS } from "../src/session/need-settings.ts";
import { setBounded } from "../src/set-bounded.ts";

async function settings() {
  const loaded = await loadSettings(env as unknown as Env);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

describe("settings sent to a session object", () => {
  it("sends them whole first, then their id; an object that lost them answers needSettings and gets them whole again", async () => {
    const current = await settings();
    const sessionId = crypto.randomUUID();
    let holds: string | undefined;
    const seen: Array<"whole" | "id"> = [];
    const object = async (sent: typeof current | string) => {
      seen.push(typeof sent === "string" ? "id" : "whole");
      if (typeof sent !== "string") holds = sent.id;
      return typeof sent === "string" && sent !== holds ? NEED_SETTINGS : { answered: true };
    };
    expect(await sendSettings(sessionId, current, object)).toEqual({ answered: true });
    expect(await sendSettings(sessionId, current, object)).toEqual({ answered: true });
    holds = undefined; // the object restarted
    expect(await sendSettings(sessionId, current, object)).toEqual({ answered: true });
    expect(seen).toEqual(["whole", "id", "id", "whole"]);
  });
});

describe("a bounded memory", () => {
  it("forgets its oldest entry past its capacity, and a key set again counts as new", () => {
    const map = new Map<string, number>();
    for (const key of ["a", "b", "c"]) setBounded(map, key, 1, 3);
    setBounded(map, "a", 2, 3);
    setBounded(map, "d", 1, 3);
    expect([...map.keys()]).toEqual(["c", "a", "d"]);
    expect(map.get("a")).toBe(2);
  });
});
