// Transports written in JavaScript, in Chromium: windowTransport between a page and a cross-origin
// iframe hosting the TS SDK 1.x server (tests/peers/ts_transport_server.mjs bundled for the browser
// with esbuild), its origin and source checks (forged messages from a third origin and from another
// window of the server's origin are dropped and reported to messageHandler), the refusal of "*",
// messagePortTransport to a module worker hosting the same server, and to a module worker serving on
// a BroadcastChannel; inMemoryPair() with the same server bundled into the page itself.
//
// Three origins: 127.0.0.1 on three free ports of E2E_TRANSPORT_PORTS (default 18900-18919), one
// small static server (this process) listening on all three. Prints `e2e-transports: N passed, M failed`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, expect, freePorts, launchChromium, needWebPackage, servePages, stepper } from "./lib.mjs";

const PORTS = process.env.E2E_TRANSPORT_PORTS ?? "18900-18919";
const started = Date.now();
const steps = stepper(30_000);
const { step } = steps;


/** The server bundle: the TS SDK server for the browser, one ESM file. */
function bundleServer(dir) {
  const esbuild = path.join(ROOT, "bench/node_modules/.bin/esbuild");
  const out = path.join(dir, "server-bundle.js");
  const r = spawnSync(esbuild, [path.join(ROOT, "tests/peers/ts_transport_server.mjs"), "--bundle", "--format=esm",
    "--platform=browser", "--log-level=warning", `--outfile=${out}`], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`esbuild failed (${esbuild}): ${r.stderr || r.error}`);
  return out;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>transports</title><body>
<script type="module">
import init, * as mcp from "/pkg/web/mcp_wasm_client.js";
await init();
window.mcp = mcp;
window.ready = true;
</script>`;

// The server's side in the iframe: windowTransport back to the parent page (origin in ?parent=).
const FRAME = `<!doctype html><meta charset="utf-8"><title>server frame</title><body>
<script type="module">
import init, { windowTransport } from "/pkg/web/mcp_wasm_client.js";
import { buildServer } from "/server-bundle.js";
await init();
const parentOrigin = new URL(location.href).searchParams.get("parent");
const { server } = buildServer();
await server.connect(windowTransport(window.parent, { targetOrigin: parentOrigin }));
parent.postMessage("server-ready", parentOrigin);
</script>`;

// A window that forges a JSON-RPC notification to the page ("*" on purpose) when loaded.
const FORGER = `<!doctype html><meta charset="utf-8"><title>forger</title><body>
<script>
parent.postMessage({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { forged: location.origin } }, "*");
</script>`;

const WORKER = `import init, { messagePortTransport } from "/pkg/web/mcp_wasm_client.js";
import { buildServer } from "/server-bundle.js";
await init();
const { server } = buildServer();
await server.connect(messagePortTransport(self));
self.postMessage("server-ready");
`;

// The same server on a BroadcastChannel (name in ?channel=): the page's client opens one of the same name.
const BC_WORKER = `import init, { messagePortTransport } from "/pkg/web/mcp_wasm_client.js";
import { buildServer } from "/server-bundle.js";
await init();
const { server } = buildServer();
await server.connect(messagePortTransport(new BroadcastChannel(new URL(self.location.href).searchParams.get("channel"))));
self.postMessage("server-ready");
`;

async function main() {
  needWebPackage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-transports-"));
  bundleServer(dir);
  const [a, b, c] = await freePorts(3, PORTS);
  const pages = {
    "/index.html": PAGE,
    "/frame.html": FRAME,
    "/forger.html": FORGER,
    "/worker.js": WORKER,
    "/bc-worker.js": BC_WORKER,
    "/server-bundle.js": () => fs.readFileSync(path.join(dir, "server-bundle.js")),
  };
  const servers = await Promise.all([a, b, c].map((p) => servePages(p, pages)));
  const [A, B, C] = [a, b, c].map((p) => `http://127.0.0.1:${p}`);
  console.log(`# page ${A}, server frame ${B}, third origin ${C}`);

  const browser = await launchChromium();
  const pageErrors = [];
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(`${A}/index.html`);
  await page.waitForFunction(() => window.ready === true);

  // Loads the server frame at B, and connects a client to it through windowTransport.
  await step("windowTransport: connect to a cross-origin iframe's TS SDK server, list and call tools", async () => {
    const r = await page.evaluate(async ({ B }) => {
      const frame = document.createElement("iframe");
      const ready = new Promise((resolve) => {
        const on = (e) => {
          if (e.origin === B && e.data === "server-ready") {
            removeEventListener("message", on);
            resolve();
          }
        };
        addEventListener("message", on);
      });
      frame.src = `${B}/frame.html?parent=${encodeURIComponent(location.origin)}`;
      document.body.append(frame);
      await ready;
      window.reports = [];
      const { Client, windowTransport } = window.mcp;
      const client = new Client({
        transport: windowTransport(frame.contentWindow, { targetOrigin: B }),
        messageHandler: (m) => window.reports.push(m),
        elicitationCallback: async () => ({ action: "accept", content: { name: "Iris" } }),
      });
      await client.connect();
      window.client = client;
      const { tools } = await client.listTools();
      const echo = await client.callTool("echo", { text: "through the frame" });
      const card = await client.callTool("issue_card");
      return { era: client.era, transport: client.transport, tools: tools.map((t) => t.name), echo: echo.content[0].text, card: card.content[0].text };
    }, { B });
    expect(r.era === "legacy" && r.transport === "javascript", JSON.stringify(r));
    expect(r.tools.includes("echo") && r.echo === "through the frame", JSON.stringify(r));
    expect(r.card === "Card issued to Iris.", JSON.stringify(r));
  });

  // A forged notification from origin C, and one from another window of origin B.
  for (const [label, origin, reason] of [["a third origin", C, "origin"], ["the server's origin but another window", B, "source"]]) {
    await step(`windowTransport: a forged message from ${label} is dropped and reported (data.kind "dropped", reason ${reason})`, async () => {
      const r = await page.evaluate(async ({ origin }) => {
        const before = window.reports.length;
        const forger = document.createElement("iframe");
        forger.src = `${origin}/forger.html`;
        document.body.append(forger);
        const until = Date.now() + 5000;
        while (window.reports.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 100));
        forger.remove();
        const fresh = window.reports.slice(before);
        const echo = await window.client.callTool("echo", { text: "still fine" });
        return {
          fresh: fresh.map((m) => ({
            isError: m instanceof window.mcp.McpError,
            kind: m?.data?.kind,
            origin: m?.data?.origin,
            reason: m?.data?.reason,
            method: m?.method,
            message: m?.message,
          })),
          echo: echo.content[0].text,
        };
      }, { origin });
      expect(r.fresh.length === 1, `one report: ${JSON.stringify(r.fresh)}`);
      const [d] = r.fresh;
      expect(d.isError && d.kind === "dropped" && d.origin === origin && d.reason === reason, JSON.stringify(d));
      expect(!r.fresh.some((m) => m.method), "the forged notification was not delivered");
      expect(r.echo === "still fine", "the client keeps working");
    });
  }

  await step('windowTransport: targetOrigin "*" (and a missing one) is refused at construction', async () => {
    const r = await page.evaluate(() => {
      const { windowTransport, McpError } = window.mcp;
      const tryIt = (o) => {
        try {
          windowTransport(window, o);
          return "accepted";
        } catch (e) {
          return e instanceof McpError ? `${e.data.kind}: ${e.message}` : `other: ${e}`;
        }
      };
      return [tryIt({ targetOrigin: "*" }), tryIt({}), tryIt({ targetOrigin: "not a url" })];
    });
    expect(/^input: .*"\*" is refused/.test(r[0]), r[0]);
    expect(/^input: .*targetOrigin is required/.test(r[1]), r[1]);
    expect(/^input: .*not an absolute origin/.test(r[2]), r[2]);
  });

  await step("messagePortTransport: a module worker hosting the TS SDK server", async () => {
    const r = await page.evaluate(async () => {
      const worker = new Worker("/worker.js", { type: "module" });
      await new Promise((resolve, reject) => {
        worker.addEventListener("message", (e) => e.data === "server-ready" && resolve(), { once: false });
        worker.addEventListener("error", (e) => reject(new Error(`worker: ${e.message}`)));
      });
      const { Client, messagePortTransport } = window.mcp;
      const client = new Client({ transport: messagePortTransport(worker) });
      await client.connect();
      const progress = [];
      const counted = await client.callTool("count", { steps: 2, ms: 1 }, { onProgress: (p) => progress.push(p.progress) });
      const echo = await client.callTool("echo", { text: "from a worker" });
      await client.close();
      // close() did not end the worker: a second client still gets answers.
      const again = new Client({ transport: messagePortTransport(worker) });
      await again.connect().catch(() => {});
      const alive = await again.callTool("echo", { text: "alive" }).then((x) => x.content[0].text, (e) => `error: ${e.message}`);
      worker.terminate();
      return { era: client.era, counted: counted.content[0].text, progress, echo: echo.content[0].text, alive };
    });
    expect(r.echo === "from a worker" && r.counted === "counted 2", JSON.stringify(r));
    expect(JSON.stringify(r.progress) === "[1,2]", JSON.stringify(r));
    expect(r.alive === "alive", `worker still serving after close(): ${r.alive}`);
  });

  await step("inMemoryPair: the TS SDK server in the same page; tools, elicitation, close() closes both sides", async () => {
    const r = await page.evaluate(async () => {
      const { buildServer } = await import("/server-bundle.js");
      const { Client, inMemoryPair } = window.mcp;
      const [clientSide, serverSide] = inMemoryPair();
      const { server } = buildServer();
      await server.connect(serverSide);
      // The server set serverSide.onclose in connect(); wrap it to see the linked close arrive.
      let serverClosed = false;
      const onclose = serverSide.onclose;
      serverSide.onclose = () => {
        serverClosed = true;
        onclose?.();
      };
      const asked = [];
      const client = new Client({
        transport: clientSide,
        elicitationCallback: async (_context, params) => {
          asked.push(params.message);
          return { action: "accept", content: { name: "Ada" } };
        },
      });
      await client.connect();
      const { tools } = await client.listTools();
      const echo = await client.callTool("echo", { text: "same page" });
      const card = await client.callTool("issue_card");
      const connectedBefore = server.isConnected();
      await client.close();
      const failed = (p) => p.then(() => "sent", (e) => `${e?.name}: ${e?.message}`);
      return {
        era: client.era,
        transport: client.transport,
        server: client.serverInfo?.name,
        tools: tools.map((t) => t.name),
        echo: echo.content[0].text,
        card: card.content[0].text,
        asked,
        connectedBefore,
        serverClosed,
        serverConnectedAfter: server.isConnected(),
        clientSend: await failed(clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" })),
        serverSend: await failed(serverSide.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })),
      };
    });
    expect(r.era === "legacy" && r.transport === "javascript" && r.server === "ts-transport-peer", JSON.stringify(r));
    expect(["echo", "issue_card", "count"].every((t) => r.tools.includes(t)) && r.echo === "same page", JSON.stringify(r));
    expect(r.card === "Card issued to Ada." && r.asked[0] === "What name should go on the card?", JSON.stringify(r));
    expect(r.connectedBefore && r.serverClosed && !r.serverConnectedAfter, `the server's side closed with the client's: ${JSON.stringify(r)}`);
    expect(/^TransportClosed: /.test(r.clientSend) && /^TransportClosed: /.test(r.serverSend), `both sides refuse to send after close(): ${JSON.stringify(r)}`);
  });

  await step("messagePortTransport: a BroadcastChannel to a module worker hosting the TS SDK server", async () => {
    const r = await page.evaluate(async () => {
      const name = `mcp-${Math.random().toString(36).slice(2)}`;
      const worker = new Worker(`/bc-worker.js?channel=${name}`, { type: "module" });
      await new Promise((resolve, reject) => {
        worker.addEventListener("message", (e) => e.data === "server-ready" && resolve());
        worker.addEventListener("error", (e) => reject(new Error(`worker: ${e.message}`)));
      });
      const { Client, messagePortTransport } = window.mcp;
      const channel = new BroadcastChannel(name);
      const client = new Client({
        transport: messagePortTransport(channel),
        elicitationCallback: async () => ({ action: "accept", content: { name: "Bo" } }),
      });
      await client.connect();
      const progress = [];
      const counted = await client.callTool("count", { steps: 2, ms: 1 }, { onProgress: (p) => progress.push(p.progress) });
      const card = await client.callTool("issue_card");
      await client.close();
      // close() closed the channel: posting on it now throws.
      let closedChannel;
      try {
        channel.postMessage("after close");
        closedChannel = "posted";
      } catch (e) {
        closedChannel = e.name;
      }
      worker.terminate();
      return { era: client.era, counted: counted.content[0].text, progress, card: card.content[0].text, closedChannel };
    });
    expect(r.era === "legacy" && r.counted === "counted 2" && JSON.stringify(r.progress) === "[1,2]", JSON.stringify(r));
    expect(r.card === "Card issued to Bo.", JSON.stringify(r));
    expect(r.closedChannel === "InvalidStateError", `client.close() closes the BroadcastChannel: ${r.closedChannel}`);
  });

  await step("no page errors", async () => {
    expect(pageErrors.length === 0, pageErrors.join("\n"));
  });

  await page.evaluate(() => window.client?.close());
  await browser.close();
  for (const s of servers) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`e2e-transports: ${steps.passed} passed, ${steps.failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exitCode = steps.failed ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  console.log(`e2e-transports: ${steps.passed} passed, ${steps.failed + 1} failed`);
  process.exit(1);
});
