// Steps of tests/elements/apps.mjs: the element and its view. view-session.js loaded late (and
// refused), the README and docs blocks as written, options, host context and size, every request
// an app makes.
import { expect, readmeJsBlocks } from "../e2e/lib.mjs";
import { step, sleep, inApp, appEvents, has, find } from "./apps-lib.mjs";

export async function moduleLoadStep(env) {
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

export async function readmeStep(env) {
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
export function readmeAppsBlock() {
  const block = readmeJsBlocks().find((b) => b.includes('createElement("mcp-app-frame")'));
  if (!block) throw new Error("the docs (README.md, docs/) have no js block that creates an mcp-app-frame");
  return block;
}

export async function readmeBlockStep(env) {
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

export async function optionsStep(env) {
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

export async function contextAndSizeSteps(env) {
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

export async function requestSteps(env) {
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
