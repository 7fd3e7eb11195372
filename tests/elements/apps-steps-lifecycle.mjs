// Steps of tests/elements/apps.mjs: the sandbox proxy on its own origin, teardown and its order (also
// under load), cancelling a call, CSP.
import { spawn } from "node:child_process";
import os from "node:os";
import { expect } from "../e2e/lib.mjs";
import { step, sleep, inApp, appEvents, has, find, stats, mount } from "./apps-lib.mjs";

export async function proxySteps(env) {
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

export async function teardownStep(env) {
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
export async function underLoad(job) {
  const hogs = os.cpus().map(() => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
  try {
    return await job();
  } finally {
    for (const h of hogs) h.kill("SIGKILL");
  }
}

export async function teardownUnderLoadStep(env) {
  const { page } = env;
  const ROUNDS = 8;
  await step(`teardown under load, ${ROUNDS} rounds: teardown() as soon as callTool() resolves (the view maybe not initialized yet): the app gets its tool-input and tool-result, then ui/resource-teardown, answered before its iframe goes, every round`, async () => {
    const rounds = await underLoad(async () => {
      const out = [];
      for (let i = 0; i < ROUNDS; i++) {
        out.push(await page.evaluate(async ({ i, SANDBOX }) => {
          let f = document.getElementById("load");
          if (!f) {
            f = Object.assign(document.createElement("mcp-app-frame"), { id: "load" });
            document.getElementById("chat").append(f);
          }
          f.client = t.clients.a;
          f.sandbox = SANDBOX;
          const logs = () => t.log.filter((e) => e.type === "mcp-app-log");
          const before = logs().length;
          const result = await f.callTool("show_chart", { title: `load ${i}` });
          await f.teardown();
          const mine = logs().slice(before);
          const seen = mine.filter((e) => e.detail.data === "teardown seen");
          const after = mine.find((e) => Array.isArray(e.detail.data?.teardownAfter))?.detail.data.teardownAfter ?? null;
          return { title: result.structuredContent?.title, seen: seen.length, whileThere: seen.at(-1)?.iframe === true, gone: !f.shadowRoot.querySelector("iframe"), after };
        }, { i, SANDBOX: env.SANDBOX }));
      }
      return out;
    });
    const good = rounds.filter((r, i) => r.title === `load ${i}` && r.seen === 1 && r.whileThere && r.gone
      && JSON.stringify(r.after?.filter((x) => x.startsWith("tool-"))) === '["tool-input","tool-result"]').length;
    expect(good === ROUNDS, `${good} of ${ROUNDS} rounds had tool-input, tool-result, then the app's teardown while its iframe was there: ${JSON.stringify(rounds)}`);
    await page.evaluate(() => document.getElementById("load").remove());
  });
}

export async function cancelStep(env) {
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

export async function cspSteps(env) {
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
