// Skills peer: a TypeScript SDK 2.x server (@modelcontextprotocol/server 2.4.0) serving the
// skills in tests/peers/skills/ with the SDK's own skills extension (`loadSkills`: skills/list,
// skills/get, resources/directory/read with directoryRead, files through resources/read).
// createMcpHandler serves both eras on one URL: 2026-07-28 (server/discover, the _meta
// envelope) and 2025-11-25 (initialize, stateless). One skill per skills/list page, so a full
// listing walks pages.
//
// Usage: node ts2_skills_server.mjs [port]   (default $PORT or 18123; binds 127.0.0.1 only)
// URL:   http://127.0.0.1:PORT/mcp

import http from "node:http";
import { fileURLToPath } from "node:url";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { loadSkills } from "@modelcontextprotocol/server/ext/skills/node";
import { serveFetch } from "./fetch_bridge.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18123);
const ROOT = fileURLToPath(new URL("./skills/", import.meta.url));

const catalog = await loadSkills(ROOT, { pageSize: 1, strict: true });

function factory() {
  const mcp = new McpServer(
    { name: "ts2-skills-peer", version: "1.0.0" },
    { capabilities: { resources: {} } },
  );
  catalog.attach(mcp);
  return mcp;
}

const handler = createMcpHandler(factory);

/** node:http → the handler's web-standard fetch and back. */
async function serve(req, res) {
  const url = new URL(req.url ?? "/", `http://${HOST}:${PORT}`);
  if (url.pathname !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  await serveFetch((request) => handler.fetch(request), req, res, url);
}

const server = http.createServer((req, res) => {
  serve(req, res).catch((e) => {
    console.error("ts2-skills-peer:", e);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(PORT, HOST, () => console.log(`ts2-skills-peer listening on http://${HOST}:${PORT}/mcp`));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)));
