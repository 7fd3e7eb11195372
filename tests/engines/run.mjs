// The browser demo (www/) against the demo server (demo/server.py), in each engine named by
// ENGINES (default "firefox webkit"), through that engine's WebDriver server (driver.mjs): a named
// subset of tests/e2e/run.mjs, which runs in full in Chromium with Playwright.
//
//   cd tests/engines && npm ci && xvfb-run -a node run.mjs     (needs pkg/web; ENGINES="firefox")
//
// The subset, per engine: connect on the 2026 era; a streamed tool call (progress, logs, the
// result); the elicitation form (every field kind labelled, keyboard focus, decline); an MCP App
// through the sandbox proxy on another origin (render, an app-only tool call through the host,
// a ui/message); the legacy era's connect and streamed call; an MCP App built on the official View
// SDK (tests/elements' app, page and TypeScript SDK peer): its input streamed while it mounts, then
// teardown() at once, the app still told its input and result first; sign-in in a popup against the
// OAuth peer (tests/peers/oauth_server.py). Saves <engine>-
// tool-call.png and <engine>-mcp-app.png (E2E_SCREENSHOTS=docs: in docs/screenshots; see e2e/lib.mjs). Servers on free ports of
// ENGINES_PORTS (default 18986-18999), stopped by PID. Prints one line per step and, per engine,
// "engines-<engine>: N passed, M failed, K skipped" (an engine whose driver or display is missing is
// skipped with the reason), then "engines: N passed, M failed, K skipped".
import path from "node:path";
import {
  ROOT, SHOTS, TAKE_SHOTS, expect, freePorts, needOauthServer, needWebPackage, oauthPeer, runMain, start, stepper, waitHttp,
} from "../e2e/lib.mjs";
import { Key } from "selenium-webdriver";
import { missing, openEngine } from "./driver.mjs";

const ENGINES = (process.env.ENGINES ?? "firefox webkit").split(/[\s,]+/).filter(Boolean);
const PORTS = process.env.ENGINES_PORTS ?? "18986-18999";
const STEPS = ["connect", "streamed call", "elicitation form", "MCP App", "legacy era", "View SDK app", "popup sign-in"];
const started = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0 };

