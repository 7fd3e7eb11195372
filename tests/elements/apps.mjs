// <mcp-app-frame> against real MCP Apps, in Debian's headless chromium (playwright-core).
//
//   flock /tmp/mcp-ports.lock node tests/elements/apps.mjs      (needs pkg/web; ELEMENTS_APPS_PORTS="a-b")
//
// Peers: apps/server.mjs, a TypeScript SDK 2.4.0 server with the official ext-apps server helpers,
// on two ports (servers "a" and "b"), serving apps/view.js (the official View SDK `App`, bundled
// into one HTML file at start) and apps/hostile.html (our own). The page (pages/apps.html, a strict
// CSP) is served from the repository root on one origin, the sandbox proxy (pkg-template/
// mcp-app-sandbox.html) by a second static server on another. Prints one line per step, then
// "elements-apps: N passed, M failed (...)"; exits non-zero on failure; stops its servers by PID.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, expect, freePorts, launchChromium, needWebPackage, readmeJsBlocks, runMain, start, stepper, waitHttp } from "../e2e/lib.mjs";

const PORTS = process.env.ELEMENTS_APPS_PORTS ?? "18940-18959";
const started = Date.now();
const steps = stepper(20_000);
const { step } = steps;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

// ------------------------------------------------------------------------------ helpers

/** The app's srcdoc frame inside the proxy frame (the newest one), once its window has `key`. */
async function appFrame(env, key = "app") {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const frames = env.page.frames().filter((f) => !f.isDetached() && f.url() === "about:srcdoc" && f.parentFrame()?.url().startsWith(env.proxyOrigin));
    for (const f of frames.reverse()) {
      try { if (await f.evaluate((k) => k in window, key)) return f; } catch { /* navigating */ }
    }
    await sleep(50);
  }
  throw new Error("the app's frame did not appear");
}

/** Evaluates fn(arg) inside the app's frame. */
async function inApp(env, fn, arg, key) {
  return (await appFrame(env, key)).evaluate(fn, arg);
}

/** Polls the app's recorded events until `pred(events)` holds; returns them. */
async function appEvents(env, pred = () => true, what = "app events") {
  const until = Date.now() + 8_000;
  let events = [];
  while (Date.now() < until) {
    events = await inApp(env, () => window.events);
    if (pred(events)) return events;
    await sleep(50);
  }
  throw new Error(`${what}: not seen; the app has ${JSON.stringify(events.map((e) => e.type))}`);
}
const has = (type) => (events) => events.some((e) => e.type === type);
const find = (events, type) => events.find((e) => e.type === type);

/** The peer port's counters. */
async function stats(origin) {
  return (await fetch(`${origin}/test/stats`)).json();
}

/** Mounts a frame in the page with `client` (a page expression) and calls a tool; resolves with { result } or { error }. */
function mount(env, { tool, args = {}, client = "a", id = "f", await: wait = true }) {
  return env.page.evaluate(async ({ tool, args, client, id, wait, SANDBOX }) => {
    const { Client, ClientGroup } = t.mod;
    if (!t.clients) t.clients = {};
    if (!t.clients[client]) {
      t.clients[client] = client === "group"
        ? new ClientGroup({ apps: true, servers: { a: { url: t.params.a }, b: { url: t.params.b } } })
        : client === "legacy"
          ? new Client(t.params.a, { apps: true, mode: "legacy" })
          : new Client(t.params[client], { apps: true });
      await t.clients[client].connect();
    }
    let frame = document.getElementById(id);
    if (!frame) {
      frame = document.createElement("mcp-app-frame");
      frame.id = id;
      document.getElementById("chat").append(frame);
    }
    frame.client = t.clients[client];
    frame.sandbox = SANDBOX;
    const p = frame.callTool(tool, args).then((result) => ({ result }), (e) => ({ error: { message: e.message, code: e.code, data: e.data, name: e.name } }));
    if (!wait) { t.pending = p; return null; }
    return p;
  }, { tool, args, client, id, wait, SANDBOX: env.SANDBOX });
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
  await groupStep(env);
  await legacyStep(env);
  await showAndErrorSteps(env);
  await removalStep(env);
  await hostileSteps(env);
  await proxyPageSteps(env);
  void A; void B;
}

async function moduleLoadStep(env) {
  await step("view-session.js refused (404): callTool rejects with McpError kind module_load naming its URL; nothing mounted", async () => {
    const other = await env.context.newPage();
    try {
      await other.route("**/view-session.js", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "gone" }));
      await other.goto(env.page.url());
      await other.waitForSelector("body[data-ready]", { state: "attached" });
      const out = await other.evaluate(async (SANDBOX) => {
        const client = new t.mod.Client(t.params.a, { apps: true });
        await client.connect();
        const frame = document.createElement("mcp-app-frame");
        frame.client = client;
        frame.sandbox = SANDBOX;
        document.getElementById("chat").append(frame);
        const e = await frame.callTool("show_chart", { title: "Q3" }).then(() => null, (x) => x);
        const iframes = frame.shadowRoot.querySelectorAll("iframe").length;
        await client.close();
        return e && { isMcp: e instanceof t.mod.McpError, message: e.message, data: e.data, iframes };
      }, env.SANDBOX);
      expect(out?.isMcp && out.data?.kind === "module_load" && out.data.local === true, JSON.stringify(out));
      expect(/\/pkg-template\/elements\/view-session\.js$/.test(out.data.url) && out.message.includes(out.data.url), JSON.stringify(out));
      expect(typeof out.data.cause === "string" && out.data.cause.length > 0 && out.iframes === 0, JSON.stringify(out));
    } finally {
      await other.close();
    }
  });
}

