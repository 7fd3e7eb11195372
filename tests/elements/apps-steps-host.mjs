// Steps of tests/elements/apps.mjs for what a chat host adds around an app (issue 44): the tool's
// input streamed as partial arguments (sendToolInputPartial, feedToolInput), ui/download-file (the
// prompt, a real download, the limits, refusals), sampling/createMessage from the app (the
// client's samplingCallback, mcp-app-sampling, in a ClientGroup) and the tools the app registers
// (frame.appTools, mcp-app-tools, callAppTool). The app is apps/view.js (the official View SDK).
import { readFile } from "node:fs/promises";
import { expect } from "../e2e/lib.mjs";
import { step, sleep, inApp, appEvents, has, find, stats } from "./apps-lib.mjs";

export async function streamingSteps(env) {
  const { page, A } = env;
  await step("streamed input: show(tool) without args, partial arguments (objects and JSON deltas) in order, then callTool continues the same view: tool-input, tool-result; later partials dropped", async () => {
    const before = await stats(A);
    // while the view mounts: kept, the latest only, then read with the JSON text so far
    const early = await page.evaluate(async () => {
      const frame = t.frame("stream", "a");
      const shown = frame.show("show_chart"); // not awaited: the model's deltas arrive while it mounts
      const taken = [frame.sendToolInputPartial({ title: "Q" }), frame.feedToolInput('{"ti'), frame.feedToolInput('tle": "Q3')];
      await shown;
      t.streamIframe = frame.shadowRoot.querySelector("iframe");
      return taken;
    });
    await appEvents(env, has("tool-input-partial"), "the first partial (the view initialized)");
    // once the view is initialized: each change goes out as it comes
    const out = await page.evaluate(async () => {
      const frame = document.getElementById("stream");
      const taken = [' rev', 'iew", "delay', 'Ms": 0', "}"].map((d) => frame.feedToolInput(d));
      const result = await frame.callTool("show_chart", { title: "Q3 review", delayMs: 0 });
      const dropped = [frame.sendToolInputPartial({ title: "late" }), frame.feedToolInput(' "x"')];
      return { taken, dropped, title: result.structuredContent?.title, sameIframe: frame.shadowRoot.querySelector("iframe") === t.streamIframe };
    });
    expect([...early, ...out.taken].every((x) => x === true) && out.dropped.every((x) => x === false), `taken ${early} ${out.taken}, dropped ${out.dropped}`);
    expect(out.title === "Q3 review" && out.sameIframe, `callTool continued the shown view: ${JSON.stringify(out)}`);
    const events = await appEvents(env, has("tool-result"), "tool-result");
    const types = events.map((e) => e.type).filter((x) => x.startsWith("tool-"));
    expect(JSON.stringify(types) === JSON.stringify([...Array(4).fill("tool-input-partial"), "tool-input", "tool-result"]), `order: ${types}`);
    const partials = events.filter((e) => e.type === "tool-input-partial").map((e) => JSON.stringify(e.params.arguments));
    const want = ['{"title":"Q3"}', '{"title":"Q3 rev"}', '{"title":"Q3 review"}', '{"title":"Q3 review","delayMs":0}'];
    expect(JSON.stringify(partials) === JSON.stringify(want), `partials: ${partials.join(" ")}`);
    expect(JSON.stringify(find(events, "tool-input").params.arguments) === '{"title":"Q3 review","delayMs":0}', "tool-input carries the arguments");
    const after = await stats(A);
    expect(after.calls.show_chart === (before.calls.show_chart ?? 0) + 1 && after.reads["ui://tests/view.html"] === (before.reads["ui://tests/view.html"] ?? 0) + 1, `one call, one read: ${JSON.stringify([before, after])}`);
  });

  await step("streamed input: sendToolInputPartial(non-object) and feedToolInput(non-string) are McpErrors (kind input); with nothing streaming they answer false", async () => {
    const out = await page.evaluate(() => {
      const f = document.getElementById("stream");
      const err = (fn) => { try { fn(); return null; } catch (e) { return { mcp: e instanceof t.mod.McpError, kind: e.data?.kind, message: e.message }; } };
      return {
        partial: err(() => f.sendToolInputPartial("title")),
        array: err(() => f.sendToolInputPartial([1])),
        feed: err(() => f.feedToolInput(5)),
        idle: Object.assign(document.createElement("mcp-app-frame")).sendToolInputPartial({ a: 1 }),
      };
    });
    for (const k of ["partial", "array", "feed"]) expect(out[k]?.mcp && out[k].kind === "input", `${k}: ${JSON.stringify(out[k])}`);
    expect(/sendToolInputPartial/.test(out.partial.message) && /feedToolInput/.test(out.feed.message), JSON.stringify(out));
    expect(out.idle === false, `a frame showing nothing: ${out.idle}`);
    await page.evaluate(() => document.getElementById("stream").teardown());
  });
}

