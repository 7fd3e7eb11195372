// Legacy-era (2025-11-25) MCP test peer: TypeScript SDK 1.x McpServer + StreamableHTTPServerTransport.
//
// Usage: node ts_server.mjs <port>     (or PORT=<port> node ts_server.mjs)
//        The port is process.argv[2] if given, else $PORT, else 18102. Binds 127.0.0.1 only, path /mcp.
//
// Stateful sessions keyed by Mcp-Session-Id (one McpServer + transport per session, as in the
// SDK README). Node's built-in http, no express. CORS headers go on every response (including
// errors and 404s) and OPTIONS preflights are answered here with 204.
// The SDK 1.x has no 2026-07-28 support: a `server/discover` probe (no session id, not
// initialize) gets HTTP 400 {"code":-32000,"message":"Bad Request: No valid session ID provided"},
// which dual-era clients treat as "legacy server".

import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readBody } from "../support/http.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18102);
const MCP_PATH = "/mcp";

function text(t) {
  return { content: [{ type: "text", text: String(t) }] };
}

function buildServer() {
  const server = new McpServer(
    { name: "ts-peer", version: "1.0.0" },
    { capabilities: { logging: {} }, instructions: "TS SDK 1.x test peer (legacy era only)." },
  );

  server.registerTool(
    "echo",
    { description: "Return the given text unchanged.", inputSchema: { text: z.string() } },
    async ({ text: t }) => text(t),
  );

  server.registerTool(
    "add",
    {
      description: "Add two integers; structured output {sum}.",
      inputSchema: { a: z.number().int(), b: z.number().int() },
      outputSchema: { sum: z.number().int() },
    },
    async ({ a, b }) => {
      const out = { sum: a + b };
      return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
    },
  );

  server.registerTool(
    "fail",
    { description: "Always throws; the result has isError: true.", inputSchema: { message: z.string() } },
    async ({ message }) => {
      throw new Error(message);
    },
  );

  server.registerTool(
    "sleep",
    { description: 'Sleep ms milliseconds, then answer "slept <ms>".', inputSchema: { ms: z.number().int().min(0) } },
    async ({ ms }) => {
      await new Promise((r) => setTimeout(r, ms));
      return text(`slept ${ms}`);
    },
  );

  server.registerTool(
    "client_features",
    {
      description: "Which of elicitation/sampling/roots the client declared in initialize.",
      outputSchema: { result: z.array(z.string()) },
    },
    async () => {
      const caps = server.server.getClientCapabilities() ?? {};
      const result = ["elicitation", "sampling", "roots"].filter((k) => caps[k] !== undefined);
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: { result } };
    },
  );

  // Server->client requests are sent with relatedRequestId so they travel on the tools/call
  // POST's own SSE stream (not the standalone GET stream).
  server.registerTool(
    "issue_card",
    { description: "Elicit a name (form mode) and issue a card." },
    async (extra) => {  // no inputSchema: the SDK passes only `extra`
      const answer = await server.server.elicitInput(
        {
          mode: "form",
          message: "What name should go on the card?",
          requestedSchema: {
            type: "object",
            properties: { name: { type: "string", title: "Name" } },
            required: ["name"],
          },
        },
        { relatedRequestId: extra.requestId },
      );
      if (answer.action === "accept" && answer.content && typeof answer.content.name === "string") {
        return text(`Card issued to ${answer.content.name}.`);
      }
      return text("No card issued.");
    },
  );

  server.registerTool(
    "ask_llm",
    { description: "Sample the client's LLM; returns '<model>: <text>'.", inputSchema: { topic: z.string() } },
    async ({ topic }, extra) => {
      const r = await server.server.createMessage(
        {
          messages: [{ role: "user", content: { type: "text", text: `Write a short poem about ${topic}.` } }],
          maxTokens: 100,
        },
        { relatedRequestId: extra.requestId },
      );
      const c = Array.isArray(r.content) ? r.content[0] : r.content;
      return text(`${r.model}: ${c?.type === "text" ? c.text : JSON.stringify(c)}`);
    },
  );

  server.registerTool(
    "list_roots",
    { description: "Ask the client for its roots; returns their URIs.", outputSchema: { result: z.array(z.string()) } },
    async (extra) => {  // no inputSchema: the SDK passes only `extra`
      const r = await server.server.listRoots(undefined, { relatedRequestId: extra.requestId });
      const result = r.roots.map((x) => x.uri);
      return { content: [{ type: "text", text: result.join("\n") }], structuredContent: { result } };
    },
  );

  server.registerResource("hello", "demo://hello", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "Hello from the ts peer!" }],
  }));

  server.registerPrompt(
    "greet",
    { description: "Greet someone by name.", argsSchema: { name: z.string() } },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please greet ${name} warmly.` } }] }),
  );

  return server;
}

// ---------------------------------------------------------------------------------------------

/** @type {Map<string, StreamableHTTPServerTransport>} */
const transports = new Map();

function setCors(req, res) {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  const requested = req.headers["access-control-request-headers"];
  res.setHeader(
    "Access-Control-Allow-Headers",
    requested ||
      "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id",
  );
  res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate");
  res.setHeader("Access-Control-Max-Age", "600");
  res.setHeader("Vary", "Access-Control-Request-Headers");
}

function jsonError(res, status, code, message, id = null) {
  if (res.headersSent) return res.end();
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}


async function handlePost(req, res) {
  const raw = await readBody(req);
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    return jsonError(res, 400, -32700, "Parse error");
  }
  const sessionId = req.headers["mcp-session-id"];
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (sessionId && !transport) {
    return jsonError(res, 404, -32001, "Session not found", body?.id ?? null);
  }
  if (!transport) {
    if (!isInitializeRequest(body)) {
      return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided", body?.id ?? null);
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        transports.set(sid, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    const server = buildServer();
    await server.connect(transport);
  }
  await transport.handleRequest(req, res, body);
}

async function handleSessionRequest(req, res) {
  // GET (standalone SSE stream) and DELETE (terminate session).
  const sessionId = req.headers["mcp-session-id"];
  const transport = sessionId ? transports.get(sessionId) : undefined;
  if (!sessionId) return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided");
  if (!transport) return jsonError(res, 404, -32001, "Session not found");
  await transport.handleRequest(req, res);
}

const httpServer = http.createServer(async (req, res) => {
  setCors(req, res);
  try {
    const url = new URL(req.url ?? "/", `http://${HOST}`);
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname !== MCP_PATH) {
      return jsonError(res, 404, -32601, `Not found: ${url.pathname}`);
    }
    if (req.method === "POST") return await handlePost(req, res);
    if (req.method === "GET" || req.method === "DELETE") return await handleSessionRequest(req, res);
    res.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
    return jsonError(res, 405, -32000, "Method not allowed");
  } catch (err) {
    console.error("request failed:", err);
    return jsonError(res, 500, -32603, "Internal server error");
  }
});

httpServer.listen(PORT, HOST, () => {
  console.log(`ts-peer listening on http://${HOST}:${PORT}${MCP_PATH}`);
});

function shutdown() {
  for (const t of transports.values()) t.close().catch(() => {});
  httpServer.close();
  setTimeout(() => process.exit(0), 200).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