async function readmeStep(env) {
  const { page } = env;
  await step("README example: Client { apps: true }, hostContext, callTool; the app initializes, gets tool-input then tool-result", async () => {
    const out = await page.evaluate(async (SANDBOX) => {
      const { Client } = t.mod;
      const container = document.getElementById("chat");
      const client = new Client(t.params.a, { apps: true, loggingCallback: (params) => (t.clientLogged ??= []).push(params) });
      await client.connect();
      const frame = document.createElement("mcp-app-frame");
      frame.id = "main";
      frame.client = client;
      frame.sandbox = SANDBOX;
      frame.hostContext = { theme: "dark", locale: "en-US", displayMode: "inline" };
      container.append(frame);
      frame.addEventListener("mcp-app-message", (e) => (t.readme ??= []).push(["message", e.detail]));
      frame.addEventListener("mcp-app-open-link", (e) => (t.readme ??= []).push(["open-link", e.detail.url]));
      frame.addEventListener("mcp-app-context", (e) => (t.readme ??= []).push(["context", e.detail]));
      const signal = new AbortController().signal;
      const result = await frame.callTool("show_chart", { title: "Q3" }, { signal });
      t.clients = { a: client };
      return { result, tag: frame.tool?.name };
    }, env.SANDBOX);
    expect(out.result.structuredContent?.title === "Q3", `result: ${JSON.stringify(out.result)}`);
    expect(out.tag === "show_chart", `frame.tool: ${out.tag}`);
    const events = await appEvents(env, (ev) => has("connected")(ev) && has("tool-result")(ev), "connected + tool-result");
    const c = find(events, "connected");
    expect(c.hostContext.theme === "dark" && c.hostContext.locale === "en-US" && c.hostContext.displayMode === "inline", `hostContext: ${JSON.stringify(c.hostContext)}`);
    expect(c.hostContext.toolInfo?.tool?.name === "show_chart", `toolInfo: ${JSON.stringify(c.hostContext.toolInfo)}`);
    expect(c.hostInfo?.name === "mcp-wasm-client", `hostInfo: ${JSON.stringify(c.hostInfo)}`);
    const caps = c.hostCapabilities;
    expect(caps.serverTools && caps.serverResources && caps.openLinks && caps.logging && caps.message?.text && caps.updateModelContext?.text, `hostCapabilities: ${JSON.stringify(caps)}`);
    const types = events.map((e) => e.type);
    const input = find(events, "tool-input");
    expect(input && JSON.stringify(input.params.arguments) === '{"title":"Q3"}', `tool-input: ${JSON.stringify(input)}`);
    expect(types.indexOf("tool-input") < types.indexOf("tool-result"), `order: ${types}`);
    expect(find(events, "tool-result").params.structuredContent?.title === "Q3", "tool-result carries the result");
    const first = await inApp(env, () => window.inbox[0]);
    expect(first?.result?.protocolVersion === "2026-01-26", `the host's first message is the initialize answer: ${JSON.stringify(first)?.slice(0, 200)}`);
  });
}

/** docs/elements.md's MCP Apps block (the js block that creates an mcp-app-frame), read from the docs. */
function readmeAppsBlock() {
  const block = readmeJsBlocks().find((b) => b.includes('createElement("mcp-app-frame")'));
  if (!block) throw new Error("the docs (README.md, docs/) have no js block that creates an mcp-app-frame");
  return block;
}

async function readmeBlockStep(env) {
  await step("README block as written (its free names url, args, signal, container given): result, then teardown removes the iframe", async () => {
    const block = readmeAppsBlock();
    const body = block
      .replace('import { Client } from "mcp-wasm-client";', "const { Client } = t.mod;")
      .replace('"https://sandbox.example/mcp-app-sandbox.html"', JSON.stringify(env.SANDBOX));
    expect(body.includes("t.mod") && body.includes(env.SANDBOX), "the README block's import and sandbox URL were found and swapped");
    // page.evaluate runs outside the page's CSP; the block is its body, as written
    const out = await env.page.evaluate(`(async () => {
      const url = t.params.a, args = { title: "README" }, signal = new AbortController().signal;
      const container = document.createElement("section");
      document.body.append(container);
      ${body}
      const left = container.querySelector("mcp-app-frame")?.shadowRoot?.querySelector("iframe") ?? null;
      await client.close();
      container.remove();
      return { title: result.structuredContent?.title, iframeAfterTeardown: left !== null };
    })()`);
    expect(out.title === "README", `result: ${JSON.stringify(out)}`);
    expect(out.iframeAfterTeardown === false, "teardown() removed the iframe");
  });
}

async function optionsStep(env) {
  await step("callTool passes the client's call options on: a misspelt one is the client's input error (did you mean timeoutMs?)", async () => {
    const out = await env.page.evaluate(async (SANDBOX) => {
      const frame = document.createElement("mcp-app-frame");
      frame.client = t.clients.a;
      frame.sandbox = SANDBOX;
      document.body.append(frame);
      try {
        await frame.callTool("show_chart", { title: "options" }, { timeout: 5 });
        return { resolved: true };
      } catch (e) {
        return { kind: e?.data?.kind, message: String(e?.message) };
      } finally {
        await frame.teardown();
        frame.remove();
      }
    }, env.SANDBOX);
    expect(out.kind === "input" && /timeoutMs/.test(out.message), `rejection: ${JSON.stringify(out)}`);
  });
}