export async function downloadSteps(env) {
  const { page, context, A } = env;
  const refuse = (on) => page.evaluate((on) => (on ? t.refuse.add("mcp-app-download") : t.refuse.delete("mcp-app-download")), on);
  const ask = (params) => inApp(env, (p) => { window.dl = window.app.downloadFile(p).then((r) => ({ r }), (e) => ({ e: e.message })); }, params);
  const answer = () => inApp(env, () => window.dl);
  const button = (n = 0) => page.locator('mcp-app-frame#dl [part="download-button"]').nth(n);

  await step("ui/download-file: declared; the page hears mcp-app-download; the prompt's Download saves the text as a sanitised name (a real download, no navigation)", async () => {
    await page.evaluate(async () => { await t.frame("dl", "a").callTool("show_chart", { title: "dl" }); });
    const events = await appEvents(env, has("connected"));
    expect(find(events, "connected").hostCapabilities.downloadFile, `downloadFile declared: ${JSON.stringify(find(events, "connected").hostCapabilities)}`);
    const url = page.url();
    let pages = 0;
    const counted = () => { pages++; };
    context.on("page", counted);
    const body = JSON.stringify({ quarter: 3, note: "ünïcode" });
    await ask({ contents: [{ type: "resource", resource: { uri: "file:///reports/..%2F..%2Fq3\u202Egnp.json", mimeType: "application/json", text: body } }] });
    await button().waitFor();
    const a11y = await page.evaluate(() => {
      const root = document.getElementById("dl").shadowRoot;
      const box = root.querySelector('[part="download"]');
      return { role: box.getAttribute("role"), label: root.getElementById(box.getAttribute("aria-labelledby"))?.textContent, focused: root.activeElement?.getAttribute("part"), aria: root.activeElement?.getAttribute("aria-label") };
    });
    expect(a11y.role === "dialog" && /offers a file/.test(a11y.label) && a11y.focused === "download-button", `prompt: ${JSON.stringify(a11y)}`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    const name = download.suggestedFilename();
    const saved = await readFile(await download.path(), "utf8");
    const r = await answer();
    context.off("page", counted);
    expect(saved === body, `saved ${JSON.stringify(saved)}`);
    expect(name === "q3_gnp.json" && a11y.aria === `Download ${name}`, `name ${JSON.stringify(name)} (aria ${a11y.aria})`);
    expect(r.r && !r.r.isError, `the app's answer: ${JSON.stringify(r)}`);
    expect(page.url() === url && pages === 0, `no navigation (${page.url()}), no window (${pages})`);
    const heard = await page.evaluate(() => t.log.filter((e) => e.type === "mcp-app-download").map((e) => ({ files: e.detail.files.map((f) => ({ name: f.name, mimeType: f.mimeType, size: f.size, blobType: f.blob.type })), tool: e.detail.tool })));
    expect(JSON.stringify(heard) === JSON.stringify([{ files: [{ name, mimeType: "application/json", size: new TextEncoder().encode(body).length, blobType: "application/json" }], tool: "show_chart" }]), JSON.stringify(heard));
  });

  await step("ui/download-file: a base64 blob and an http(s) link the host fetches (two buttons); HTML saved as bytes; Close with none saved → isError", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString("base64");
    await ask({ contents: [
      { type: "resource", resource: { uri: "file:///chart.png", mimeType: "image/png", blob: png } },
      { type: "resource_link", uri: `${A}/data`, name: "data", mimeType: "application/json" },
      { type: "resource", resource: { uri: "file:///page.html", mimeType: "text/html", text: "<script>alert(1)</script>" } },
    ] });
    await button(2).waitFor();
    const heard = await page.evaluate(() => t.log.filter((e) => e.type === "mcp-app-download").at(-1).detail.files.map((f) => [f.name, f.mimeType, f.size, f.blob.type]));
    const [download] = await Promise.all([page.waitForEvent("download"), button(0).click()]);
    const bytes = await readFile(await download.path());
    expect(bytes.equals(Buffer.from(png, "base64")) && download.suggestedFilename() === "chart.png", `saved ${download.suggestedFilename()} ${bytes.toString("hex")}`);
    expect(JSON.stringify(heard[1].slice(0, 2)) === '["data","application/json"]' && heard[1][2] > 0, `fetched link: ${JSON.stringify(heard)}`);
    expect(JSON.stringify(heard[2]) === '["page.html","text/html",25,"application/octet-stream"]', `html: ${JSON.stringify(heard[2])}`);
    await page.locator('mcp-app-frame#dl [part="download-close"]').click();
    const r = await answer();
    expect(r.r && !r.r.isError, `one saved, then Close: the app's answer ${JSON.stringify(r)}`);
    await ask({ contents: [{ type: "resource", resource: { uri: "file:///x.txt", text: "x" } }] });
    await button().waitFor();
    await page.keyboard.press("Escape");
    const closed = await answer();
    expect(closed.r?.isError === true, `Escape, nothing saved: ${JSON.stringify(closed)}`);
    expect(await page.locator('mcp-app-frame#dl [part="download"]').count() === 0, "the prompt is gone");
  });

  await step("ui/download-file refused: the page's preventDefault (isError, no prompt); over frame.downloadLimits, data:/javascript: links, a bad MIME type or base64 are errors naming what is wrong", async () => {
    await refuse(true);
    await ask({ contents: [{ type: "resource", resource: { uri: "file:///x.txt", text: "x" } }] });
    const prevented = await answer();
    await refuse(false);
    expect(prevented.r?.isError === true && await page.locator('mcp-app-frame#dl [part="download"]').count() === 0, `prevented: ${JSON.stringify(prevented)}`);
    await page.evaluate(() => { document.getElementById("dl").downloadLimits = { maxBytes: 8, maxFiles: 1 }; });
    const cases = {
      size: [{ type: "resource", resource: { uri: "file:///big.txt", text: "123456789" } }],
      count: [{ type: "resource", resource: { uri: "file:///a.txt", text: "a" } }, { type: "resource", resource: { uri: "file:///b.txt", text: "b" } }],
      data: [{ type: "resource_link", uri: "data:text/plain,hi", name: "hi" }],
      script: [{ type: "resource_link", uri: "javascript:alert(1)", name: "x" }],
      mime: [{ type: "resource", resource: { uri: "file:///a.txt", mimeType: "text html", text: "a" } }],
      base64: [{ type: "resource", resource: { uri: "file:///a.bin", blob: "!!!" } }],
    };
    const got = {};
    for (const [k, contents] of Object.entries(cases)) {
      await ask({ contents });
      got[k] = (await answer()).e ?? "resolved";
    }
    await page.evaluate(() => { document.getElementById("dl").downloadLimits = undefined; });
    const want = { size: /download limit of 8 bytes/, count: /2 files asked, the frame allows 1/, data: /only http\(s\) links .* data:/, script: /only http\(s\) links .* javascript:/, mime: /"text html" is not a MIME type/, base64: /blob is not base64/ };
    for (const [k, re] of Object.entries(want)) expect(re.test(got[k]), `${k}: ${got[k]}`);
    await page.evaluate(() => document.getElementById("dl").teardown());
  });
}

