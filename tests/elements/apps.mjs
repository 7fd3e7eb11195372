// <mcp-app-frame> against real MCP Apps, in Debian's headless chromium (playwright-core).
//
//   flock /tmp/mcp-ports.lock node tests/elements/apps.mjs      (needs pkg/lean-web; ELEMENTS_APPS_PORTS="a-b")
//
// Peers: apps/server.mjs, a TypeScript SDK 2.4.0 server with the official ext-apps server helpers,
// on two ports (servers "a" and "b"), serving apps/view.js (the official View SDK `App`, bundled
// into one HTML file at start) and apps/hostile.html (our own). The page (pages/apps.html, a strict
// CSP) is served from the repository root on one origin, the sandbox proxy (pkg-template/
// mcp-app-sandbox.html) by a second static server on another. Prints one line per step, then
// "elements-apps: N passed, M failed (...)"; exits non-zero on failure; stops its servers by PID.
// The steps are in apps-steps-view.mjs (the element and its view), apps-steps-lifecycle.mjs (proxy,
// teardown, cancel, CSP), apps-steps-host.mjs (streamed input, downloads, sampling, the app's own
// tools) and apps-steps-hostile.mjs (group, legacy, errors, removal, hostile app and proxy page);
// what they share in apps-lib.mjs.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, expect, freePorts, launchChromium, needWebPackage, runMain, start, waitHttp } from "../e2e/lib.mjs";
import { steps, step } from "./apps-lib.mjs";
import { moduleLoadStep, readmeStep, readmeBlockStep, optionsStep, contextAndSizeSteps, requestSteps } from "./apps-steps-view.mjs";
import { proxySteps, teardownStep, teardownUnderLoadStep, cancelStep, cspSteps } from "./apps-steps-lifecycle.mjs";
import { groupStep, legacyStep, showAndErrorSteps, removalStep, hostileSteps, proxyPageSteps } from "./apps-steps-hostile.mjs";
import { streamingSteps, downloadSteps, samplingSteps, appToolSteps } from "./apps-steps-host.mjs";

const PORTS = process.env.ELEMENTS_APPS_PORTS ?? "18940-18959";
const started = Date.now();

async function main() {
  needWebPackage();
  await nodeSteps();
  const [pageP, proxyP, aP, bP] = await freePorts(4, PORTS);
  const A = `http://127.0.0.1:${aP}`;
  const B = `http://127.0.0.1:${bP}`;
  const web = start("page server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", ROOT, String(pageP)]);
  const proxy = start("proxy server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", path.join(ROOT, "pkg-template"), String(proxyP)]);
  const peer = start("apps peer", "node", ["tests/elements/apps/server.mjs", String(aP), String(bP)]);
  await Promise.all([
    waitHttp(`http://127.0.0.1:${pageP}/tests/elements/pages/apps.html`, web),
    waitHttp(`http://127.0.0.1:${proxyP}/mcp-app-sandbox.html`, proxy),
    waitHttp(`${A}/test/stats`, peer, 30_000),
    waitHttp(`${B}/test/stats`, peer, 30_000),
  ]);
  const SANDBOX = `http://127.0.0.1:${proxyP}/mcp-app-sandbox.html`;
  console.log(`# page http://127.0.0.1:${pageP} (pid ${web.pid}), proxy ${SANDBOX} (pid ${proxy.pid}), peer ${A} + ${B} (pid ${peer.pid})`);

  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const pageErrors = [];
    const warnings = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "warning") warnings.push(m.text()); });
    await page.goto(`http://127.0.0.1:${pageP}/tests/elements/pages/apps.html?a=${encodeURIComponent(A + "/mcp")}&b=${encodeURIComponent(B + "/mcp")}&sandbox=${encodeURIComponent(SANDBOX)}`);
    await page.waitForSelector("body[data-ready]", { state: "attached" });
    const env = { page, context, A, B, SANDBOX, proxyOrigin: `http://127.0.0.1:${proxyP}`, pageErrors, warnings };
    await browserSteps(env);
    await step("no uncaught error in the page", async () => expect(pageErrors.length === 0, pageErrors.join("\n")));
  } finally {
    await browser.close();
  }
}

// ------------------------------------------------------------------------------ Node

async function nodeSteps() {
  await step("Node: app-frame.js loads without a DOM; callTool rejects with an unsupported McpError", async () => {
    const wasm = (await import(pathToFileURL(path.join(ROOT, "pkg/nodejs/mcp_wasm_client.js")).href)).default;
    const { appFrameClass } = await import(pathToFileURL(path.join(ROOT, "pkg-template/elements/app-frame.js")).href);
    const AppFrame = appFrameClass(wasm);
    const frame = new AppFrame();
    const e = await frame.callTool("show_chart", {}).then(() => null, (x) => x);
    expect(e instanceof wasm.McpError, `an McpError: ${e}`);
    expect(e.data?.kind === "unsupported" && /needs a page \(DOM\)/.test(e.message), `${e.message} ${JSON.stringify(e.data)}`);
    const t = await frame.teardown().then(() => "ok", (x) => String(x));
    expect(t === "ok", `teardown without a view: ${t}`);
  });
}

// ------------------------------------------------------------------------------ browser

async function browserSteps(env) {
  const { page, A, B } = env;
  await step("the page loads the package's elements as the browser entry binds them: <mcp-app-frame> is AppFrame", async () => {
    const defined = await page.evaluate(() => customElements.get("mcp-app-frame") === t.mod.AppFrame);
    expect(defined, "<mcp-app-frame> is AppFrame");
  });

  await step("view-session.js loads with the first app shown, not with the page", async () => {
    const fetched = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith("/view-session.js")));
    expect(fetched.length === 0, `fetched before any app: ${fetched}`);
  });
  await readmeStep(env);
  await step("…and after it: view-session.js fetched once", async () => {
    const fetched = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith("/view-session.js")));
    expect(fetched.length === 1, `fetched: ${fetched}`);
  });
  await moduleLoadStep(env);
  await readmeBlockStep(env);
  await optionsStep(env);
  await contextAndSizeSteps(env);
  await requestSteps(env);
  await proxySteps(env);
  await teardownStep(env);
  await teardownUnderLoadStep(env);
  await cancelStep(env);
  await cspSteps(env);
  await streamingSteps(env);
  await downloadSteps(env);
  await samplingSteps(env);
  await appToolSteps(env);
  await groupStep(env);
  await legacyStep(env);
  await showAndErrorSteps(env);
  await removalStep(env);
  await hostileSteps(env);
  await proxyPageSteps(env);
  void A; void B;
}

// ------------------------------------------------------------------------------ run

await runMain(steps, main);
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`elements-apps: ${steps.passed} passed, ${steps.failed} failed (${secs} s)`);
process.exit(steps.failed ? 1 : 0);