async function contextAndSizeSteps(env) {
  const { page } = env;
  await step("host-context-changed: only the changed field; an unchanged hostContext sends nothing", async () => {
    await page.evaluate(() => {
      const f = document.getElementById("main");
      f.hostContext = { ...f.hostContext, theme: "light" };
      f.hostContext = { ...f.hostContext };
    });
    await sleep(400);
    const changes = (await appEvents(env, has("host-context-changed"))).filter((e) => e.type === "host-context-changed");
    expect(changes.length === 1, `one notification: ${JSON.stringify(changes)}`);
    expect(JSON.stringify(changes[0].params) === '{"theme":"light"}', `only theme: ${JSON.stringify(changes[0].params)}`);
  });

  await step("size-changed resizes the element both ways (height exact, width as a floor)", async () => {
    const sizeOf = () => page.evaluate(() => { const f = document.getElementById("main"); return { h: f.getBoundingClientRect().height, minW: f.style.minWidth }; });
    await inApp(env, () => window.app.sendSizeChanged({ width: 420, height: 333 }));
    await page.waitForFunction(() => document.getElementById("main").getBoundingClientRect().height === 333);
    let s = await sizeOf();
    expect(s.minW === "min(420px, 100%)", `grown: ${JSON.stringify(s)}`);
    await inApp(env, () => window.app.sendSizeChanged({ width: 200, height: 120 }));
    await page.waitForFunction(() => document.getElementById("main").getBoundingClientRect().height === 120);
    s = await sizeOf();
    expect(s.minW === "min(200px, 100%)", `shrunk: ${JSON.stringify(s)}`);
  });
}

async function requestSteps(env) {
  const { page, context } = env;
  const logOf = (type) => page.evaluate((type) => t.log.filter((e) => e.type === type).map((e) => e.detail), type);
  const refuse = (type, on) => page.evaluate(([type, on]) => (on ? t.refuse.add(type) : t.refuse.delete(type)), [type, on]);

  await step("ui/message: an array of blocks and a single block both arrive as detail.content arrays; preventDefault → isError", async () => {
    const r1 = await inApp(env, () => window.app.sendMessage({ role: "user", content: [{ type: "text", text: "as array" }] }));
    const r2 = await inApp(env, () => window.app.sendMessage({ role: "user", content: { type: "text", text: "as block" } }));
    await refuse("mcp-app-message", true);
    const r3 = await inApp(env, () => window.app.sendMessage({ role: "user", content: [{ type: "text", text: "refused" }] }));
    await refuse("mcp-app-message", false);
    const seen = await logOf("mcp-app-message");
    const onFrame = await page.evaluate(() => t.readme.filter(([k]) => k === "message").length);
    expect(onFrame === 3, `the README's frame listener saw ${onFrame} messages`);
    expect(!r1.isError && !r2.isError, `accepted: ${JSON.stringify([r1, r2])}`);
    expect(r3.isError === true, `refused: ${JSON.stringify(r3)}`);
    expect(seen.length === 3 && seen.every((d) => Array.isArray(d.content) && d.content.length === 1 && d.role === "user"), `details: ${JSON.stringify(seen)}`);
    expect(seen[0].content[0].text === "as array" && seen[1].content[0].text === "as block", "texts in order");
  });

  await step("ui/open-link: opens the URL with noopener after the event; preventDefault → isError and nothing opens; javascript: refused", async () => {
    const url = `${env.B}/test/stats?link=1`;
    const [popup, r1] = await Promise.all([context.waitForEvent("page"), inApp(env, (u) => window.app.openLink({ url: u }), url)]);
    await popup.waitForLoadState();
    expect(popup.url() === url, `opened ${popup.url()}`);
    expect(await popup.evaluate(() => window.opener === null), "opened with noopener");
    await popup.close();
    expect(!r1.isError, `accepted: ${JSON.stringify(r1)}`);
    let opened = 0;
    const count = () => { opened++; };
    context.on("page", count);
    await refuse("mcp-app-open-link", true);
    const r2 = await inApp(env, (u) => window.app.openLink({ url: u }), url);
    await refuse("mcp-app-open-link", false);
    const r3 = await inApp(env, () => window.app.openLink({ url: "javascript:alert(1)" }));
    await sleep(500);
    context.off("page", count);
    expect(r2.isError === true && r3.isError === true, `refused: ${JSON.stringify([r2, r3])}`);
    expect(opened === 0, `${opened} pages opened`);
    const seen = await logOf("mcp-app-open-link");
    expect(seen.length === 3 && seen[0].url === url, `details: ${JSON.stringify(seen)}`);
  });

  await step("ui/update-model-context: mcp-app-context, kept as frame.modelContext; preventDefault → an error to the app", async () => {
    const params = { content: [{ type: "text", text: "the user picked Q3" }], structuredContent: { quarter: 3 } };
    const r1 = await inApp(env, (p) => window.app.updateModelContext(p), params);
    const kept = await page.evaluate(() => document.getElementById("main").modelContext);
    await refuse("mcp-app-context", true);
    const r2 = await inApp(env, () => window.app.updateModelContext({ content: [{ type: "text", text: "no" }] }).then(() => "accepted", (e) => `rejected: ${e.message}`));
    await refuse("mcp-app-context", false);
    expect(r1 && !r1.isError, `accepted: ${JSON.stringify(r1)}`);
    expect(JSON.stringify(kept) === JSON.stringify(params), `modelContext: ${JSON.stringify(kept)}`);
    expect(/rejected: .*refused/.test(r2), r2);
    const seen = await logOf("mcp-app-context");
    expect(seen.length === 2 && seen[0].structuredContent.quarter === 3, `details: ${JSON.stringify(seen)}`);
  });

  await step("ui/request-display-mode: fullscreen granted (attribute, host-context-changed); refused → current mode; a mode the app lacks → current", async () => {
    const r1 = await inApp(env, () => window.app.requestDisplayMode({ mode: "fullscreen" }));
    const attr = await page.evaluate(() => document.getElementById("main").getAttribute("display-mode"));
    const full = await page.evaluate(() => { const r = document.getElementById("main").getBoundingClientRect(); return r.width === innerWidth && r.height === innerHeight; });
    const r2 = await inApp(env, () => window.app.requestDisplayMode({ mode: "inline" }));
    const attr2 = await page.evaluate(() => document.getElementById("main").getAttribute("display-mode"));
    await refuse("mcp-app-display-mode", true);
    const r3 = await inApp(env, () => window.app.requestDisplayMode({ mode: "fullscreen" }));
    await refuse("mcp-app-display-mode", false);
    const r4 = await inApp(env, () => window.app.requestDisplayMode({ mode: "pip" }));
    expect(r1.mode === "fullscreen" && attr === "fullscreen" && full, `granted: ${JSON.stringify(r1)} ${attr} full=${full}`);
    expect(r2.mode === "inline" && attr2 === null, `back inline: ${JSON.stringify(r2)} ${attr2}`);
    expect(r3.mode === "inline" && r4.mode === "inline", `refused: ${JSON.stringify([r3, r4])}`);
    const changes = (await appEvents(env)).filter((e) => e.type === "host-context-changed").map((e) => e.params.displayMode);
    expect(changes.includes("fullscreen") && changes.includes("inline"), `host-context-changed displayMode: ${JSON.stringify(changes)}`);
    const seen = await page.evaluate(() => t.log.filter((e) => e.type === "mcp-app-display-mode").length);
    expect(seen === 3, `${seen} mcp-app-display-mode events (pip is not among the app's modes: no event)`);
  });
}