export async function samplingSteps(env) {
  const { page } = env;
  await step("sampling/createMessage from the app: declared; the client's samplingCallback answers with ctx.app { tool, server }; mcp-app-sampling heard; preventDefault → an error", async () => {
    const out = await page.evaluate(async () => {
      t.sampled = [];
      t.clients.sampling = new t.mod.Client(t.params.a, {
        apps: true,
        samplingCallback: async (ctx, params) => {
          t.sampled.push({ app: ctx.app, meta: ctx.meta, hasSignal: ctx.signal instanceof AbortSignal, text: params.messages[0].content.text });
          return { role: "assistant", content: { type: "text", text: `echo: ${params.messages[0].content.text}` }, model: "test-model", stopReason: "endTurn" };
        },
      });
      await t.clients.sampling.connect();
      await t.frame("smp", "sampling").callTool("show_chart", { title: "sampling" });
      return { getter: typeof t.clients.sampling.samplingCallback };
    });
    expect(out.getter === "function", `client.samplingCallback: ${out.getter}`);
    const events = await appEvents(env, has("connected"));
    expect(find(events, "connected").hostCapabilities.sampling, `sampling declared: ${JSON.stringify(find(events, "connected").hostCapabilities)}`);
    const msg = { messages: [{ role: "user", content: { type: "text", text: "summarise Q3" } }], maxTokens: 50 };
    const r = await inApp(env, (p) => window.app.createSamplingMessage(p), msg);
    expect(r.content?.text === "echo: summarise Q3" && r.model === "test-model", `result: ${JSON.stringify(r)}`);
    const seen = await page.evaluate(() => t.sampled);
    expect(JSON.stringify(seen) === JSON.stringify([{ app: { tool: "show_chart" }, meta: null, hasSignal: true, text: "summarise Q3" }]), JSON.stringify(seen));
    const heard = await page.evaluate(() => t.log.filter((e) => e.type === "mcp-app-sampling").map((e) => e.detail));
    expect(heard.length === 1 && heard[0].app.tool === "show_chart" && heard[0].maxTokens === 50, JSON.stringify(heard));
    await page.evaluate(() => t.refuse.add("mcp-app-sampling"));
    const refused = await inApp(env, (p) => window.app.createSamplingMessage(p).then(() => "resolved", (e) => e.message), msg);
    await page.evaluate(() => t.refuse.delete("mcp-app-sampling"));
    expect(/host refused/.test(refused) && (await page.evaluate(() => t.sampled.length)) === 1, refused);
    const tools = await inApp(env, (p) => window.app.createSamplingMessage({ ...p, tools: [{ name: "x", inputSchema: { type: "object" } }] }).then(() => "resolved", (e) => e.message), msg);
    expect(/tools in an app's sampling request are not supported/.test(tools), tools);
    await page.evaluate(() => document.getElementById("smp").teardown());
  });

  await step("sampling without a samplingCallback: not declared; the app's request (the View SDK's, a raw one) gets -32601 naming the missing callback", async () => {
    await page.evaluate(async () => { await t.frame("smp", "a").callTool("show_chart", { title: "no sampling" }); });
    const events = await appEvents(env, has("connected"));
    expect(find(events, "connected").hostCapabilities.sampling === undefined, JSON.stringify(find(events, "connected").hostCapabilities));
    const sdk = await inApp(env, () => window.app.createSamplingMessage({ messages: [], maxTokens: 5 }).then(() => "resolved", (e) => e.message));
    expect(/the host's client has no samplingCallback/.test(sdk), sdk);
    await inApp(env, () => { window.inbox.length = 0; window.raw({ jsonrpc: "2.0", id: "smp-1", method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } }); });
    await sleep(400);
    const reply = (await inApp(env, () => window.inbox)).find((m) => m.id === "smp-1");
    expect(reply?.error?.code === -32601 && /no samplingCallback/.test(reply.error.message), JSON.stringify(reply));
    await page.evaluate(() => document.getElementById("smp").teardown());
  });

  await step("sampling in a ClientGroup: the group's samplingCallback hears ctx.server and ctx.app.server", async () => {
    const out = await page.evaluate(async () => {
      t.groupSampled = [];
      t.clients.sgroup = new t.mod.ClientGroup({
        apps: true,
        servers: { a: { url: t.params.a }, b: { url: t.params.b } },
        samplingCallback: async (ctx) => { t.groupSampled.push({ server: ctx.server, app: ctx.app }); return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" }; },
      });
      await t.clients.sgroup.connect();
      await t.frame("smp", "sgroup").callTool("b__show_chart", { title: "g" });
      return true;
    });
    expect(out, "mounted");
    await appEvents(env, has("connected"));
    const r = await inApp(env, () => window.app.createSamplingMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }));
    const seen = await page.evaluate(() => t.groupSampled);
    expect(r.content?.text === "ok" && JSON.stringify(seen) === '[{"server":"b","app":{"tool":"show_chart","server":"b"}}]', JSON.stringify({ r, seen }));
    await page.evaluate(async () => { await document.getElementById("smp").teardown(); await t.clients.sgroup.close(); await t.clients.sampling.close(); });
  });
}

