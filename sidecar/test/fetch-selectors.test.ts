import { DEFAULT_WEB_CONFIG, fetchOptionsFrom, type FetchOptions, type RenderMode } from "@edge-web/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startOrigin, routes, type Origin } from "../../test-support/origin.ts";
import { fetchContent, type FetchContentRequest } from "../src/fetch/fetch-content.ts";
import { createSidecarDeps, settingsFromEnv } from "../src/sidecar-deps.ts";

const PROSE = "The article explains how the harbour's tide gauge is read twice a day, and what the readings are used for.";
const SCRIPTS = "<script>var a = 1;</script>".repeat(4);
const STATIC = `<!doctype html><html><head><title>Static page</title></head><body><main><article><h1>Static page</h1><p>${PROSE}</p>
<div id="answer"><p>The gauge reads 3.2 metres at high water.</p><p class="banner">Accept our cookies to continue.</p></div><p>${PROSE} Again.</p></article></main></body></html>`;
/** A page whose script writes what the selectors name: only a browser sees it. */
const SCRIPTED = `<!doctype html><html><head><title>Scripted page</title>${SCRIPTS}</head><body><div id="root"></div><script>
document.getElementById("root").innerHTML = "<article><h1>Scripted page</h1><p>${PROSE}</p><div id='answer'><p>The script wrote that the gauge reads 3.2 metres.</p><p class='banner'>Accept our cookies to continue.</p></div></article>";
</script></body></html>`;

let origin: Origin;
let deps: ReturnType<typeof createSidecarDeps>;
const options = (over: Partial<FetchOptions> = {}): FetchOptions => ({ ...fetchOptionsFrom(DEFAULT_WEB_CONFIG), allowHosts: ["127.0.0.2"], timeoutMs: 8_000, ...over });
const read = (path: string, render: RenderMode, selectors: Pick<FetchContentRequest, "includeSelectors" | "excludeSelectors">) =>
  fetchContent({ url: `${origin.url}${path}`, preferReader: false, render, options: options(), ...selectors }, deps);

beforeAll(async () => {
  deps = createSidecarDeps(settingsFromEnv({}));
  origin = await startOrigin(
    "127.0.0.2",
    routes({ "/static.html": send(200, "text/html", STATIC), "/static-with-scripts.html": send(200, "text/html", STATIC.replace("</head>", `${SCRIPTS}</head>`)), "/scripted.html": send(200, "text/html", SCRIPTED), "/data.json": send(200, "application/json", '{"gauge":3.2}') }),
  );
});

afterAll(async () => {
  await deps.renderer.close();
  await origin.close();
  await deps.dispatchers.close();
});

describe("fetch_content's selectors through the pipeline", () => {
  it("reads only what includeSelectors match, without what excludeSelectors match, from the served page", async () => {
    const answer = await read("/static.html", "never", { includeSelectors: ["#answer"], excludeSelectors: [".banner"] });
    if (!answer.ok || !("value" in answer)) throw new Error(JSON.stringify(answer));
    expect(answer.value.content).toBe("The gauge reads 3.2 metres at high water.");
    expect(answer.value.metadata).toMatchObject({ extraction: "selectors" });
    expect(answer.value.parseWarning).toBeUndefined();
  });

  it("applies them to the rendered page, the one a browser built", async () => {
    expect(deps.renderer.available).toBe(true);
    const answer = await read("/scripted.html", "always", { includeSelectors: ["#answer"], excludeSelectors: [".banner"] });
    if (!answer.ok || !("value" in answer)) throw new Error(JSON.stringify(answer));
    expect(answer.value.content).toBe("The script wrote that the gauge reads 3.2 metres.");
    expect(answer.value.metadata).toMatchObject({ rendered: true, extraction: "selectors" });
    expect(answer.value.parseWarning).toBeUndefined();
  });

  it('under render "auto", a script-built page whose served HTML the selectors miss is rendered and read by them', async () => {
    const answer = await read("/scripted.html", "auto", { includeSelectors: ["#answer"] });
    if (!answer.ok || !("value" in answer)) throw new Error(JSON.stringify(answer));
    expect(answer.value.content).toBe("The script wrote that the gauge reads 3.2 metres.\n\nAccept our cookies to continue.");
    expect(answer.value.metadata).toMatchObject({ rendered: true, extraction: "selectors" });
  });

  it('under render "auto", a short selection of a page that is not script-built is read as served', async () => {
    const answer = await read("/static-with-scripts.html", "auto", { includeSelectors: ["#answer p:first-child"] });
    if (!answer.ok || !("value" in answer)) throw new Error(JSON.stringify(answer));
    expect(answer.value.content).toBe("The gauge reads 3.2 metres at high water.");
    expect(answer.value.metadata?.rendered).toBeUndefined();
  });

  it("answers the page with a parseWarning when a selector matches nothing, or the page is not HTML", async () => {
    const missed = await read("/static.html", "never", { includeSelectors: ["#nowhere"] });
    if (!missed.ok || !("value" in missed)) throw new Error(JSON.stringify(missed));
    expect(missed.value.content).toContain(PROSE);
    expect(missed.value.parseWarning).toBe('includeSelectors: "#nowhere" matched nothing on this page; its main content is shown instead');
    const json = await read("/data.json", "never", { excludeSelectors: [".banner"] });
    if (!json.ok || !("value" in json)) throw new Error(JSON.stringify(json));
    expect(json.value.content).toContain('"gauge": 3.2');
    expect(json.value.parseWarning).toBe("includeSelectors and excludeSelectors apply to HTML pages; this page (JSON) was read whole");
  });
});