/** The demo's steps in one engine's page. */
async function demoSteps(page, steps, urls) {
  const { step } = steps;
  const E = page.engine;
  const result = (tool) => `[data-test="msg-result"][data-tool="${tool}"]`;
  /** The last result of `tool` once it is not pending: { state, text }. */
  const settled = (tool) => page.waitFor((sel) => {
    const li = [...document.querySelectorAll(sel)].pop();
    return li && li.dataset.state !== "pending" && { state: li.dataset.state, text: li.textContent };
  }, 15_000, `${tool} settled`, result(tool));
  async function callTool(tool, args = {}) {
    await page.click(`[data-test="tool-${tool}"]`);
    for (const [k, v] of Object.entries(args)) await page.fill(`[data-test="arg-${k}"]`, v);
    const before = await page.count(result(tool));
    await page.click('[data-test="call"]');
    await page.waitFor((sel, n) => document.querySelectorAll(sel).length > n, 10_000, `${tool} called`, result(tool), before);
  }
  async function connectTo(mode) {
    await page.goto(`${urls.web}/www/?url=${encodeURIComponent(urls.mcp)}&mode=${mode}&autoconnect=1&sandbox=${encodeURIComponent(urls.sandbox)}`);
    await page.find('[data-test="status"][data-state="connected"]', 20_000);
  }
  const shot = async (name) => { if (TAKE_SHOTS) await page.screenshot(path.join(SHOTS, `${E}-${name}.png`)); };

  await step(`${E}: connect (auto mode) picks 2026-07-28 and lists the tools`, async () => {
    await connectTo("auto");
    const proto = await page.text('[data-test="protocol-version"]');
    const tools = await page.count('[data-test="tools"] button');
    expect(proto === "2026-07-28", `protocol ${proto}`);
    expect(tools >= 9, `tools listed: ${tools}`);
  });

  await step(`${E}: a streamed call (long_task): progress 4 / 4, log lines, the result`, async () => {
    const logsBefore = await page.count('[data-test="log"]');
    await callTool("long_task", { steps: 4 });
    const r = await settled("long_task");
    expect(/Done: 4 steps/.test(r.text), `result: ${r.text}`);
    expect(/4 \/ 4/.test(r.text), `progress in the result line: ${r.text}`);
    const logs = (await page.count('[data-test="log"]')) - logsBefore;
    expect(logs >= 5, `log lines: ${logs}`);
  });
  await shot("tool-call");

  await step(`${E}: the elicitation form: every field kind labelled; by keyboard, type a name and decline`, async () => {
    const before = await page.count('[data-test="elicitation"]');
    await callTool("register_attendee");
    // <mcp-elicitation-form>'s controls live in its shadow root.
    const root = `document.querySelectorAll('[data-test="elicitation"]')[${before}]?.querySelector("mcp-elicitation-form")?.shadowRoot`;
    const form = await page.waitFor(`() => {
      const root = ${root};
      const fields = [...(root?.querySelectorAll(".efield") ?? [])];
      if (!fields.length) return null;
      const unlabelled = [...root.querySelectorAll("input, select, textarea")]
        .filter((i) => i.type !== "hidden" && !(i.labels?.length || i.getAttribute("aria-label") || i.getAttribute("aria-labelledby")))
        .map((i) => i.name || i.id || i.outerHTML.slice(0, 60));
      return { kinds: fields.map((f) => f.dataset.kind), unlabelled };
    }`, 10_000, "the form's fields");
    for (const k of ["text", "email", "uri", "date", "date-time", "number", "integer", "boolean", "single-select", "multi-select"]) {
      expect(form.kinds.includes(k), `field kind ${k} rendered (have ${form.kinds.join(",")})`);
    }
    expect(form.unlabelled.length === 0, `controls without a label: ${form.unlabelled.join(", ")}`);
    // By keyboard (WebKitWebDriver's hit test stops at the shadow host, so a pointer click on a
    // control inside a shadow root is refused there as intercepted): type into Name, Enter on Decline.
    const name = await page.element(`() => ${root}.querySelector('[data-test="input-name"]')`);
    await name.sendKeys("Ada");
    const typed = await page.evaluate(`() => ({ focus: ${root}.activeElement?.dataset?.test, value: ${root}.querySelector('[data-test="input-name"]').value })`);
    expect(typed.focus === "input-name" && typed.value === "Ada", `typed into Name: ${JSON.stringify(typed)}`);
    await (await page.element(`() => ${root}.querySelector('[data-test="elicitation-decline"]')`)).sendKeys(Key.ENTER);
    const r = await settled("register_attendee");
    expect(/user chose decline/.test(r.text), `result: ${r.text}`);
  });

  await step(`${E}: an MCP App (show_chart) renders through the sandbox origin, calls its app-only tool, posts a message`, async () => {
    await callTool("show_chart");
    const r = await settled("show_chart");
    expect(r.state === "ok", `the call's result: ${r.state} ${r.text}`);
    const frameEl = `() => [...document.querySelectorAll('[data-test="msg-result"][data-tool="show_chart"] [data-test="app-frame"]')].pop()`;
    await page.waitFor(`() => (${frameEl})()?.getBoundingClientRect().height > 150`, 15_000, "the frame took the app's height");
    await page.enterFrame(`() => (${frameEl})().shadowRoot.querySelector("iframe")`);
    await page.enterFrame(`() => document.querySelector("iframe")`);
    try {
      const title = await page.text("#title");
      expect(title.includes("Tool calls per day"), `title: ${title}`);
      expect((await page.count("svg rect")) === 7, "seven bars drawn from the tool's input");
      // The app's buttons are pressed with HTMLElement.click(): what this step checks is the
      // app ↔ host messaging, and WebKitWebDriver's pointer clicks inside two nested cross-origin
      // iframes miss their target (seen: no request reached the proxy).
      await page.evaluate(() => document.querySelector("#total").click());
      const status = () => document.querySelector("#status")?.textContent;
      await page.waitFor(`() => /Total: 35/.test((${status})() ?? "")`, 10_000, "Total: 35").catch(async (e) => {
        throw new Error(`${e.message}; the app's status: ${JSON.stringify(await page.evaluate(status))}`);
      });
      await page.evaluate(() => document.querySelector("#ask").click());
    } finally {
      await page.leaveFrames();
    }
    const msg = await page.waitFor(() => [...document.querySelectorAll('[data-test="msg-app"]')].pop()?.textContent, 10_000, "the app's message");
    expect(/What stands out in "Tool calls per day"/.test(msg), `the app's ui/message in the transcript: ${msg}`);
  });
  await shot("mcp-app");

  await step(`${E}: legacy era: connect, a streamed call with progress`, async () => {
    await connectTo("legacy");
    const proto = await page.text('[data-test="protocol-version"]');
    expect(proto !== "2026-07-28", `legacy protocol: ${proto}`);
    await callTool("long_task", { steps: 2 });
    const r = await settled("long_task");
    expect(/2 \/ 2/.test(r.text) && /Done: 2 steps/.test(r.text), `result: ${r.text}`);
  });
}

