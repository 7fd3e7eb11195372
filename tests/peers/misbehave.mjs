// A deliberately misbehaving MCP-ish HTTP server for fault tests.
//
// Usage: node misbehave.mjs [port]     (default $PORT or 18104; binds 127.0.0.1 only)
//
// Every fault has its own endpoint:  http://127.0.0.1:PORT/<fault>/mcp
// Common behaviour on every path (see handleCommon):
//   OPTIONS            -> 204 with permissive CORS (request headers echoed)
//   all responses      -> Access-Control-Allow-Origin: *, Expose-Headers: Mcp-Session-Id, WWW-Authenticate
//   POST initialize    -> 200 JSON legacy InitializeResult (2025-11-25) + Mcp-Session-Id header
//   POST notifications/* (and JSON-RPC responses) -> 202, empty
//   POST server/discover -> 400, empty body (so dual-era clients fall back to legacy)
//                           except for faults with their own `discover` handler (modern-ok)
//   GET                -> 405;  DELETE -> 200
//   other methods (ping, resources/list, ...) -> 200 JSON with an empty result {}
// The fault itself applies to `tools/list` and `tools/call` (FAULTS table below).
// Extra: GET /<fault>/last-headers returns the headers of the last POST seen on that fault
//        path (used with modern-ok to assert Mcp-Method / Mcp-Name / MCP-Protocol-Version).
//        GET /<fault>/header-log returns the last 50 POSTs as [{method, headers}] (JSON-parsed
//        POSTs only); DELETE /<fault>/header-log clears both.

import http from "node:http";
import { randomUUID } from "node:crypto";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18104);

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "Mcp-Session-Id, WWW-Authenticate",
};

// ---- canned results ---------------------------------------------------------------------------

