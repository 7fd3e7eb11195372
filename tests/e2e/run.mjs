// End-to-end test of the browser demo (www/) against the bundled demo server (demo/server.py).
//
//   cd tests/e2e && npm ci && node run.mjs        (needs pkg/web: wasm-pack build --target web --out-dir pkg/web)
//
// Starts demo/server.py and a static server (python3 -m http.server) on free 127.0.0.1 ports
// (E2E_PORTS="a-b", default 18601-18610), drives Debian's /usr/bin/chromium with playwright-core,
// prints one line per step and "e2e: N passed, M failed", saves screenshots (E2E_SCREENSHOTS=docs: to
// docs/screenshots/, the README's; default a temporary folder; 0: none; see lib.mjs),
// and stops both servers by PID; E2E_HEADED=1 shows the window.
import path from "node:path";
import { ROOT, SHOTS, TAKE_SHOTS, expect, freePorts, launchChromium, needWebPackage, shot, shotsFolder, shotsTaken, start, stepper, stopChildren, waitHttp } from "./lib.mjs";

const PORTS = process.env.E2E_PORTS ?? "18601-18610";
const started = Date.now();
const steps = stepper(20_000);
const { step } = steps;

// ------------------------------------------------------------------------------ main

async function main() {
  needWebPackage();
  const [mcpPort, webPort, deadPort, sandboxPort] = await freePorts(4, PORTS); // deadPort: nothing listens (a ClientGroup server that fails)
  const mcp = start("demo server", "python3", ["demo/server.py", String(mcpPort)]);
  const web = start("static server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", ROOT, String(webPort)]);
  // the MCP Apps sandbox proxy, from another origin (as scripts/demo.sh serves it)
  const sandbox = start("sandbox static server", "python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", ROOT, String(sandboxPort)]);
  await Promise.all([waitHttp(`http://127.0.0.1:${mcpPort}/connect`, mcp), waitHttp(`http://127.0.0.1:${webPort}/www/`, web),
    waitHttp(`http://127.0.0.1:${sandboxPort}/pkg-template/mcp-app-sandbox.html`, sandbox)]);
  const MCP_URL = `http://127.0.0.1:${mcpPort}/mcp`;
  const SANDBOX = `http://127.0.0.1:${sandboxPort}/pkg-template/mcp-app-sandbox.html`;
  console.log(`# demo server ${MCP_URL} (pid ${mcp.pid}), static http://127.0.0.1:${webPort}/ (pid ${web.pid}), sandbox ${SANDBOX} (pid ${sandbox.pid})`);

  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  // (the ClientGroup step's server on deadPort is refused on purpose: Chromium logs that load as an error)
  page.on("console", (m) => { if (m.type() === "error" && !m.location()?.url?.includes(`:${deadPort}/`)) pageErrors.push(`console: ${m.text()}`); });

  const $ = (sel) => page.locator(sel);
  const lastResult = (tool) => $(`[data-test="msg-result"][data-tool="${tool}"]`).last();
  async function settled(tool) {
    const li = lastResult(tool);
    await li.and(page.locator(':not([data-state="pending"])')).waitFor();
    return li;
  }
  async function callTool(tool, args = {}) {
    await $(`[data-test="tool-${tool}"]`).click();
    for (const [k, v] of Object.entries(args)) await $(`[data-test="arg-${k}"]`).fill(String(v));
    const before = await $(`[data-test="msg-result"][data-tool="${tool}"]`).count();
    await $('[data-test="call"]').click();
    await $(`[data-test="msg-result"][data-tool="${tool}"]`).nth(before).waitFor();
  }

  async function connectTo(mode) {
    await page.goto(`http://127.0.0.1:${webPort}/www/?url=${encodeURIComponent(MCP_URL)}&mode=${mode}&autoconnect=1&sandbox=${encodeURIComponent(SANDBOX)}`);
    await $('[data-test="status"][data-state="connected"]').waitFor();
  }

  // 1. connect (auto picks the 2026-07-28 era on this dual-era server)
  await step("connect (auto mode): status, era, server info, tools", async () => {
    await connectTo("auto");
    const era = await $('[data-test="era"]').textContent();
    const proto = await $('[data-test="protocol-version"]').textContent();
    const info = await $('[data-test="server-info"]').textContent();
    const tools = await $('[data-test="tools"] button').count();
    expect(era && era !== "?", `era shown: ${era}`);
    expect(proto === "2026-07-28", `protocol ${proto}`);
    expect(/mcp-wasm-demo-server/.test(info), `server info: ${info}`);
    expect(tools >= 9, `tools listed: ${tools}`);
    console.log(`     era ${era}, protocol ${proto}, server "${info}", ${tools} tools`);
  });
  await shot(page, "01-connected.png");

  // 2. roots management
  await step("roots: reject a non-file URI, add one, list_workspace sees both", async () => {
    await $('[data-test="root-uri"]').fill("https://example.com/");
    await $('[data-test="root-add"]').click();
    await $('[data-test="root-error"]:visible').waitFor();
    await $('[data-test="root-uri"]').fill("file:///home/demo/notes");
    await $('[data-test="root-name"]').fill("notes");
    await $('[data-test="root-add"]').click();
    expect(await $('[data-test="root"]').count() === 2, "two roots listed");
    expect(await $('[data-test="root-error"]').isHidden(), "error cleared");
    await callTool("list_workspace");
    const li = await settled("list_workspace");
    const text = await li.textContent();
    expect(/2 root\(s\)/.test(text) && text.includes("file:///home/demo/notes"), `result: ${text}`);
    await $('[data-test="roots-request"]').last().waitFor();
  });

  // 3. form elicitation: every field kind, an invalid email first
  await step("elicitation: invalid email shows an inline error, nothing sent", async () => {
    const before = await $('[data-test="elicitation"]').count();
    await callTool("register_attendee");
    const card = $('[data-test="elicitation"]').nth(before);
    await card.locator('[data-test="elicitation-form"]').waitFor();
    const kinds = await card.locator(".efield").evaluateAll((els) => els.map((e) => e.dataset.kind));
    for (const k of ["text", "email", "uri", "date", "date-time", "number", "integer", "boolean", "single-select", "multi-select"]) {
      expect(kinds.includes(k), `field kind ${k} rendered (have ${kinds.join(",")})`);
    }
    expect(await card.locator('[data-test="input-guests"]').inputValue() === "1", "integer default 1 prefilled");
    await card.locator('[data-test="input-name"]').fill("Ada Lovelace");
    await card.locator('[data-test="input-email"]').fill("ada-at-example");
    await card.locator('[data-test="input-website"]').fill("https://ada.example.org/");
    await card.locator('[data-test="input-arrival"]').fill("2026-09-14");
    await card.locator('[data-test="input-talk_slot"]').fill("2026-09-15T10:30");
    await card.locator('[data-test="input-budget"]').fill("350.5");
    await card.locator('[data-test="input-guests"]').fill("2");
    await card.locator('[data-test="input-newsletter"]').check();
    await card.locator('[data-test="input-ticket-vip"]').check();
    await card.locator('[data-test="input-track-rust"]').check();
    await card.locator('[data-test="input-workshops-wasm-bindgen"]').check();
    await card.locator('[data-test="input-workshops-mcp-servers"]').check();
    await card.locator('[data-test="elicitation-accept"]').click();
    const err = card.locator('[data-test="field-error-email"]');
    await err.waitFor({ state: "visible" });
    const msg = await err.textContent();
    expect(/email/i.test(msg), `email error text: ${msg}`);
    expect(await card.getAttribute("data-state") === "pending", "still pending (nothing sent)");
    expect(await card.locator('[data-test="input-email"]').getAttribute("aria-invalid") === "true", "aria-invalid on email");
    const others = await card.locator('[data-test^="field-error-"]:visible').count();
    expect(others === 1, `only the email has an error (visible errors: ${others})`);
    await card.evaluate((e) => e.scrollIntoView({ block: "start" }));
  });
  await shot(page, "02-elicitation-invalid-email.png");
  if (TAKE_SHOTS) { // the form card alone (<mcp-elicitation-form>) with its inline error, for the README
    await $('[data-test="elicitation"]').last().screenshot({ path: path.join(SHOTS, "elicitation-form-error.png") });
  }

  await step("elicitation: fix the email, submit, see the registration", async () => {
    const card = $('[data-test="elicitation"]').last();
    await card.locator('[data-test="input-email"]').fill("ada@example.org");
    await card.locator('[data-test="field-error-email"]').waitFor({ state: "hidden" });
    await card.locator('[data-test="elicitation-accept"]').click();
    expect(await card.getAttribute("data-state") === "accept", "accepted");
    const li = await settled("register_attendee");
    const text = await li.textContent();
    for (const want of ["Registered Ada Lovelace <ada@example.org>", "ticket: vip", "track: rust",
      "wasm-bindgen, mcp-servers", "guests: 2", "newsletter: yes", "arrival: 2026-09-14", "budget: 350.5 EUR", "talk slot: 2026-09-15T"]) {
      expect(text.includes(want), `result has "${want}": ${text}`);
    }
  });
  await shot(page, "03-elicitation-accepted.png");

  await step("elicitation: call again and decline", async () => {
    const before = await $('[data-test="elicitation"]').count();
    await callTool("register_attendee");
    const card = $('[data-test="elicitation"]').nth(before);
    await card.waitFor();
    await card.locator('[data-test="elicitation-decline"]').click();
    const li = await settled("register_attendee");
    const text = await li.textContent();
    expect(/user chose decline/.test(text), `result: ${text}`);
    expect(await card.getAttribute("data-state") === "decline", "card shows decline");
  });

  // 4. sampling approval with an edited reply
  await step("sampling: approval dialog, edit the reply, approve, reply in the result", async () => {
    await callTool("write_haiku", { topic: "WebAssembly" });
    const dlg = $('[data-test="sampling-dialog"]');
    await dlg.waitFor({ state: "visible" });
    const req = await $('[data-test="sampling-request"]').textContent();
    expect(/haiku about WebAssembly/.test(req), `request shown: ${req}`);
    const draft = await $('[data-test="sampling-reply"]').inputValue();
    expect(draft.length > 0, "a draft reply is prefilled");
    await $('[data-test="sampling-reply"]').fill("Bytes cross the border\nRust wakes inside the browser\nthe server says thanks");
    await $('[data-test="sampling-model"]').fill("e2e-human");
    await shot(page, "04-sampling-dialog.png");
    await $('[data-test="sampling-approve"]').click();
    await dlg.waitFor({ state: "hidden" });
    const li = await settled("write_haiku");
    const text = await li.textContent();
    expect(text.includes("Rust wakes inside the browser") && text.includes("e2e-human"), `result: ${text}`);
  });

  // 5. URL-mode elicitation consent
  let connectUrl = "";
  await step("url elicitation: consent dialog shows full URL + domain, open in a new window", async () => {
    await callTool("connect_account");
    const dlg = $('[data-test="url-dialog"]');
    await dlg.waitFor({ state: "visible" });
    connectUrl = (await $('[data-test="url-full"]').textContent()).trim();
    const domain = (await $('[data-test="url-domain"]').textContent()).trim();
    expect(new RegExp(`^http://127\\.0\\.0\\.1:${mcpPort}/connect\\?id=[0-9a-f]{12}$`).test(connectUrl), `full URL: ${connectUrl}`);
    expect(domain === `127.0.0.1:${mcpPort}`, `domain: ${domain}`);
    expect(await $('[data-test="url-full"] mark').textContent() === `127.0.0.1:${mcpPort}`, "domain highlighted in the URL");
    expect(context.pages().length === 1, "nothing opened before consent");
    await shot(page, "05-url-consent.png");
    const popupP = context.waitForEvent("page", { timeout: 5_000 });
    await $('[data-test="url-open"]').click();
    const popup = await popupP;
    await popup.waitForLoadState("domcontentloaded").catch(() => {});
    expect(popup.url() === connectUrl, `popup at ${popup.url()}`);
    await popup.close();
    const li = await settled("connect_account");
    const text = await li.textContent();
    expect(/agreed to open/.test(text), `result: ${text}`);
  });

  // 6. progress + logs
  await step("progress and log messages in the transcript (long_task)", async () => {
    const logsBefore = await $('[data-test="log"]').count();
    await callTool("long_task", { steps: 4 });
    await lastResult("long_task").locator('[data-test="progress"]').waitFor();
    const li = await settled("long_task");
    const text = await li.textContent();
    expect(/Done: 4 steps/.test(text), `result: ${text}`);
    const prog = await li.locator('[data-test="progress"]').textContent();
    expect(/4 \/ 4/.test(prog), `progress: ${prog}`);
    const logs = (await $('[data-test="log"]').count()) - logsBefore;
    expect(logs >= 5, `log lines: ${logs}`);
  });
  await shot(page, "06-progress-and-logs.png");

  // 7. other result kinds
  await step("results: image, structured content, tool error", async () => {
    await callTool("make_badge", { color: "purple" });
    await (await settled("make_badge")).locator('[data-test="content-image"] img').waitFor();
    await callTool("add", { a: 2, b: 40 });
    const add = await (await settled("add")).locator('[data-test="structured"]').textContent();
    expect(/"sum": 42/.test(add), `structured: ${add}`);
    await callTool("fail", { message: "on purpose" });
    const fail = await settled("fail");
    expect(await fail.getAttribute("data-state") === "tool-error", "isError shown");
  });
  await shot(page, "07-rich-results.png");

  // 7b. a long job runs as a 2026 task (io.modelcontextprotocol/tasks): reload mid-task, the result still arrives
  await step("long_task as a task: reload the page mid-task, the result still arrives", async () => {
    await callTool("long_task", { steps: 12 }); // 12 × 0.25 s: a task (8 steps and up)
    const line = lastResult("long_task").locator('[data-test="task"]');
    await line.waitFor();
    const taskId = await line.getAttribute("data-task-id");
    expect(/^[0-9a-f]{32}$/.test(taskId ?? ""), `task id shown: ${taskId}`);
    const stored = await page.evaluate(() => sessionStorage.getItem("mcp-demo-task"));
    expect(stored?.includes(taskId), `task stored for the reload: ${stored}`);
    expect(await lastResult("long_task").getAttribute("data-state") === "pending", "reloading while the task works");
    const reloadedAt = Date.now();
    await connectTo("auto"); // a page load: the old page and its Client are gone
    await $('[data-test="msg-task-resumed"]').waitFor();
    const resumed = $(`[data-test="msg-result"][data-resumed="1"][data-task-id="${taskId}"]`);
    await resumed.and(page.locator(':not([data-state="pending"])')).waitFor();
    const text = await resumed.textContent();
    expect(/Done: 12 steps/.test(text), `resumed result: ${text}`);
    expect(await resumed.getAttribute("data-state") === "ok", "shown as a result");
    expect(await page.evaluate(() => sessionStorage.getItem("mcp-demo-task")) === null, "the stored task is forgotten once done");
    console.log(`     task ${taskId.slice(0, 8)}… resumed after the reload, result ${Date.now() - reloadedAt} ms later`);
  });

  // 7c. an MCP App: show_chart's view renders inline in <mcp-app-frame>, its sandbox on another origin
  await step("MCP App: show_chart's app renders inline, calls its app-only tool through the host, posts a chat message", async () => {
    expect(await $('[data-test="tool-chart_total"]').count() === 0, "the app-only tool chart_total is left out of the tool list");
    await callTool("show_chart");
    const li = await settled("show_chart");
    expect(await li.getAttribute("data-state") === "ok", "the call's result is shown");
    // the element's shadow root holds the proxy's iframe (the sandbox origin), which holds the app's
    const app = li.locator('[data-test="app-frame"] iframe').contentFrame().locator("iframe").contentFrame();
    await app.locator("#title", { hasText: "Tool calls per day" }).waitFor();
    expect(await app.locator("svg rect").count() === 7, "seven bars drawn from the tool's input");
    await app.locator("#total").click();
    await app.locator("#status", { hasText: "Total: 35" }).waitFor();
    const height = await li.locator('[data-test="app-frame"]').evaluate((el) => el.getBoundingClientRect().height);
    expect(height > 150, `the frame took the app's height: ${height}`);
    await app.locator("#ask").click();
    const msg = await $('[data-test="msg-app"]').last().textContent();
    expect(/What stands out in "Tool calls per day": 3, 5, 2, 8, 6, 4, 7\?/.test(msg), `the app's ui/message in the transcript: ${msg}`);
    await li.scrollIntoViewIfNeeded();
  });
  await shot(page, "11-mcp-app.png");

  // 8. the legacy era runs the same flows
  await step("legacy era: URL consent (decline), sampling, progress", async () => {
    await connectTo("legacy");
    const proto = await $('[data-test="protocol-version"]').textContent();
    expect(proto !== "2026-07-28", `legacy protocol: ${proto}`);
    await callTool("connect_account");
    await $('[data-test="url-dialog"]').waitFor({ state: "visible" });
    await $('[data-test="url-decline"]').click();
    expect(/user chose decline/.test(await (await settled("connect_account")).textContent()), "declined on legacy");
    await callTool("write_haiku", { topic: "sessions" });
    await $('[data-test="sampling-dialog"]').waitFor({ state: "visible" });
    await $('[data-test="sampling-approve"]').click();
    expect(/sessions in the browser/.test(await (await settled("write_haiku")).textContent()), "draft reply sent");
    await callTool("long_task", { steps: 2 });
    const li = await settled("long_task");
    expect(/2 \/ 2/.test(await li.locator('[data-test="progress"]').textContent()), "progress on legacy");
    expect(await $('[data-test="log"]').count() >= 3, "logs on legacy");
  });

  // ClientGroup: several servers on one page (the URL field holds name=url …)
  await step("ClientGroup: statuses per server, merged tools, a form and a dialog labelled with the server that asked", async () => {
    const servers = `notes=${MCP_URL} files=${MCP_URL} gone=http://127.0.0.1:${deadPort}/mcp`;
    await page.goto(`http://127.0.0.1:${webPort}/www/?url=${encodeURIComponent(servers)}&mode=auto&autoconnect=1`);
    await $('[data-test="status"][data-state="connected"]').waitFor();
    const status = async (name) => $(`[data-test="server-${name}"]`).getAttribute("data-status");
    for (const [name, want] of [["notes", "connected"], ["files", "connected"], ["gone", "failed"]]) {
      expect(await status(name) === want, `${name}: ${await status(name)}`);
    }
    expect(/2 of 3 servers connected/.test(await $('[data-test="group-summary"]').textContent()), "summary");
    for (const tool of ["notes__echo", "files__echo", "files__register_attendee"]) {
      expect(await $(`[data-test="tool-${tool}"]`).count() === 1, `tool ${tool} listed`);
    }
    const before = await $('[data-test="elicitation"]').count();
    await callTool("files__register_attendee");
    const card = $('[data-test="elicitation"]').nth(before);
    await card.locator('[data-test="elicitation-form"]').waitFor();
    const who = await card.locator(".who").textContent();
    expect(who === "files asks", `form labelled: ${who}`);
    await card.locator(".who").evaluate((e) => e.scrollIntoView({ block: "start" })); // the label shows
    await page.evaluate(() => window.scrollTo(0, 0)); // the servers card, the tools and the form
    await shot(page, "10-client-group.png");
    await card.locator('[data-test="elicitation-decline"]').click();
    await settled("files__register_attendee");

    await callTool("notes__write_haiku", { topic: "groups" });
    await $('[data-test="sampling-dialog"][open]').waitFor();
    const title = await $("#sampling-title").textContent();
    expect(/"notes"/.test(title), `dialog title: ${title}`);
    await $('[data-test="sampling-approve"]').click();
    await settled("notes__write_haiku");
    expect(await $('[data-test="sampling-request-msg"] .who').last().textContent() === "notes asks", "sampling message labelled");
  });

  await step("no page errors", async () => {
    expect(pageErrors.length === 0, pageErrors.join("\n"));
  });

  await browser.close();
  if (steps.failed) {
    console.log(`# demo server log (tail):\n${mcp.log().split("\n").slice(-15).join("\n")}`);
  }
  stopChildren();
  if (shotsTaken().length) console.log(`# screenshots in ${shotsFolder()}: ${shotsTaken().join(", ")}`);
  console.log(`e2e: ${steps.passed} passed, ${steps.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = steps.failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  stopChildren();
  console.log(`e2e: ${steps.passed} passed, ${steps.failed + 1} failed`);
  process.exit(1);
});