async function proxySteps(env) {
  const { page, A } = env;
  await step("app tools/call: an app-visible tool reaches the server; a model-only tool is refused and the server never called", async () => {
    const before = await stats(A);
    const ok = await inApp(env, () => window.app.callServerTool({ name: "app_helper", arguments: { note: "from app" } }));
    const refused = await inApp(env, () => window.app.callServerTool({ name: "model_only", arguments: {} }).then((r) => `resolved ${JSON.stringify(r)}`, (e) => `rejected: ${e.message}`));
    const unknown = await inApp(env, () => window.app.callServerTool({ name: "nope", arguments: {} }).then(() => "resolved", (e) => `rejected: ${e.message}`));
    const after = await stats(A);
    expect(ok.structuredContent?.note === "from app", `proxied: ${JSON.stringify(ok)}`);
    expect((after.calls.app_helper ?? 0) === (before.calls.app_helper ?? 0) + 1, "the server ran app_helper once");
    expect(/rejected: .*not visible to apps/.test(refused), refused);
    expect(/rejected: .*no tool/.test(unknown), unknown);
    expect(!after.calls.model_only, `model_only was called ${after.calls.model_only} times`);
  });

  await step("resources/read, tools/list (app-visible tools only), ping proxied or answered; an unknown method → -32601", async () => {
    const read = await inApp(env, () => window.app.readServerResource({ uri: "ui://tests/view.html" }));
    expect(read.contents?.[0]?.mimeType === "text/html;profile=mcp-app", `read: ${JSON.stringify(read).slice(0, 200)}`);
    await inApp(env, () => {
      window.inbox.length = 0;
      window.raw({ jsonrpc: "2.0", id: "list-1", method: "tools/list", params: {} });
      window.raw({ jsonrpc: "2.0", id: "ping-1", method: "ping" });
      window.raw({ jsonrpc: "2.0", id: "nope-1", method: "foo/bar", params: {} });
      window.raw({ jsonrpc: "2.0", id: "res-1", method: "resources/list", params: {} });
    });
    await sleep(700);
    const inbox = await inApp(env, () => window.inbox);
    const byId = (id) => inbox.find((m) => m.id === id);
    const names = byId("list-1")?.result?.tools?.map((x) => x.name) ?? [];
    expect(names.includes("app_helper") && names.includes("show_chart") && !names.includes("model_only"), `tools/list: ${names}`);
    expect(byId("ping-1")?.result && !byId("ping-1").error, `ping: ${JSON.stringify(byId("ping-1"))}`);
    expect(byId("nope-1")?.error?.code === -32601, `unknown: ${JSON.stringify(byId("nope-1"))}`);
    expect(byId("res-1")?.result?.resources?.some((r) => r.uri === "ui://tests/csp.html"), `resources/list: ${JSON.stringify(byId("res-1"))?.slice(0, 200)}`);
  });

  await step("logging: the app's notifications/message reaches the client's loggingCallback option", async () => {
    await inApp(env, () => window.app.sendLog({ level: "info", logger: "elements-test-app", data: "hello client" }));
    await page.waitForFunction(() => t.clientLogged?.some((p) => p.data === "hello client"));
    const got = await page.evaluate(() => t.clientLogged.find((p) => p.data === "hello client"));
    expect(got.level === "info" && got.logger === "elements-test-app", `client loggingCallback: ${JSON.stringify(got)}`);
  });

  await step("logging: frame.loggingCallback, when set, takes the app's log instead of the client's; the mcp-app-log event", async () => {
    await page.evaluate(() => {
      document.getElementById("main").loggingCallback = (params, source) => (t.logged ??= []).push({ params, server: source.server, tool: source.tool });
    });
    await inApp(env, () => window.app.sendLog({ level: "warning", logger: "elements-test-app", data: "hello host" }));
    await page.waitForFunction(() => t.logged?.some((l) => l.params.data === "hello host"));
    expect(await page.evaluate(() => !t.clientLogged.some((p) => p.data === "hello host")), "the client's callback got the log the frame's took");
    const out = await page.evaluate(() => ({ cb: t.logged.find((l) => l.params.data === "hello host"), ev: t.log.find((e) => e.type === "mcp-app-log" && e.detail.data === "hello host") }));
    expect(out.cb.params.level === "warning" && out.cb.tool === "show_chart", `callback: ${JSON.stringify(out.cb)}`);
    expect(out.ev?.detail.level === "warning", `event: ${JSON.stringify(out.ev)}`);
  });
}

