// Steps of tests/elements/apps.mjs: a ClientGroup, the legacy era, show and error, removal, a hostile
// app (apps/hostile.html) and a hostile proxy page.
import { expect } from "../e2e/lib.mjs";
import { step, sleep, inApp, appEvents, has, find, stats, mount } from "./apps-lib.mjs";

export async function groupStep(env) {
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

export async function legacyStep(env) {
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

export async function showAndErrorSteps(env) {
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

export async function removalStep(env) {
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

export async function hostileSteps(env) {
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

export async function proxyPageSteps(env) {
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
