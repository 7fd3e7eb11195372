// 2025-11-25 tasks test peer: TypeScript SDK 1.x (@modelcontextprotocol/sdk 1.32.2) McpServer +
// StreamableHTTPServerTransport with the SDK's EXPERIMENTAL task support
// (server.experimental.tasks.registerToolTask, a TaskStore and a TaskMessageQueue; the SDK then
// serves tasks/get, tasks/result, tasks/list and tasks/cancel itself).
//
// Usage: node ts_tasks_server.mjs [port]   (default $PORT or 18122; binds 127.0.0.1 only, path /mcp)
//
// The task store is keyed by USER, not by session: the SDK's InMemoryTaskStore ties a task to the
// session that made it, so a new session (a page reload) could never find its task. Here every
// session is bound to the user named by its initialize request's `X-User` header (default
// "anonymous"), and the store is asked with that user in place of the session id: a new session of
// the same user finds the user's tasks; another user's session gets "Task not found" (-32602).
//
// Tools (all `execution.taskSupport` as noted; `ms` = how long the task works):
//   slow_task (ms=400, text)     required; completes with "done: <text>"
//   optional_task (text)         optional; a task when augmented, else the SDK polls it internally
//   ask_task                     required; needs a form elicitation mid-task (input_required; the
//                                elicitation/create is delivered through tasks/result), then
//                                completes with "hello <name>"
//   fail_task                    required; the task ends `failed` (an isError:true CallToolResult)
//   schema_task (valid=true)     required, outputSchema {sum:number}; final structuredContent
//                                {sum:3} or, with valid=false, {sum:"three"}
//   endless_task                 required; works until tasks/cancel
//   plain_echo (text)            forbidden (an ordinary tool)
// Every task gets pollInterval 150 ms (the `pollMs` argument overrides it).
//
// Control endpoint: GET /_tasks → {requests:[{t, method, taskId, user, capabilities?}]} (what the
// server saw; `capabilities` on initialize); DELETE /_tasks clears it.

import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from "@modelcontextprotocol/sdk/experimental/tasks";
import { z } from "zod";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18122);
const MCP_PATH = "/mcp";
const DEFAULT_POLL_MS = 150;

/** One store for every session; each task is stored under its user (passed where the SDK passes a session id). */
const sharedStore = new InMemoryTaskStore();
const messageQueue = new InMemoryTaskMessageQueue();

/** The TaskStore a session sees: the shared store, looked up by the session's user instead of its id. */
class UserTaskStore {
  constructor(user) {
    this.user = user;
  }
  createTask(params, requestId, request) {
    return sharedStore.createTask(params, requestId, request, this.user);
  }
  getTask(taskId) {
    return sharedStore.getTask(taskId, this.user);
  }
  storeTaskResult(taskId, status, result) {
    return sharedStore.storeTaskResult(taskId, status, result, this.user);
  }
  getTaskResult(taskId) {
    return sharedStore.getTaskResult(taskId, this.user);
  }
  updateTaskStatus(taskId, status, statusMessage) {
    return sharedStore.updateTaskStatus(taskId, status, statusMessage, this.user);
  }
  listTasks(cursor) {
    return sharedStore.listTasks(cursor, this.user);
  }
}

const text = (t) => ({ content: [{ type: "text", text: String(t) }] });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isTerminal = (s) => s === "completed" || s === "failed" || s === "cancelled";

/** Runs `work` in the background and stores what it returns (or a failure) as the task's result. */
function background(store, taskId, work) {
  (async () => {
    let result;
    let status = "completed";
    try {
      result = await work();
    } catch (err) {
      status = "failed";
      result = { ...text(err instanceof Error ? err.message : String(err)), isError: true };
    }
    const task = await store.getTask(taskId);
    if (task && !isTerminal(task.status)) await store.storeTaskResult(taskId, status, result);
  })().catch((err) => console.error("ts-tasks-peer: background task failed", err));
}

/** A registerToolTask handler whose task runs `work(args, taskId)` in the background. */
function taskHandler(store, work) {
  return {
    async createTask(args, extra) {
      const task = await extra.taskStore.createTask({
        ttl: extra.taskRequestedTtl ?? 600_000,
        pollInterval: args.pollMs ?? DEFAULT_POLL_MS,
      });
      background(store, task.taskId, () => work(args, task.taskId));
      return { task };
    },
    getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  };
}