async function teardownStep(env) {
  const { page } = env;
  await step("teardown: the app gets ui/resource-teardown (and answers) before the iframe goes", async () => {
    const out = await page.evaluate(async () => {
      const f = document.getElementById("main");
      const t0 = performance.now();
      await f.teardown();
      const t1 = performance.now();
      const seen = t.log.find((e) => e.type === "mcp-app-log" && e.detail.data === "teardown seen");
      return { ms: t1 - t0, seen, gone: !f.shadowRoot.querySelector("iframe"), tool: f.tool ?? null };
    });
    expect(out.seen && out.seen.iframe === true, `the app logged "teardown seen" while its iframe was there: ${JSON.stringify(out.seen)}`);
    expect(out.ms >= 280, `teardown waited for the app's reply (${Math.round(out.ms)} ms; the app answers after 300 ms)`);
    expect(out.gone && out.tool === null, "the iframe is gone");
  });
}

/** Runs `job` while every core of the machine spins in a busy loop (one child process per core). */
async function underLoad(job) {
  const hogs = os.cpus().map(() => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
  try {
    return await job();
  } finally {
    for (const h of hogs) h.kill("SIGKILL");
  }
}

async function teardownUnderLoadStep(env) {
  const { page } = env;
  const ROUNDS = 8;
  await step(`teardown under load, ${ROUNDS} rounds: show, then teardown() at once (the view maybe not initialized yet): the app answers ui/resource-teardown before its iframe goes, every round`, async () => {
    const rounds = await underLoad(async () => {
      const out = [];
      for (let i = 0; i < ROUNDS; i++) {
        const shown = await mount(env, { tool: "show_chart", args: { title: `load ${i}` }, id: "load" });
        expect(shown.result, `round ${i}: show_chart: ${JSON.stringify(shown.error)}`);
        out.push(await page.evaluate(async () => {
          const f = document.getElementById("load");
          const before = t.log.filter((e) => e.type === "mcp-app-log" && e.detail.data === "teardown seen").length;
          await f.teardown();
          const seen = t.log.filter((e) => e.type === "mcp-app-log" && e.detail.data === "teardown seen");
          return { seen: seen.length - before, whileThere: seen.at(-1)?.iframe === true, gone: !f.shadowRoot.querySelector("iframe") };
        }));
      }
      return out;
    });
    const good = rounds.filter((r) => r.seen === 1 && r.whileThere && r.gone).length;
    expect(good === ROUNDS, `${good} of ${ROUNDS} rounds had the app's teardown while its iframe was there: ${JSON.stringify(rounds)}`);
    await page.evaluate(() => document.getElementById("load").remove());
  });
}

async function cancelStep(env) {
  const { page, A } = env;
  await step("abort during the call: tool-cancelled reaches the app, callTool rejects, no tool-result", async () => {
    await page.evaluate(async (SANDBOX) => {
      const f = document.getElementById("main");
      f.sandbox = SANDBOX;
      t.abort = new AbortController();
      t.pending = f.callTool("show_chart", { title: "slow", delayMs: 8000 }, { signal: t.abort.signal })
        .then((r) => ({ result: r }), (e) => ({ error: { message: e.message, code: e.code, kind: e.data?.kind } }));
    }, env.SANDBOX);
    await appEvents(env, has("tool-input"), "tool-input");
    await page.evaluate(() => t.abort.abort());
    const out = await page.evaluate(() => t.pending);
    expect(out.error, `rejected: ${JSON.stringify(out)}`);
    const events = await appEvents(env, has("tool-cancelled"), "tool-cancelled");
    expect(!has("tool-result")(events), "no tool-result");
    console.log(`     callTool rejected: ${out.error.message} (code ${out.error.code}, kind ${out.error.kind}); tool-cancelled ${JSON.stringify(find(events, "tool-cancelled").params)}`);
    await page.evaluate(() => document.getElementById("main").teardown());
    void A;
  });
}

async function cspSteps(env) {
  const { A, B } = env;
  await step("CSP: a declared connectDomain is reachable; an undeclared fetch is blocked inside the app (never reaches its server)", async () => {
    const beforeA = await stats(A);
    const beforeB = await stats(B);
    const out = await mount(env, { tool: "fetch_probe", id: "csp" });
    expect(out.result, `callTool: ${JSON.stringify(out)}`);
    const events = await appEvents(env, has("connected"));
    expect(JSON.stringify(find(events, "connected").hostCapabilities.sandbox?.csp?.connectDomains) === JSON.stringify([A]), `granted csp: ${JSON.stringify(find(events, "connected").hostCapabilities.sandbox)}`);
    const probe = await inApp(env, async ([a, b]) => {
      const violations = [];
      document.addEventListener("securitypolicyviolation", (e) => violations.push({ uri: e.blockedURI, directive: e.effectiveDirective }));
      const tryFetch = (u) => fetch(u).then(async (r) => `ok ${JSON.stringify(await r.json())}`, (e) => `failed: ${e.message}`);
      const declared = await tryFetch(`${a}/data`);
      const undeclared = await tryFetch(`${b}/data`);
      await new Promise((r) => setTimeout(r, 100));
      return { declared, undeclared, violations };
    }, [A, B]);
    expect(probe.declared.startsWith("ok "), `declared: ${probe.declared}`);
    expect(probe.undeclared.startsWith("failed"), `undeclared: ${probe.undeclared}`);
    expect(probe.violations.some((v) => v.directive === "connect-src" && v.uri.startsWith(B)), `violations: ${JSON.stringify(probe.violations)}`);
    const afterA = await stats(A);
    const afterB = await stats(B);
    expect(afterA.data === beforeA.data + 1 && afterB.data === beforeB.data, `server hits: a ${beforeA.data}→${afterA.data}, b ${beforeB.data}→${afterB.data}`);
  });

  await step("CSP: without _meta.ui.csp the app has no network at all (the specification's default)", async () => {
    const out = await mount(env, { tool: "show_chart", id: "csp" });
    expect(out.result, `callTool: ${JSON.stringify(out)}`);
    await appEvents(env, has("connected"));
    const r = await inApp(env, (a) => fetch(`${a}/data`).then(() => "ok", (e) => `failed: ${e.message}`), A);
    expect(r.startsWith("failed"), r);
    await env.page.evaluate(() => document.getElementById("csp").teardown());
  });
}

async function groupStep(env) {
  const { A, B } = env;
  await step("ClientGroup: b__show_chart mounts from server b; the app's calls reach b only; model-only still refused", async () => {
    const [a0, b0] = [await stats(A), await stats(B)];
    const out = await mount(env, { tool: "b__show_chart", args: { title: "G" }, client: "group", id: "grp" });
    expect(out.result?.structuredContent?.server === "b", `result: ${JSON.stringify(out)}`);
    await appEvents(env, has("tool-result"));
    const helped = await inApp(env, () => window.app.callServerTool({ name: "app_helper", arguments: { note: "g" } }));
    const refused = await inApp(env, () => window.app.callServerTool({ name: "model_only", arguments: {} }).then(() => "resolved", (e) => `rejected: ${e.message}`));
    const [a1, b1] = [await stats(A), await stats(B)];
    expect(helped.structuredContent?.server === "b", `app_helper ran on: ${JSON.stringify(helped.structuredContent)}`);
    expect((b1.reads["ui://tests/view.html"] ?? 0) === (b0.reads["ui://tests/view.html"] ?? 0) + 1, "b read the resource");
    expect(JSON.stringify(a1) === JSON.stringify(a0), `server a untouched: ${JSON.stringify(a0)} → ${JSON.stringify(a1)}`);
    expect(/rejected/.test(refused) && !b1.calls.model_only, `${refused}; model_only on b: ${b1.calls.model_only}`);
    await env.page.evaluate(() => document.getElementById("grp").teardown());
  });
}

async function legacyStep(env) {
  const { A } = env;
  await step("legacy era (2025-11-25 initialize): the same app mounts, initializes and calls its server", async () => {
    const before = await stats(A);
    const out = await mount(env, { tool: "show_chart", args: { title: "legacy" }, client: "legacy", id: "leg" });
    expect(out.result?.structuredContent?.title === "legacy", JSON.stringify(out));
    const era = await env.page.evaluate(() => t.clients.legacy.era);
    expect(era === "legacy", `era ${era}`);
    await appEvents(env, has("tool-result"));
    const helped = await inApp(env, () => window.app.callServerTool({ name: "app_helper", arguments: { note: "legacy" } }));
    expect(helped.structuredContent?.note === "legacy", JSON.stringify(helped));
    expect((await stats(A)).calls.app_helper === (before.calls.app_helper ?? 0) + 1, "ran on the server");
    await env.page.evaluate(() => document.getElementById("leg").teardown());
  });
}

async function showAndErrorSteps(env) {
  const { page, A } = env;
  await step("show(tool, args, result): mounts for a result that arrived elsewhere (no server call); a base64 blob resource; the deprecated flat key", async () => {
    const before = await stats(A);
    await page.evaluate(async () => {
      const f = document.getElementById("f") ?? document.getElementById("chat").appendChild(Object.assign(document.createElement("mcp-app-frame"), { id: "f" }));
      f.client = t.clients.a;
      f.sandbox = t.params.sandbox;
      const { tools } = await t.clients.a.listTools();
      await f.show(tools.find((x) => x.name === "show_chart"), { title: "elsewhere" }, { content: [{ type: "text", text: "given" }], structuredContent: { title: "given" } });
    });
    const events = await appEvents(env, has("tool-result"));
    expect(find(events, "tool-input").params.arguments.title === "elsewhere" && find(events, "tool-result").params.structuredContent.title === "given", JSON.stringify(events.slice(-2)));
    expect((await stats(A)).calls.show_chart === before.calls.show_chart, "show() called nothing");
    await page.evaluate(() => document.getElementById("f").show("blob_view", {}));
    await appEvents(env, has("connected"), "the blob app connects");
    const legacy = await mount(env, { tool: "legacy_key" });
    expect(legacy.result, JSON.stringify(legacy));
    await appEvents(env, has("tool-result"), "the legacy-key app gets its result");
  });

  await step("bad input rejects with McpError kind input: a tool without UI, no sandbox, a same-origin sandbox, an unknown tool", async () => {
    const out = await page.evaluate(async () => {
      const f = document.getElementById("f");
      const err = (p) => p.then(() => null, (e) => ({ name: e.name, kind: e.data?.kind, message: e.message }));
      const plain = await err(f.callTool("plain", {}));
      const unknown = await err(f.callTool("no_such_tool", {}));
      f.sandbox = undefined;
      const none = await err(f.callTool("show_chart", {}));
      f.sandbox = `${location.origin}/pkg-template/mcp-app-sandbox.html`;
      const same = await err(f.callTool("show_chart", {}));
      f.sandbox = t.params.sandbox;
      await f.teardown();
      return { plain, unknown, none, same };
    });
    for (const [k, e] of Object.entries(out)) expect(e && e.name === "McpError" && e.kind === "input", `${k}: ${JSON.stringify(e)}`);
    expect(/"plain"/.test(out.plain.message) && /resourceUri/.test(out.plain.message), out.plain.message);
    expect(/another origin/.test(out.same.message), out.same.message);
  });
}

async function removalStep(env) {
  await step("removing the element from the DOM ends its view (no iframe, no tool, later messages ignored); teardown() after is harmless", async () => {
    const out = await mount(env, { tool: "show_chart", id: "gone" });
    expect(out.result, JSON.stringify(out));
    await appEvents(env, has("tool-result"));
    const r = await env.page.evaluate(async () => {
      const f = document.getElementById("gone");
      f.remove();
      const after = { tool: f.tool ?? null, iframe: Boolean(f.shadowRoot.querySelector("iframe")) };
      await f.teardown();
      return after;
    });
    expect(r.tool === null && r.iframe === false, JSON.stringify(r));
  });
}

async function hostileSteps(env) {
  const { page, A, B, context } = env;
  const hostile = (fn, arg) => inApp(env, fn, arg, "viaProxy");
  const calls = async () => { const [a, b] = [await stats(A), await stats(B)]; return JSON.stringify([a.calls, b.calls]); };

  await step("hostile app: its CSP keeps our policy (injected domains refused, no eval); prefersBorder shown", async () => {
    const out = await mount(env, { tool: "hostile", id: "evil" });
    expect(out.result, JSON.stringify(out));
    const csp = await hostile(() => window.csp());
    expect(csp && !/x\.test|unsafe-eval|script-src \*/.test(csp) && /connect-src 'self'/.test(csp), `policy: ${csp}`);
    expect(await hostile(() => window.evalBlocked), "eval is blocked");
    expect(await page.evaluate(() => document.getElementById("evil").hasAttribute("bordered")), "bordered");
  });

  await step("hostile app: malformed JSON-RPC and spoofed proxy messages get nothing (a well-formed ping does)", async () => {
    const w0 = env.warnings.length;
    const before = await calls();
    await hostile(() => { window.inbox.length = 0; window.malformed(); });
    await sleep(600);
    const got = await hostile(() => window.inbox.slice());
    expect(got.length === 0, `answers to malformed messages: ${JSON.stringify(got)}`);
    expect(env.warnings.length - w0 >= 8, `console warnings for dropped messages: ${env.warnings.length - w0}`);
    await hostile(() => window.viaProxy({ jsonrpc: "2.0", id: "p1", method: "ping" }));
    await sleep(300);
    const pong = await hostile(() => window.inbox.slice());
    expect(pong.length === 1 && pong[0].data.id === "p1", `ping answered: ${JSON.stringify(pong)}`);
    expect((await calls()) === before, "no tool ran");
  });

  await step("hostile app: messages straight to the host page (another window than the proxy) get nothing", async () => {
    const before = await calls();
    await hostile(() => {
      window.inbox.length = 0;
      window.toTop({ jsonrpc: "2.0", id: "t1", method: "tools/call", params: { name: "app_helper", arguments: {} } });
      window.toTop({ jsonrpc: "2.0", id: "t2", method: "tools/call", params: { name: "model_only", arguments: {} } });
      window.toTop({ jsonrpc: "2.0", id: "t3", method: "ping" });
      window.toTop({ jsonrpc: "2.0", id: "t4", method: "ui/open-link", params: { url: "https://example.com/" } });
    });
    await sleep(600);
    expect((await hostile(() => window.inbox.length)) === 0, "no answer");
    expect((await calls()) === before, "no tool ran");
  });

  await step("two frames on one sandbox origin: an app's request is handled by its own frame only (source window check)", async () => {
    const [a0, b0] = [await stats(A), await stats(B)];
    const other = await mount(env, { tool: "show_chart", client: "b", id: "other" });
    expect(other.result, JSON.stringify(other));
    await hostile(() => { window.inbox.length = 0; window.viaProxy({ jsonrpc: "2.0", id: "h1", method: "tools/call", params: { name: "app_helper", arguments: { note: "mine" } } }); });
    await sleep(600);
    const got = await hostile(() => window.inbox.filter((m) => m.data?.id === "h1"));
    const [a1, b1] = [await stats(A), await stats(B)];
    expect(got.length === 1 && got[0].data.result?.structuredContent?.server === "a", `answers: ${JSON.stringify(got)}`);
    expect((a1.calls.app_helper ?? 0) === (a0.calls.app_helper ?? 0) + 1, "ran once on the hostile app's server");
    expect((b1.calls.app_helper ?? 0) === (b0.calls.app_helper ?? 0), `the other frame's server ran it too: ${b0.calls.app_helper} → ${b1.calls.app_helper}`);
    await page.evaluate(() => document.getElementById("other").teardown());
  });

  await step("hostile app: a flood of 10,000 size changes; the page stays responsive and the element ends at the last size", async () => {
    await page.evaluate(() => t.gaps.start());
    await hostile(() => window.flood(10000, { width: 234, height: 321 }));
    await page.waitForFunction(() => document.getElementById("evil").getBoundingClientRect().height === 321, null, { timeout: 15_000 });
    await sleep(200);
    const out = await page.evaluate(() => ({ gap: t.gaps.stop(), h: document.getElementById("evil").getBoundingClientRect().height, w: document.getElementById("evil").style.minWidth, sizes: t.log.filter((e) => e.type === "mcp-app-size").length }));
    console.log(`     largest timer gap ${Math.round(out.gap)} ms; ${out.sizes} resizes applied for 10,000 messages`);
    expect(out.h === 321 && out.w === "min(234px, 100%)", `ended at ${out.h} / ${out.w}`);
    expect(out.gap < 1000, `the page froze for ${Math.round(out.gap)} ms`);
    expect(out.sizes < 2000, `${out.sizes} resizes: not coalesced`);
  });

  await step("wrong origin: a popup and a page navigated into the proxy's frame (source right, origin wrong) get nothing", async () => {
    const before = await calls();
    const [popup] = await Promise.all([context.waitForEvent("page"), page.evaluate((u) => { window.open(u, "evilpopup"); }, `${B}/evil.html`)]);
    await popup.waitForFunction(() => window.sent === true);
    await page.evaluate((u) => { document.getElementById("evil").shadowRoot.querySelector("iframe").src = u; }, `${B}/evil.html`);
    const inner = await (async () => {
      const until = Date.now() + 5000;
      while (Date.now() < until) {
        const f = page.frames().find((x) => x.url() === `${B}/evil.html`);
        if (f && (await f.evaluate(() => window.sent === true).catch(() => false))) return f;
        await sleep(50);
      }
      throw new Error("the evil page did not load in the proxy's frame");
    })();
    await page.evaluate(() => document.getElementById("evil").hostContext = { theme: "dark", changed: Date.now() });
    await sleep(700);
    const popupGot = await popup.evaluate(() => window.got);
    const innerGot = await inner.evaluate(() => window.got);
    await popup.close();
    expect(popupGot.length === 0, `popup got: ${JSON.stringify(popupGot)}`);
    expect(innerGot.length === 0, `navigated frame got: ${JSON.stringify(innerGot)}`);
    expect((await calls()) === before, "no tool ran");
    await page.evaluate(() => document.getElementById("evil").teardown());
  });
}

async function proxyPageSteps(env) {
  const { page, A } = env;
  await step("sandbox proxy on its own: bad CSP values dropped (never pasted), sandbox flags kept to its allowlist, relays both ways", async () => {
    const out = await page.evaluate(async ({ SANDBOX, A }) => {
      const url = new URL(SANDBOX);
      url.searchParams.set("host", location.origin);
      const iframe = document.createElement("iframe");
      const got = [];
      const listen = (e) => { if (e.source === iframe.contentWindow && e.origin === url.origin) got.push(e.data); };
      addEventListener("message", listen);
      iframe.src = url.href;
      document.body.append(iframe);
      const wait = async (pred) => { for (let i = 0; i < 100 && !pred(); i++) await new Promise((r) => setTimeout(r, 50)); };
      await wait(() => got.length);
      const ready = got[0]?.method;
      const html = `<!doctype html><html><head><title>x</title></head><body><script>
        const meta = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
        let evalBlocked; try { eval("1"); evalBlocked = false; } catch { evalBlocked = true; }
        addEventListener("message", (e) => parent.postMessage({ jsonrpc: "2.0", method: "echo", params: { echo: e.data, first: document.head.firstElementChild === meta } }, "*"));
        parent.postMessage({ jsonrpc: "2.0", method: "report", params: { csp: meta && meta.content, evalBlocked, origin: String(origin) } }, "*");
        parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
      <\/script></body></html>`;
      const csp = { connectDomains: ["http://x.test; script-src *", "'unsafe-eval'", "*", "https://ok.example", A], resourceDomains: ["https://cdn.example/a b"] };
      iframe.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html, csp, sandbox: "allow-scripts allow-same-origin allow-top-navigation" } }, url.origin);
      await wait(() => got.some((m) => m.method === "report"));
      iframe.contentWindow.postMessage({ jsonrpc: "2.0", method: "ping-down", params: { n: 1 } }, url.origin);
      await wait(() => got.some((m) => m.method === "echo"));
      await new Promise((r) => setTimeout(r, 200));
      removeEventListener("message", listen);
      iframe.remove();
      return { ready, got };
    }, { SANDBOX: env.SANDBOX, A });
    expect(out.ready === "ui/notifications/sandbox-proxy-ready", `first message: ${out.ready}`);
    const report = out.got.find((m) => m.method === "report")?.params;
    expect(report, `no report: ${JSON.stringify(out.got)}`);
    expect(report.csp === `default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'self' https://ok.example ${A}; frame-src 'none'; object-src 'none'; base-uri 'self'`, `policy: ${report.csp}`);
    expect(report.evalBlocked && report.origin === "null", `eval blocked ${report.evalBlocked}, origin ${report.origin} (opaque: no allow-same-origin)`);
    const echo = out.got.find((m) => m.method === "echo")?.params;
    expect(echo?.echo?.method === "ping-down" && echo.first === true, `relayed down and back: ${JSON.stringify(echo)}; CSP meta first in <head>`);
    expect(!out.got.some((m) => m.method === "ui/notifications/sandbox-proxy-ready" && m !== out.got[0]), "the app's spoofed proxy-ready was not relayed");
  });

  await step("sandbox proxy: a ?host= that is not its embedder makes it refuse to run (nothing sent)", async () => {
    const n = await page.evaluate(async (SANDBOX) => {
      const url = new URL(SANDBOX);
      url.searchParams.set("host", "http://127.0.0.1:1");
      const iframe = document.createElement("iframe");
      let count = 0;
      const listen = (e) => { if (e.source === iframe.contentWindow) count++; };
      addEventListener("message", listen);
      iframe.src = url.href;
      document.body.append(iframe);
      await new Promise((r) => iframe.addEventListener("load", r));
      await new Promise((r) => setTimeout(r, 300));
      removeEventListener("message", listen);
      iframe.remove();
      return count;
    }, env.SANDBOX);
    expect(n === 0, `${n} messages`);
  });
}

// ------------------------------------------------------------------------------ run

await runMain(steps, main);
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`elements-apps: ${steps.passed} passed, ${steps.failed} failed (${secs} s)`);
process.exit(steps.failed ? 1 : 0);
