import { readFileSync } from "node:fs";
import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, resolveConfig, WebConfigSchema, type FetchOptions } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, routes, type Origin } from "../../test-support/origin.ts";
import { fetchContent } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

let origin: Origin;
let deps: ReturnType<typeof createSidecarDeps>;
const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 4_000, ...over });
const userAgentSeen = async (over: Partial<FetchOptions> = {}) => {
  await fetchContent({ url: `${origin.url}/page`, preferReader: false, render: "never", options: options(over) }, deps);
  return origin.requests.at(-1)?.headers["user-agent"];
};

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin(
    "127.0.0.2",
    routes({
      "/page": send(200, "text/plain", "hello"),
      // A page that writes what its browser says it is.
      "/who.html": send(200, "text/html", `<!doctype html><html><head><title>Who</title></head><body><main><p id="ua"></p></main><script>document.getElementById("ua").textContent = "Browser says: " + navigator.userAgent;</script></body></html>`),
    }),
  );
});

afterAll(async () => {
  await deps.renderer.close();
  await origin.close();
  await deps.dispatchers.close();
});

describe("the User-Agent", () => {
  it("names the product token and the sidecar's version, and nothing a browser would send", async () => {
    const seen = await userAgentSeen();
    expect(seen).toBe(`EdgeWebTools/${version} (web tools for AI agents)`);
    expect(seen).not.toMatch(/Mozilla|Chrome|Safari/);
  });

  it("adds web.userAgentUrl when the operator sets one, for sites to read about us", async () => {
    expect(await userAgentSeen({ userAgentUrl: "https://ops.example/about-our-bot" })).toBe(`EdgeWebTools/${version} (web tools for AI agents) (+https://ops.example/about-our-bot)`);
  });

  it("is the rendering browser's too: the page's requests and navigator.userAgent say who we are", async () => {
    const answer = await fetchContent({ url: `${origin.url}/who.html`, preferReader: false, render: "always", options: options({ userAgentUrl: "https://ops.example/bot" }) }, deps);
    const ours = `EdgeWebTools/${version} (web tools for AI agents) (+https://ops.example/bot)`;
    expect(answer.ok && answer.value.content).toContain(`Browser says: ${ours}`);
    const browserRead = origin.requests.find((request) => request.url === "/who.html" && request.headers["sec-fetch-mode"] === "navigate");
    expect(browserRead?.headers["user-agent"]).toBe(ours);
  });

  it("takes web.userAgentUrl only as an http(s) URL, and leaves it out by default", () => {
    expect(fetchOptionsFrom(DEFAULT_WEB_CONFIG).userAgentUrl).toBe("");
    expect(resolveConfig(WebConfigSchema, { userAgentUrl: "https://ops.example/bot" }).ok).toBe(true);
    expect(resolveConfig(WebConfigSchema, { userAgentUrl: "javascript:alert(1)" })).toMatchObject({ ok: false, error: { fields: ["userAgentUrl"] } });
  });
});