const ECHO_TOOL = {
  name: "echo",
  description: "Echo (misbehave peer)",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const OK_CALL_RESULT = { content: [{ type: "text", text: "ok" }] };
const SERVER_INFO = { name: "misbehave", version: "1" };

function okResult(msg) {
  return msg.method === "tools/list" ? { tools: [ECHO_TOOL] } : OK_CALL_RESULT;
}

// ---- response helpers ---------------------------------------------------------------------------

function send(res, status, headers = {}, body = "") {
  res.writeHead(status, { ...CORS, ...headers });
  res.end(body);
}
function sendJson(res, status, obj, extra = {}) {
  send(res, status, { "Content-Type": "application/json", ...extra }, JSON.stringify(obj));
}
function rpcResult(id, result) {
  return { jsonrpc: "2.0", id, result };
}
function sseEvent(obj) {
  return `event: message\ndata: ${JSON.stringify(obj)}\n\n`;
}

// ---- the fault table ----------------------------------------------------------------------------
// Each entry: { description, rpc(ctx) } where rpc handles tools/list + tools/call.
// Optional: discover(ctx) to answer server/discover instead of the default 400.
// ctx = { req, res, msg, id } (msg = parsed JSON-RPC request, id = its id).

/** requestState → JSON-RPC ids already used with it (mrtr-3 checks retries use new ids). */
const mrtrIds = new Map();

/** Session id → its number (initialize order), and the sessions that expired. */
const sessionNumbers = new Map();
const expiredSessions = new Set();

const FAULTS = {
  "malformed-json": {
    description: '200 application/json with a truncated body {"jsonrpc":"2.0","id":',
    rpc: ({ res }) => send(res, 200, { "Content-Type": "application/json" }, '{"jsonrpc":"2.0","id":'),
  },
  "not-jsonrpc": {
    description: '200 application/json {"hello":"world"}',
    rpc: ({ res }) => sendJson(res, 200, { hello: "world" }),
  },
  "sse-cut": {
    description: "200 text/event-stream, half an event, then the socket is destroyed",
    rpc: ({ res, id }) => {
      res.writeHead(200, { ...CORS, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.flushHeaders();
      res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"res`);
      setTimeout(() => res.socket?.destroy(), 50);
    },
  },
  "wrong-content-type": {
    description: "200 text/html <html>oops</html>",
    rpc: ({ res }) => send(res, 200, { "Content-Type": "text/html" }, "<html>oops</html>"),
  },
  "500-empty": {
    description: "500 with an empty body",
    rpc: ({ res }) => send(res, 500),
  },
  "500-body": {
    description: "500 application/json with a JSON-RPC error (-32603 database on fire)",
    rpc: ({ res }) =>
      sendJson(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: "database on fire" } }),
  },
  hang: {
    description: "accepts the request and never answers (socket stays open)",
    rpc: ({ req }) => {
      req.socket.setTimeout(0);
      hanging.add(req.socket);
      req.socket.on("close", () => hanging.delete(req.socket));
    },
  },
  ok: {
    description: "correct answers as application/json (tools/list -> [echo], tools/call -> text ok)",
    rpc: ({ res, msg, id }) => sendJson(res, 200, rpcResult(id, okResult(msg))),
  },
  "sse-ok": {
    description: "correct answers as a one-event text/event-stream",
    rpc: ({ res, msg, id }) =>
      send(res, 200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" }, sseEvent(rpcResult(id, okResult(msg)))),
  },
  // 2026 multi round-trip: elicitation → roots → a state-only round → complete. The server
  // checks each retry: a new JSON-RPC id, this round's inputResponses only, requestState echoed.
  // Legacy session expiry: every session serves exactly one tools/call, then expires and
  // answers 404 (-32001 "Session not found", as the TS SDK does for an unknown session).
  "expire-after-one-call": {
    description: "legacy: a session expires (404) after its first tools/call",
    rpc: ({ req, res, msg, id }) => {
      const sid = req.headers["mcp-session-id"];
      const n = sessionNumbers.get(sid);
      if (msg.method === "tools/call" && n !== undefined && !expiredSessions.has(sid)) {
        expiredSessions.add(sid);
        return sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: `ok on session ${n}` }] }));
      }
      return sendJson(res, 404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    },
  },
  // Pagination: three pages, the second reached through the empty-string cursor.
  paged: {
    description: "tools/list in 3 pages: no cursor → nextCursor \"\" → nextCursor \"b\" → end",
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/list") return sendJson(res, 200, rpcResult(id, OK_CALL_RESULT));
      const cursor = msg.params?.cursor;
      const tool = (name) => ({ ...ECHO_TOOL, name });
      const page =
        cursor === undefined ? { tools: [tool("t1")], nextCursor: "" } : cursor === "" ? { tools: [tool("t2")], nextCursor: "b" } : { tools: [tool("t3")] };
      sendJson(res, 200, rpcResult(id, page));
    },
  },
  "paged-loop": {
    description: "tools/list always answers nextCursor \"again\"",
    rpc: ({ res, msg, id }) => sendJson(res, 200, rpcResult(id, { tools: [ECHO_TOOL], nextCursor: "again" })),
  },
  "mrtr-3": {
    description: "2026: three input_required rounds (elicitation, roots, state-only), then complete",
    discover: (ctx) => FAULTS["modern-ok"].discover(ctx),
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return FAULTS["modern-ok"].rpc({ res, msg, id });
      const p = msg.params ?? {};
      const fail = (message) => sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: message }], isError: true, resultType: "complete" }));
      const seen = mrtrIds.get(p.requestState ?? "start") ?? new Set();
      if (seen.has(id)) return fail(`retry reused id ${id}`);
      const state = p.requestState ? JSON.parse(Buffer.from(p.requestState, "base64url").toString()) : { round: 0, answers: {} };
      const keys = Object.keys(p.inputResponses ?? {});
      const expected = { 0: [], 1: ["ask_name"], 2: ["ask_roots"], 3: [] }[state.round];
      if (JSON.stringify(keys) !== JSON.stringify(expected)) return fail(`round ${state.round}: expected inputResponses ${JSON.stringify(expected)}, got ${JSON.stringify(keys)}`);
      Object.assign(state.answers, p.inputResponses ?? {});
      const next = (extra) => {
        const requestState = Buffer.from(JSON.stringify({ round: state.round + 1, answers: state.answers })).toString("base64url");
        const s = mrtrIds.get(requestState) ?? new Set();
        s.add(id);
        mrtrIds.set(requestState, s);
        sendJson(res, 200, rpcResult(id, { resultType: "input_required", requestState, ...extra }));
      };
      if (state.round === 0)
        return next({ inputRequests: { ask_name: { method: "elicitation/create", params: { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" }, tries: { type: "integer", default: 3 } }, required: ["name"] } } } } });
      if (state.round === 1) return next({ inputRequests: { ask_roots: { method: "roots/list", params: {} } } });
      if (state.round === 2) return next({});
      sendJson(res, 200, rpcResult(id, { content: [{ type: "text", text: JSON.stringify(state.answers) }], resultType: "complete" }));
    },
  },
  "mrtr-forever": {
    description: "2026: answers every tools/call with a state-only input_required result",
    discover: (ctx) => FAULTS["modern-ok"].discover(ctx),
    rpc: ({ res, msg, id }) => {
      if (msg.method !== "tools/call") return FAULTS["modern-ok"].rpc({ res, msg, id });
      sendJson(res, 200, rpcResult(id, { resultType: "input_required", requestState: "again" }));
    },
  },
  "modern-ok": {
    description: "2026-07-28 server: valid server/discover + resultType complete results; see last-headers",
    discover: ({ res, id }) =>
      sendJson(
        res,
        200,
        rpcResult(id, {
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {} },
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "private",
          _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
        }),
      ),
    rpc: ({ res, msg, id }) => {
      const base = { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO } };
      const extra = msg.method === "tools/list" ? { ttlMs: 0, cacheScope: "private" } : {};
      sendJson(res, 200, rpcResult(id, { ...okResult(msg), ...extra, ...base }));
    },
  },
};

