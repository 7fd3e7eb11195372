// The MCP Apps peer of tests/elements/apps.mjs: a TypeScript SDK 2.x server (@modelcontextprotocol/server
// 2.4.0) whose tools and ui:// resources are registered with the official ext-apps server helpers
// (registerAppTool, registerAppResource). The apps are written with the official View SDK (`App`)
// in view.js, bundled by esbuild into one HTML file at start; hostile.html is our own plain HTML.
//
// Usage: node server.mjs PORT_A PORT_B   (binds 127.0.0.1 only; the same server on both ports,
// each port with its own counters, so a ClientGroup of two servers can tell which one was reached)
//   /mcp          Streamable HTTP (both eras), CORS open to any origin (no credentials)
//   /data         a CORS-open JSON answer the CSP steps fetch from inside an app (counted)
//   /evil.html    a page of this origin that posts JSON-RPC to its parent or opener (hostile steps)
//   /test/stats   the port's counters: { calls: {tool: n}, reads: {uri: n}, data: n }
import http from "node:http";
import { fileURLToPath } from "node:url";
import { serveFetch } from "../../peers/fetch_bridge.mjs";
import { build } from "esbuild";
import { z } from "zod";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { registerAppTool, registerAppResource, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";

const HOST = "127.0.0.1";
const [PORT_A, PORT_B] = process.argv.slice(2).map(Number);
const here = (f) => fileURLToPath(new URL(f, import.meta.url));

/** view.js bundled with the View SDK into one self-contained HTML document. */
async function viewHtml() {
  const out = await build({ entryPoints: [here("./view.js")], bundle: true, format: "iife", write: false, minify: true, target: "es2022", logLevel: "silent" });
  const js = out.outputFiles[0].text.replace(/<\/script/gi, "<\\/script");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>elements test app</title></head><body><p id="status">test app</p><script>${js}</script></body></html>`;
}
const VIEW = await viewHtml();
const HOSTILE = (await import("node:fs")).readFileSync(here("./hostile.html"), "utf8");

const EVIL = `<!doctype html><meta charset="utf-8"><title>evil</title><script>
window.got = [];
addEventListener("message", (e) => window.got.push(e.data));
const target = opener ?? parent;
const send = (m) => target.postMessage(m, "*");
send({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} });
send({ jsonrpc: "2.0", id: 1, method: "ui/initialize", params: { protocolVersion: "2026-01-26", appInfo: { name: "evil", version: "1" }, appCapabilities: {} } });
send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "app_helper", arguments: { note: "evil" } } });
send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "model_only", arguments: {} } });
send({ jsonrpc: "2.0", id: 4, method: "ping" });
window.sent = true;
</script>`;

/** One port's counters. */
function counters() {
  return { calls: {}, reads: {}, data: 0 };
}
const stats = { [PORT_A]: counters(), [PORT_B]: counters() };

const text = (t) => ({ content: [{ type: "text", text: t }] });
const sleep = (ms, signal) => new Promise((resolve) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(t); resolve(); });
});

/** The MCP server of one port: app tools, their resources, app-only and model-only tools. */
function factory(port) {
  const s = stats[port];
  const count = (name) => { s.calls[name] = (s.calls[name] ?? 0) + 1; };
  const mcp = new McpServer({ name: `elements-apps-${port === PORT_A ? "a" : "b"}`, version: "1.0.0" }, { capabilities: { logging: {} } });
  const page = (uri, html, ui) =>
    registerAppResource(mcp, uri, uri, { description: `app ${uri}`, ...(ui ? { _meta: { ui } } : {}) }, async () => {
      s.reads[uri] = (s.reads[uri] ?? 0) + 1;
      return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: html }] };
    });
  page("ui://tests/view.html", VIEW);
  page("ui://tests/csp.html", VIEW, { csp: { connectDomains: [`http://${HOST}:${PORT_A}`] } });
  page("ui://tests/hostile.html", HOSTILE, { csp: { connectDomains: ["http://x.test; script-src *", "'unsafe-eval'"] }, prefersBorder: true });
  registerAppResource(mcp, "ui://tests/blob.html", "ui://tests/blob.html", {}, async () => {
    s.reads["ui://tests/blob.html"] = (s.reads["ui://tests/blob.html"] ?? 0) + 1;
    return { contents: [{ uri: "ui://tests/blob.html", mimeType: RESOURCE_MIME_TYPE, blob: Buffer.from(VIEW).toString("base64") }] };
  });

  registerAppTool(mcp, "show_chart", {
    title: "Show chart",
    description: "Shows a chart app; delayMs holds the result back.",
    inputSchema: z.object({ title: z.string().optional(), delayMs: z.number().optional() }),
    _meta: { ui: { resourceUri: "ui://tests/view.html" } },
  }, async ({ title, delayMs }, ctx) => {
    count("show_chart");
    if (delayMs) await sleep(delayMs, ctx?.mcpReq?.signal ?? ctx?.signal);
    return { ...text(`chart ${title ?? ""}`), structuredContent: { title: title ?? null, server: port === PORT_A ? "a" : "b" } };
  });
  registerAppTool(mcp, "fetch_probe", {
    description: "An app whose resource declares one connectDomain.",
    _meta: { ui: { resourceUri: "ui://tests/csp.html" } },
  }, async () => { count("fetch_probe"); return text("probe"); });
  registerAppTool(mcp, "hostile", {
    description: "Our own hostile HTML.",
    _meta: { ui: { resourceUri: "ui://tests/hostile.html" } },
  }, async () => { count("hostile"); return text("hostile"); });
  registerAppTool(mcp, "blob_view", {
    description: "The view served as a base64 blob.",
    _meta: { ui: { resourceUri: "ui://tests/blob.html" } },
  }, async () => { count("blob_view"); return text("blob"); });
  mcp.registerTool("legacy_key", {
    description: "Only the deprecated flat key names its UI.",
    _meta: { "ui/resourceUri": "ui://tests/view.html" },
  }, async () => { count("legacy_key"); return text("legacy"); });
  mcp.registerTool("app_helper", {
    description: "Callable by apps only.",
    inputSchema: z.object({ note: z.string().optional() }),
    _meta: { ui: { visibility: ["app"] } },
  }, async ({ note }) => { count("app_helper"); return { ...text(`helped ${note ?? ""}`), structuredContent: { note: note ?? null, server: port === PORT_A ? "a" : "b" } }; });
  mcp.registerTool("model_only", {
    description: "Offered to the model only: an app must never reach it.",
    _meta: { ui: { visibility: ["model"] } },
  }, async () => { count("model_only"); return text("model only"); });
  mcp.registerTool("plain", { description: "No UI." }, async () => { count("plain"); return text("plain"); });
  return mcp;
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-expose-headers": "*",
  "access-control-max-age": "600",
};

/** node:http → the SDK handler's fetch and back, with CORS and the test routes. */
function serve(port, handler) {
  return async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${HOST}:${port}`);
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...CORS, "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*" }).end();
      return;
    }
    if (url.pathname === "/data") {
      stats[port].data++;
      res.writeHead(200, { ...CORS, "content-type": "application/json" }).end(JSON.stringify({ port }));
      return;
    }
    if (url.pathname === "/evil.html") { res.writeHead(200, { "content-type": "text/html" }).end(EVIL); return; }
    if (url.pathname === "/test/stats") { res.writeHead(200, { ...CORS, "content-type": "application/json" }).end(JSON.stringify(stats[port])); return; }
    if (url.pathname !== "/mcp") { res.writeHead(404, CORS).end(); return; }
    await serveFetch((request) => handler.fetch(request), req, res, url, CORS);
  };
}

for (const port of [PORT_A, PORT_B]) {
  const handler = createMcpHandler(() => factory(port));
  const server = http.createServer((req, res) => {
    serve(port, handler)(req, res).catch((e) => {
      console.error("elements-apps peer:", e);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.listen(port, HOST, () => console.log(`elements-apps peer on http://${HOST}:${port}/mcp`));
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