export async function appToolSteps(env) {
  const { page } = env;
  await step("app tools: frame.appTools lists what the app registered (mcp-app-tools); callAppTool runs it in the app; a tool added later fires mcp-app-tools again", async () => {
    await page.evaluate(async () => {
      const f = t.frame("tools", "a");
      f.addEventListener("mcp-app-tools", (e) => (t.toolEvents ??= []).push(e.detail.tools.map((x) => x.name)));
      await f.callTool("show_chart", { title: "tools" });
    });
    await page.waitForFunction(() => document.getElementById("tools").appTools.length > 0);
    const listed = await page.evaluate(() => document.getElementById("tools").appTools);
    expect(listed.length === 1 && listed[0].name === "pick_quarter" && listed[0].inputSchema?.properties?.quarter?.type === "integer", JSON.stringify(listed));
    const r = await page.evaluate(() => document.getElementById("tools").callAppTool("pick_quarter", { quarter: 3 }));
    expect(r.structuredContent?.quarter === 3 && r.content?.[0]?.text === "picked Q3", JSON.stringify(r));
    const calls = (await appEvents(env, has("app-tool-call"))).filter((e) => e.type === "app-tool-call");
    expect(calls.length === 1 && calls[0].quarter === 3, JSON.stringify(calls));
    await inApp(env, () => { window.addTool(); });
    await page.waitForFunction(() => t.toolEvents?.length === 2);
    const events = await page.evaluate(() => t.toolEvents);
    expect(JSON.stringify(events) === '[["pick_quarter"],["pick_quarter","app_echo"]]', JSON.stringify(events));
    const echo = await page.evaluate(() => document.getElementById("tools").callAppTool("app_echo", { text: "hello app" }));
    expect(echo.content?.[0]?.text === "hello app", JSON.stringify(echo));
  });

  await step("app tools: an unknown name, bad args, no app shown, an aborted signal are McpErrors; the app's own refusal keeps its code", async () => {
    const out = await page.evaluate(async () => {
      const f = document.getElementById("tools");
      const err = (p) => p.then((r) => ({ resolved: r }), (e) => ({ mcp: e instanceof t.mod.McpError, code: e.code, kind: e.data?.kind, message: e.message }));
      const unknown = await err(f.callAppTool("nope", {}));
      const args = await err(f.callAppTool("pick_quarter", [3]));
      const invalid = await err(f.callAppTool("pick_quarter", { quarter: 9 }));
      const aborted = await err(f.callAppTool("pick_quarter", { quarter: 1 }, { signal: AbortSignal.abort() }));
      await f.teardown();
      const none = await err(f.callAppTool("pick_quarter", { quarter: 1 }));
      return { unknown, args, invalid, aborted, none, appTools: f.appTools };
    });
    expect(out.unknown.mcp && out.unknown.kind === "input" && /no tool "nope".*pick_quarter, app_echo/.test(out.unknown.message), JSON.stringify(out.unknown));
    expect(out.args.kind === "input" && out.none.kind === "input" && /no initialized app/.test(out.none.message), JSON.stringify([out.args, out.none]));
    expect(out.aborted.kind === "aborted", JSON.stringify(out.aborted));
    const refusedByApp = out.invalid.resolved?.isError === true || (out.invalid.mcp && Number.isInteger(out.invalid.code) && out.invalid.kind === undefined);
    expect(refusedByApp && /quarter/.test(JSON.stringify(out.invalid)), `the app's validation: ${JSON.stringify(out.invalid)}`);
    expect(JSON.stringify(out.appTools) === "[]", "no app shown: appTools []");
    await page.evaluate(() => document.getElementById("tools").remove());
  });
}