// ---- common protocol skeleton ---------------------------------------------------------------------

const hanging = new Set();
/** @type {Map<string, Record<string, string | string[] | undefined>>} */
const lastHeaders = new Map();
/** @type {Map<string, Array<{method: string | null, headers: object}>>} last 50 POSTs per fault */
const headerLog = new Map();

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

async function handle(req, res) {
  const url = new URL(req.url ?? "/", `http://${HOST}`);
  const parts = url.pathname.split("/").filter(Boolean); // ["<fault>", "mcp"]

  if (req.method === "OPTIONS") {
    return send(res, 204, {
      "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] || "*",
      "Access-Control-Max-Age": "600",
    });
  }

  if (parts.length === 0 && req.method === "GET") {
    // index: list the faults
    const index = Object.fromEntries(
      Object.entries(FAULTS).map(([k, v]) => [k, { url: `http://${HOST}:${PORT}/${k}/mcp`, description: v.description }]),
    );
    return sendJson(res, 200, index);
  }

  const fault = FAULTS[parts[0]];
  if (!fault) return sendJson(res, 404, { error: `unknown fault ${parts[0]}`, faults: Object.keys(FAULTS) });

  if (parts[1] === "last-headers" && req.method === "GET") {
    return sendJson(res, 200, lastHeaders.get(parts[0]) ?? null);
  }
  if (parts[1] === "header-log" && req.method === "GET") {
    return sendJson(res, 200, headerLog.get(parts[0]) ?? []);
  }
  if (parts[1] === "header-log" && req.method === "DELETE") {
    headerLog.delete(parts[0]);
    lastHeaders.delete(parts[0]);
    return send(res, 200);
  }
  if (parts[1] !== "mcp" || parts.length !== 2) return sendJson(res, 404, { error: "use /<fault>/mcp" });

  if (req.method === "GET") return send(res, 405, { Allow: "POST, DELETE, OPTIONS" });
  if (req.method === "DELETE") return send(res, 200);
  if (req.method !== "POST") return send(res, 405, { Allow: "POST, DELETE, OPTIONS" });

  lastHeaders.set(parts[0], { ...req.headers });
  const raw = await readBody(req);
  let msg;
  try {
    msg = JSON.parse(raw);
  } catch {
    return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  }
  if (Array.isArray(msg) || msg === null || typeof msg !== "object") {
    return sendJson(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
  }
  const log = headerLog.get(parts[0]) ?? [];
  log.push({ method: typeof msg.method === "string" ? msg.method : null, headers: { ...req.headers } });
  if (log.length > 50) log.shift();
  headerLog.set(parts[0], log);
  const id = msg.id ?? null;
  const ctx = { req, res, msg, id };

  // JSON-RPC notifications and responses (no method or no id) -> 202
  if (typeof msg.method !== "string" || msg.id === undefined) return send(res, 202);

  switch (msg.method) {
    case "initialize": {
      const sid = randomUUID();
      sessionNumbers.set(sid, sessionNumbers.size + 1);
      return sendJson(
        res,
        200,
        rpcResult(id, { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: SERVER_INFO }),
        { "Mcp-Session-Id": sid },
      );
    }
    case "server/discover":
      if (fault.discover) return fault.discover(ctx);
      return send(res, 400);
    case "tools/list":
    case "tools/call":
      return fault.rpc(ctx);
    default:
      return sendJson(res, 200, rpcResult(id, {}));
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error("misbehave: handler error", err);
    if (!res.headersSent) send(res, 500);
    else res.destroy();
  });
});
server.keepAliveTimeout = 5000;
server.listen(PORT, HOST, () => {
  console.log(`misbehave listening on http://${HOST}:${PORT}/<fault>/mcp  faults: ${Object.keys(FAULTS).join(", ")}`);
});

function shutdown() {
  for (const s of hanging) s.destroy();
  server.close();
  setTimeout(() => process.exit(0), 200).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