/**
 * An app built on the official View SDK (tests/elements/apps/view.js, served by tests/elements'
 * TypeScript SDK peer) in tests/elements' strict-CSP page: partial input while it mounts, the call,
 * then teardown() as soon as the call resolved; the app logs what it had seen when torn down.
 */
async function viewSdkSteps(page, steps, urls) {
  const { step } = steps;
  const E = page.engine;
  await step(`${E}: a View SDK app: partial input streamed while it mounts, the call, teardown() at once: tool-input-partial, tool-input, tool-result, then ui/resource-teardown`, async () => {
    const q = new URLSearchParams({ a: urls.apps.a, b: urls.apps.b, sandbox: urls.sandbox });
    await page.goto(`${urls.web}/tests/elements/pages/apps.html?${q}`);
    await page.find("body[data-ready]", 20_000);
    const out = await page.evaluate(async () => {
      const client = new t.mod.Client(t.params.a, { apps: true });
      await client.connect();
      t.clients = { a: client };
      const f = t.frame("engine", "a");
      const shown = f.show("show_chart"); // the model still streams the arguments
      const taken = [f.feedToolInput('{"title": "Stre'), f.feedToolInput('amed"')];
      await shown;
      const result = await f.callTool("show_chart", { title: "Streamed" });
      await f.teardown();
      const logs = t.log.filter((e) => e.type === "mcp-app-log");
      const after = logs.find((e) => Array.isArray(e.detail.data?.teardownAfter))?.detail.data.teardownAfter ?? null;
      const seen = logs.filter((e) => e.detail.data === "teardown seen");
      await client.close();
      return { taken, title: result.structuredContent?.title, after, seen: seen.length, whileThere: seen[0]?.iframe === true, gone: !f.shadowRoot.querySelector("iframe") };
    });
    expect(out.taken.every(Boolean) && out.title === "Streamed", JSON.stringify(out));
    const told = out.after?.filter((x) => x.startsWith("tool-"));
    expect(JSON.stringify(told) === '["tool-input-partial","tool-input","tool-result"]', `the app had seen ${JSON.stringify(out.after)} when torn down`);
    expect(out.seen === 1 && out.whileThere && out.gone, `teardown answered while the iframe was there: ${JSON.stringify(out)}`);
  });
}

