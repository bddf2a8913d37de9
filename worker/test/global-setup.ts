import type { TestProject } from "vitest/node";
import "./provided-context.d.ts";
import { createSidecarDeps, settingsFromEnv } from "../../sidecar/src/sidecar-deps.ts";
import { createSidecarServer, listen } from "../../sidecar/src/server.ts";
import { send, startOrigin, routes } from "../../test-support/origin.ts";

const ARTICLE = `<!doctype html><html lang="en"><head><title>Local Article</title></head>
<body><nav><a href="/">Home</a></nav><main><h1>Local Article</h1>
<p>The sidecar fetched this page from a loopback origin and turned it into Markdown.</p>
<ul><li>first point</li><li>second point</li></ul></main></body></html>`;

/** A real sidecar (the worker's bindings point at it) and a real origin on 127.0.0.2. */
export default async function setup(project: TestProject) {
  const deps = createSidecarDeps(settingsFromEnv({}));
  const sidecar = createSidecarServer({ token: process.env.TEST_SIDECAR_TOKEN ?? "", deps });
  await listen(sidecar, Number(process.env.TEST_SIDECAR_PORT), "127.0.0.1");

  const origin = await startOrigin("127.0.0.2", routes({
    "/article.html": send(200, "text/html; charset=utf-8", ARTICLE),
    "/notes.txt": send(200, "text/plain; charset=utf-8", "plain notes\nsecond line"),
    "/data.json": send(200, "application/json", JSON.stringify({ name: "widget", size: 3 })),
    "/report.pdf": send(200, "application/pdf", "%PDF-1.7\n%binary"),
    "/missing": send(404, "text/html", "<h1>gone</h1>"),
    "/big.txt": send(200, "text/plain", "x".repeat(50_000)),
    "/to-localhost": send(302, "text/plain", "", { location: "http://localhost/secret" }),
    "/slow": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("start");
      setTimeout(() => res.end("late"), 5_000).unref();
    },
  }));
  project.provide("originUrl", origin.url);

  return async () => {
    await origin.close();
    sidecar.closeAllConnections();
    await new Promise((resolve) => sidecar.close(resolve));
    await deps.dispatchers.close();
  };
}