function buildServer(user) {
  const store = new UserTaskStore(user);
  const server = new McpServer(
    { name: "ts-tasks-peer", version: "1.0.0" },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: store,
      taskMessageQueue: messageQueue,
    },
  );
  const tasks = server.experimental.tasks;
  const required = { taskSupport: "required" };

  tasks.registerToolTask(
    "slow_task",
    { description: "Works for ms, then done.", inputSchema: { ms: z.number().optional(), text: z.string().optional(), pollMs: z.number().optional() }, execution: required },
    taskHandler(store, async ({ ms, text: t }) => {
      await sleep(ms ?? 400);
      return text(`done: ${t ?? ""}`);
    }),
  );
  tasks.registerToolTask(
    "optional_task",
    { description: "Task-capable; plain calls are polled by the SDK.", inputSchema: { text: z.string().optional(), pollMs: z.number().optional() }, execution: { taskSupport: "optional" } },
    taskHandler(store, async ({ text: t }) => {
      await sleep(200);
      return text(`optional: ${t ?? ""}`);
    }),
  );
  tasks.registerToolTask(
    "ask_task",
    { description: "Asks the user's name mid-task.", inputSchema: { pollMs: z.number().optional() }, execution: required },
    taskHandler(store, async (_args, taskId) => {
      await sleep(50);
      await store.updateTaskStatus(taskId, "input_required");
      const answer = await server.server.elicitInput(
        {
          mode: "form",
          message: "Your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
        { relatedTask: { taskId }, timeout: 60_000 },
      );
      await store.updateTaskStatus(taskId, "working");
      if (answer.action !== "accept") return text("declined");
      return text(`hello ${answer.content?.name}`);
    }),
  );
  tasks.registerToolTask(
    "fail_task",
    { description: "The task fails.", inputSchema: { pollMs: z.number().optional() }, execution: required },
    taskHandler(store, async () => {
      await sleep(100);
      throw new Error("backend exploded");
    }),
  );
  tasks.registerToolTask(
    "schema_task",
    {
      description: "Structured output {sum}; valid=false breaks the schema.",
      inputSchema: { valid: z.boolean().optional(), pollMs: z.number().optional() },
      outputSchema: { sum: z.number() },
      execution: required,
    },
    taskHandler(store, async ({ valid }) => {
      await sleep(200);
      const sc = valid === false ? { sum: "three" } : { sum: 3 };
      return { ...text(JSON.stringify(sc)), structuredContent: sc };
    }),
  );
  tasks.registerToolTask(
    "endless_task",
    { description: "Works until cancelled.", inputSchema: { pollMs: z.number().optional() }, execution: required },
    taskHandler(store, () => new Promise(() => {})),
  );
  server.registerTool(
    "plain_echo",
    { description: "An ordinary tool.", inputSchema: { text: z.string() } },
    async ({ text: t }) => text(t),
  );
  return server;
}

// ---- HTTP (sessions as in ts_server.mjs) ----------------------------------------------------------

/** @type {Map<string, {transport: StreamableHTTPServerTransport, user: string}>} */
const sessions = new Map();
let requestLog = [];

function setCors(req, res) {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  res.setHeader(
    "Access-Control-Allow-Headers",
    req.headers["access-control-request-headers"] ||
      "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, x-user, last-event-id",
  );
  res.setHeader("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate");
}
function jsonError(res, status, code, message, id = null) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
}
function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        resolve(undefined);
      }
    });
    req.on("error", reject);
  });
}
const userOf = (req) => String(req.headers["x-user"] ?? "anonymous");

async function handlePost(req, res) {
  const body = await readJson(req);
  if (body === undefined) return jsonError(res, 400, -32700, "Parse error");
  const sessionId = req.headers["mcp-session-id"];
  let session = sessionId ? sessions.get(sessionId) : undefined;
  if (sessionId && !session) return jsonError(res, 404, -32001, "Session not found", body?.id ?? null);
  if (!session) {
    if (!isInitializeRequest(body)) {
      return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided", body?.id ?? null);
    }
    const user = userOf(req);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, { transport, user }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer(user).connect(transport);
    session = { transport, user };
  }
  if (body && typeof body.method === "string") {
    const entry = { t: Date.now(), method: body.method, taskId: body.params?.taskId ?? null, user: session.user };
    if (body.method === "initialize") entry.capabilities = body.params?.capabilities ?? null;
    requestLog.push(entry);
    if (requestLog.length > 500) requestLog.shift();
  }
  await session.transport.handleRequest(req, res, body);
}

async function handleSessionRequest(req, res) {
  const sessionId = req.headers["mcp-session-id"];
  const session = sessionId ? sessions.get(sessionId) : undefined;
  if (!sessionId) return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided");
  if (!session) return jsonError(res, 404, -32001, "Session not found");
  await session.transport.handleRequest(req, res);
}

function control(req, res) {
  if (req.method === "DELETE") requestLog = [];
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ requests: requestLog }));
}

const httpServer = http.createServer(async (req, res) => {
  setCors(req, res);
  try {
    const url = new URL(req.url ?? "/", `http://${HOST}`);
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      return res.end();
    }
    if (url.pathname === "/_tasks") return control(req, res);
    if (url.pathname !== MCP_PATH) return jsonError(res, 404, -32601, `Not found: ${url.pathname}`);
    if (req.method === "POST") return await handlePost(req, res);
    if (req.method === "GET" || req.method === "DELETE") return await handleSessionRequest(req, res);
    res.setHeader("Allow", "GET, POST, DELETE, OPTIONS");
    return jsonError(res, 405, -32000, "Method not allowed");
  } catch (err) {
    console.error("ts-tasks-peer: request failed:", err);
    if (!res.headersSent) return jsonError(res, 500, -32603, "Internal server error");
    res.destroy();
  }
});

httpServer.listen(PORT, HOST, () => {
  console.log(`ts-tasks-peer listening on http://${HOST}:${PORT}${MCP_PATH}`);
});

function shutdown() {
  for (const s of sessions.values()) s.transport.close().catch(() => {});
  sharedStore.cleanup();
  httpServer.close();
  setTimeout(() => process.exit(0), 200).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