/** Sign-in in a popup against the OAuth peer (Python SDK authorization server, consent page). */
async function signInSteps(page, steps, urls) {
  const { step } = steps;
  const E = page.engine;
  await step(`${E}: popup sign-in: 401 → Sign in (a click) → consent page in a popup → Approve → signed in, whoami`, async () => {
    await page.goto(`${urls.web}/www/?url=${encodeURIComponent(urls.oauth.mcp)}`);
    await page.find('body[data-wasm="ready"]', 20_000);
    await page.click('[data-test="connect"]');
    await page.find('[data-test="status"][data-state="error"]', 15_000);
    const main = await page.driver.getWindowHandle();
    await page.click('[data-test="sign-in"]'); // a click: the popup needs a user gesture
    const popup = await page.driver.wait(async () => (await page.driver.getAllWindowHandles()).find((h) => h !== main), 15_000, "no sign-in popup");
    await page.driver.switchTo().window(popup);
    await page.waitFor(() => /\/consent\?request_id=/.test(location.href) && document.querySelector("#approve"), 15_000, "the consent page");
    await page.click("#approve");
    // completeAuthorizationPopup() on the callback page closes the popup
    await page.driver.wait(async () => (await page.driver.getAllWindowHandles()).length === 1, 15_000, "the popup did not close");
    await page.driver.switchTo().window(main);
    await page.find('[data-test="status"][data-state="connected"]', 15_000);
    const auth = JSON.parse(await (await page.find('[data-test="auth-card"][data-signed-in="true"]')).getAttribute("data-authorization"));
    expect(auth.issuer === urls.oauth.issuer && auth.scope?.split(" ").includes("mcp:read"), `client.authorization: ${JSON.stringify(auth)}`);
    await page.click('[data-test="tool-whoami"]');
    await page.click('[data-test="call"]');
    const r = await page.waitFor(() => {
      const li = [...document.querySelectorAll('[data-test="msg-result"][data-tool="whoami"]')].pop();
      return li && li.dataset.state !== "pending" && { state: li.dataset.state, text: li.textContent };
    }, 15_000, "whoami settled");
    expect(r.state === "ok" && /scopes=.*mcp:read/.test(r.text), `whoami: ${r.state} ${r.text}`);
  });
}

async function main() {
  needWebPackage();
  needOauthServer();
  const [mcpPort, webPort, sandboxPort, rsPort, asPort, appsA, appsB, ...driverPorts] = await freePorts(7 + ENGINES.length, PORTS);
  const mcp = start("demo server", "python3", ["demo/server.py", String(mcpPort)]);
  const web = start("static server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", ROOT, String(webPort)]);
  const sandbox = start("sandbox server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", ROOT, String(sandboxPort)]);
  const apps = start("apps peer", "node", [path.join(ROOT, "tests/elements/apps/server.mjs"), String(appsA), String(appsB)]);
  const urls = {
    mcp: `http://127.0.0.1:${mcpPort}/mcp`,
    web: `http://127.0.0.1:${webPort}`,
    sandbox: `http://127.0.0.1:${sandboxPort}/pkg-template/mcp-app-sandbox.html`,
    oauth: await oauthPeer("oauth peer", rsPort, asPort, []),
    apps: { a: `http://127.0.0.1:${appsA}/mcp`, b: `http://127.0.0.1:${appsB}/mcp` },
  };
  await Promise.all([waitHttp(`http://127.0.0.1:${mcpPort}/connect`, mcp), waitHttp(`${urls.web}/www/`, web), waitHttp(urls.sandbox, sandbox),
    waitHttp(`http://127.0.0.1:${appsA}/test/stats`, apps, 30_000), waitHttp(`http://127.0.0.1:${appsB}/test/stats`, apps, 30_000)]);
  for (const [i, engine] of ENGINES.entries()) {
    const steps = stepper(40_000);
    let skipped = 0;
    const why = missing(engine);
    if (why) {
      skipped = STEPS.length;
      console.log(`skip ${engine}: ${STEPS.length} steps (${why})`);
    } else {
      const t0 = Date.now();
      let page = null;
      try {
        page = await openEngine(engine, driverPorts[i]);
        const caps = await page.driver.getCapabilities();
        console.log(`# ${engine}: ${caps.get("browserName")} ${caps.get("browserVersion")}`);
        await demoSteps(page, steps, urls);
        await viewSdkSteps(page, steps, urls);
        await signInSteps(page, steps, urls);
      } catch (err) {
        steps.failed++;
        console.log(`FAIL ${engine} setup: ${err?.stack ?? err}`);
      } finally {
        await page?.close();
      }
      console.log(`# ${engine}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    console.log(`engines-${engine}: ${steps.passed} passed, ${steps.failed} failed, ${skipped} skipped`);
    totals.passed += steps.passed;
    totals.failed += steps.failed;
    totals.skipped += skipped;
  }
}

await runMain(totals, main);
console.log(`# ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`engines: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed ? 1 : 0);
