// 2026-07-28 tasks-extension test peer (`io.modelcontextprotocol/tasks`), on node:http.
//
// Usage: node tasks_server.mjs [port]     (default $PORT or 18121; binds 127.0.0.1 only, path /mcp)
//
// No SDK server implements the 2026 tasks extension yet, so this is our own server following the
// extension text (ext-tasks 2026-07-28) and the official conformance suite's `tasks-*` scenarios
// (@modelcontextprotocol/conformance 0.2.0-alpha.12; digest: /work/shared/spec/mcp-extensions.md §1.3):
//   * 2026-07-28 only: `server/discover` lists capabilities.extensions["io.modelcontextprotocol/tasks"];
//     `initialize` gets -32022 (HTTP 400).
//   * `tools/call` of a task tool answers a FLAT `resultType:"task"` CreateTaskResult only when THAT
//     request's `_meta["io.modelcontextprotocol/clientCapabilities"].extensions` declares the tasks
//     extension; a task-only tool without it → -32021 {requiredCapabilities}, HTTP 400. `quick_task`
//     (task-capable, fast) answers synchronously. A legacy `task` param is tolerated and ignored.
//   * `tasks/get` → DetailedTask (working / input_required + inputRequests / completed + result /
//     failed + error / cancelled); `tasks/update` → empty ack (partial answers, unknown keys ignored);
//     `tasks/cancel` → empty ack, idempotent; `tasks/result`, `tasks/list` → -32601 (HTTP 404).
//   * tasks/* need the extension declared (-32021) and `Mcp-Method: <method>` + `Mcp-Name: <taskId>`
//     headers (-32020 HeaderMismatch, HTTP 400).
//   * `subscriptions/listen` with `notifications.taskIds` → SSE stream: the acknowledgement, then a
//     `notifications/tasks` (full DetailedTask) whenever a listed task changes.
// Task state is kept by task id, not by connection: a new client (a page reload) can fetch it.
//
// Tools (arguments in parentheses; `ms` = how long the task works, `pollMs` = its pollIntervalMs):
//   slow_task (ms=400, pollMs=150, text)  task-only; completes with "done: <text>"
//   greet (name), slow_compute (seconds, label), failing_job, protocol_error_job
//                                         the conformance suite's fixtures: greet is sync; the other three
//                                         are task-supporting and, without the extension declared, run
//                                         synchronously (slow_compute, failing_job). The suite's scenarios
//                                         tasks-lifecycle, -capability-negotiation, -wire-fields and
//                                         -request-state-removal pass against this server (21/21 checks):
//                                         node22 conformance-0.2/dist/index.js server --url <this>/mcp
//                                           --scenario tasks-lifecycle --spec-version 2026-07-28 --force
//   slow (seconds=1)                      task-only; the README's Tasks example; completes with "slept <n> s"
//   quick_task (text)                     task-capable; answers synchronously (resultType complete)
//   ask_task (pollMs=100)                 task-only; input_required with two form elicitations
//                                         (keys "name" and "color"), completes with "hello <name> (<color>)"
//   fail_task                             task-only; ends `failed` with error {code:-32603,...}
//   error_task                            task-only; ends `completed` with an isError:true result
//   endless_task (pollMs=100)             task-only; works until tasks/cancel → `cancelled`
//   schema_task (ms=200, valid=true)      task-only, outputSchema {sum:number}; final structuredContent
//                                         {sum:3} (valid) or {sum:"three"} (valid=false)
//   confirm_task (ms=200)                 MRTR round (form elicitation "confirm" + requestState) before
//                                         the task; the retry with an accept answer gets a task
//   sampling_task                         task-only; without the sampling capability declared → -32021
//                                         with requiredCapabilities {sampling:{}} (what a tasks retry cannot fix)
//   wake_task (ms=300)                    task-only; pollIntervalMs 5000 (a listen stream wakes the poller)
//
// Control endpoints (for tests):
//   GET /_tasks      → {requests:[{t, method, taskId, name, headers, tasksDeclared}], cancels:[taskId],
//                       tasks:{taskId: DetailedTask}}
//   DELETE /_tasks   → clears the request log and the cancel list (tasks stay).

import http from "node:http";
import { randomBytes } from "node:crypto";
import { readBody } from "../support/http.mjs";

const HOST = "127.0.0.1";
const PORT = Number(process.argv[2] ?? process.env.PORT ?? 18121);
const VERSION = "2026-07-28";
const TASKS_EXT = "io.modelcontextprotocol/tasks";
const SERVER_INFO = { name: "tasks-peer", version: "1.0.0" };
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "Mcp-Session-Id, WWW-Authenticate",
};

// ---- response helpers ----------------------------------------------------------------------------

function send(res, status, headers = {}, body = "") {
  res.writeHead(status, { ...CORS, ...headers });
  res.end(body);
}
function sendJson(res, status, obj) {
  send(res, status, { "Content-Type": "application/json" }, JSON.stringify(obj));
}
const meta = () => ({ "io.modelcontextprotocol/serverInfo": SERVER_INFO });
function sendResult(res, id, result) {
  sendJson(res, 200, { jsonrpc: "2.0", id, result: { resultType: "complete", ...result, _meta: meta() } });
}
function sendError(res, httpStatus, id, code, message, data) {
  const error = data === undefined ? { code, message } : { code, message, data };
  sendJson(res, httpStatus, { jsonrpc: "2.0", id, error });
}
const now = () => new Date().toISOString();

// ---- task store (by task id, shared by every connection) -------------------------------------------

/** @type {Map<string, object>} taskId → {task fields..., inputRequests?, result?, error?, onAnswers?} */
const tasks = new Map();
/** @type {Array<object>} */
let requestLog = [];
let cancels = [];
/** @type {Set<{res: http.ServerResponse, id: unknown, taskIds: string[]}>} */
const listeners = new Set();

/** The DetailedTask a `tasks/get` (or `notifications/tasks`) carries for a stored task. */
function detailed(t) {
  const out = {
    taskId: t.taskId,
    status: t.status,
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttlMs: t.ttlMs,
    pollIntervalMs: t.pollIntervalMs,
  };
  if (t.statusMessage) out.statusMessage = t.statusMessage;
  if (t.status === "input_required") out.inputRequests = t.inputRequests;
  if (t.status === "completed") out.result = t.result;
  if (t.status === "failed") out.error = t.error;
  return out;
}

function createTask(pollIntervalMs) {
  const taskId = randomBytes(16).toString("hex");
  const at = now();
  const t = { taskId, status: "working", createdAt: at, lastUpdatedAt: at, ttlMs: 600_000, pollIntervalMs };
  tasks.set(taskId, t);
  return t;
}

/** Moves a non-terminal task to `status` with `extra` fields and wakes its listeners. */
function transition(t, status, extra = {}) {
  if (TERMINAL.has(t.status)) return;
  Object.assign(t, extra, { status, lastUpdatedAt: now() });
  notifyListeners(t);
}
function notifyListeners(t) {
  for (const l of listeners) {
    if (!l.taskIds.includes(t.taskId)) continue;
    const params = { ...detailed(t), _meta: { "io.modelcontextprotocol/subscriptionId": l.id } };
    l.res.write(sseEvent({ jsonrpc: "2.0", method: "notifications/tasks", params }));
  }
}
function sseEvent(obj) {
  return `event: message\ndata: ${JSON.stringify(obj)}\n\n`;
}
const later = (ms, fn) => setTimeout(fn, ms).unref();
const textResult = (t) => ({ content: [{ type: "text", text: t }], isError: false });

// ---- the tools -----------------------------------------------------------------------------------

const formRequest = (message, prop) => ({
  method: "elicitation/create",
  params: {
    mode: "form",
    message,
    requestedSchema: { type: "object", properties: { [prop]: { type: "string" } }, required: [prop] },
  },
});

/** Each: {tool, run(args, t)} runs a task; `sync(args)` answers without a task; `mrtr` = MRTR round first. */
const TOOLS = {
  slow_task: {
    description: "Works for `ms` ms, then completes with done: <text>.",
    pollMs: (a) => a.pollMs ?? 150,
    run: (a, t) => later(a.ms ?? 400, () => transition(t, "completed", { result: textResult(`done: ${a.text ?? ""}`) })),
  },
  // Fixtures named by the conformance suite's tasks-* scenarios (0.2.0-alpha.12).
  greet: {
    description: "Sync-only: Hello, <name>!",
    sync: (a) => textResult(`Hello, ${a.name ?? "World"}!`),
  },
  slow_compute: {
    description: "Task-supporting: sleeps `seconds` s (0 = at once); without the extension declared it runs synchronously.",
    taskSupporting: true,
    syncFallback: async (a) => {
      await new Promise((r) => setTimeout(r, (a.seconds ?? 0) * 1000));
      return textResult(`computed ${a.label ?? ""}`);
    },
    pollMs: () => 200,
    run: (a, t) => later((a.seconds ?? 0) * 1000, () => transition(t, "completed", { result: textResult(`computed ${a.label ?? ""}`) })),
  },
  failing_job: {
    description: "Task-supporting: a tool execution error after ~1 s (completed, isError).",
    taskSupporting: true,
    syncFallback: async () => ({ content: [{ type: "text", text: "job failed" }], isError: true }),
    pollMs: () => 200,
    run: (a, t) =>
      later(1000, () => transition(t, "completed", { result: { content: [{ type: "text", text: "job failed" }], isError: true } })),
  },
  protocol_error_job: {
    description: "Task-supporting: a protocol-level failure (failed, error).",
    taskSupporting: true,
    pollMs: () => 200,
    run: (a, t) => later(300, () => transition(t, "failed", { error: { code: -32603, message: "internal failure" } })),
  },
  slow: {
    description: "README example: works for `seconds` s (default 1), then completes.",
    pollMs: () => 250,
    run: (a, t) => later((a.seconds ?? 1) * 1000, () => transition(t, "completed", { result: textResult(`slept ${a.seconds ?? 1} s`) })),
  },
  quick_task: {
    description: "Task-capable but fast: answered synchronously.",
    sync: (a) => textResult(`quick: ${a.text ?? ""}`),
  },
  ask_task: {
    description: "Asks two questions mid-task (tasks/update), then greets.",
    pollMs: (a) => a.pollMs ?? 100,
    run: (a, t) =>
      later(50, () => {
        t.answers = {};
        t.onAnswers = () => {
          const name = t.answers.name?.content?.name;
          const color = t.answers.color?.content?.color;
          if (t.answers.name?.action !== "accept" || t.answers.color?.action !== "accept") {
            return transition(t, "completed", { result: textResult("declined") });
          }
          transition(t, "working", { inputRequests: undefined });
          later(50, () => transition(t, "completed", { result: textResult(`hello ${name} (${color})`) }));
        };
        transition(t, "input_required", {
          inputRequests: { name: formRequest("Your name?", "name"), color: formRequest("Favourite colour?", "color") },
        });
      }),
  },
  fail_task: {
    description: "Ends failed with a JSON-RPC error.",
    pollMs: () => 100,
    run: (a, t) =>
      later(100, () =>
        transition(t, "failed", {
          statusMessage: "backend exploded",
          error: { code: -32603, message: "backend exploded" },
        }),
      ),
  },
  error_task: {
    description: "Ends completed with an isError:true tool result.",
    pollMs: () => 100,
    run: (a, t) =>
      later(100, () =>
        transition(t, "completed", { result: { content: [{ type: "text", text: "tool said no" }], isError: true } }),
      ),
  },
  endless_task: {
    description: "Works until cancelled.",
    pollMs: (a) => a.pollMs ?? 100,
    run: () => {},
  },
  schema_task: {
    description: "Structured output {sum}; valid=false breaks the schema in the final result.",
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    pollMs: () => 100,
    run: (a, t) =>
      later(a.ms ?? 200, () => {
        const sc = a.valid === false ? { sum: "three" } : { sum: 3 };
        transition(t, "completed", {
          result: { content: [{ type: "text", text: JSON.stringify(sc) }], structuredContent: sc, isError: false },
        });
      }),
  },
  confirm_task: {
    description: "An MRTR confirmation before the task exists, then a task.",
    mrtr: true,
    pollMs: () => 100,
    run: (a, t) => later(a.ms ?? 200, () => transition(t, "completed", { result: textResult("confirmed and done") })),
  },
  sampling_task: {
    description: "Needs the sampling capability declared (else -32021 naming sampling), then a short task.",
    needs: "sampling",
    pollMs: () => 100,
    run: (a, t) => later(100, () => transition(t, "completed", { result: textResult("sampled") })),
  },
  wake_task: {
    description: "Completes after `ms` ms but suggests polling every 5 s (listen wakes the poller).",
    pollMs: () => 5000,
    run: (a, t) => later(a.ms ?? 300, () => transition(t, "completed", { result: textResult("woke") })),
  },
};

function toolList() {
  return Object.entries(TOOLS).map(([name, d]) => {
    const tool = { name, description: d.description, inputSchema: { type: "object" } };
    if (d.outputSchema) tool.outputSchema = d.outputSchema;
    return tool;
  });
}

// ---- method handlers -----------------------------------------------------------------------------

const clientCaps = (params) => params?._meta?.["io.modelcontextprotocol/clientCapabilities"];
function declaresTasks(params) {
  const caps = clientCaps(params);
  return caps?.extensions?.[TASKS_EXT] !== undefined && caps?.extensions?.[TASKS_EXT] !== null;
}
const MISSING_TASKS = { requiredCapabilities: { extensions: { [TASKS_EXT]: {} } } };

async function toolsCall({ res, id, params }) {
  const def = TOOLS[params?.name];
  if (!def) return sendError(res, 400, id, -32602, `Unknown tool: ${params?.name}`);
  const args = params.arguments ?? {};
  if (def.sync) return sendResult(res, id, def.sync(args));
  if (!declaresTasks(params) && def.syncFallback) return sendResult(res, id, await def.syncFallback(args));
  if (!declaresTasks(params)) {
    return sendError(res, 400, id, -32021, `Tool ${params.name} runs only as a task: declare ${TASKS_EXT}`, MISSING_TASKS);
  }
  if (def.needs && clientCaps(params)?.[def.needs] === undefined) {
    return sendError(res, 400, id, -32021, `Tool ${params.name} needs the ${def.needs} capability`, {
      requiredCapabilities: { [def.needs]: {} },
    });
  }
  if (def.mrtr && !mrtrSatisfied(params)) {
    return sendResult(res, id, {
      resultType: "input_required",
      inputRequests: { confirm: formRequest("Start the job?", "ok") },
      requestState: "confirm-1",
    });
  }
  if (def.mrtr && params.inputResponses.confirm.action !== "accept") {
    return sendResult(res, id, textResult("not started"));
  }
  const t = createTask(def.pollMs(args));
  def.run(args, t);
  const stub = detailed(t);
  sendResult(res, id, { ...stub, resultType: "task" });
}
function mrtrSatisfied(params) {
  return params.requestState === "confirm-1" && params.inputResponses?.confirm !== undefined;
}

/** Shared checks of tasks/get|update|cancel; returns the stored task or undefined after answering. */
function taskFor({ req, res, id, msg }) {
  const params = msg.params ?? {};
  if (!declaresTasks(params)) {
    sendError(res, 400, id, -32021, `${msg.method} needs the ${TASKS_EXT} extension declared`, MISSING_TASKS);
    return undefined;
  }
  const method = req.headers["mcp-method"];
  const name = req.headers["mcp-name"];
  if (method !== msg.method || typeof params.taskId !== "string" || name !== params.taskId) {
    const what = `Mcp-Method ${JSON.stringify(method)} / Mcp-Name ${JSON.stringify(name)}`;
    sendError(res, 400, id, -32020, `Header mismatch: ${what} vs ${msg.method} ${params.taskId}`);
    return undefined;
  }
  const t = tasks.get(params.taskId);
  if (!t) sendError(res, 400, id, -32602, `Unknown task: ${params.taskId}`);
  return t;
}

function tasksGet(ctx) {
  const t = taskFor(ctx);
  if (t) sendResult(ctx.res, ctx.id, detailed(t));
}
function tasksUpdate(ctx) {
  const t = taskFor(ctx);
  if (!t) return;
  const responses = ctx.msg.params.inputResponses ?? {};
  if (t.status === "input_required") {
    const open = { ...t.inputRequests };
    for (const [key, value] of Object.entries(responses)) {
      if (!(key in open)) continue; // unknown or already answered: ignored
      t.answers[key] = value;
      delete open[key];
    }
    t.inputRequests = open;
    t.lastUpdatedAt = now();
    if (Object.keys(open).length === 0) t.onAnswers();
  }
  sendResult(ctx.res, ctx.id, {});
}
function tasksCancel(ctx) {
  const t = taskFor(ctx);
  if (!t) return;
  cancels.push(t.taskId);
  transition(t, "cancelled", { statusMessage: "cancelled by the client" });
  sendResult(ctx.res, ctx.id, {});
}

function listen({ res, id, msg }) {
  const params = msg.params ?? {};
  const taskIds = params.notifications?.taskIds;
  if (taskIds !== undefined && !declaresTasks(params)) {
    return sendError(res, 400, id, -32021, `taskIds need the ${TASKS_EXT} extension declared`, MISSING_TASKS);
  }
  res.writeHead(200, { ...CORS, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  const accepted = Array.isArray(taskIds) ? { taskIds } : {};
  const ack = {
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: accepted, _meta: { "io.modelcontextprotocol/subscriptionId": id } },
  };
  res.write(sseEvent(ack));
  const l = { res, id, taskIds: Array.isArray(taskIds) ? taskIds : [] };
  listeners.add(l);
  res.on("close", () => listeners.delete(l));
  // A task that is already terminal is reported at once.
  for (const taskId of l.taskIds) {
    const t = tasks.get(taskId);
    if (t && TERMINAL.has(t.status)) notifyListeners(t);
  }
}

function discover({ res, id }) {
  sendResult(res, id, {
    supportedVersions: [VERSION],
    capabilities: { tools: {}, extensions: { [TASKS_EXT]: {} } },
    ttlMs: 0,
    cacheScope: "private",
  });
}

function dispatch(ctx) {
  const { res, id, msg } = ctx;
  switch (msg.method) {
    case "server/discover":
      return discover(ctx);
    case "initialize":
      return sendError(res, 400, id, -32022, "This server speaks 2026-07-28 only", {
        supported: [VERSION],
        requested: msg.params?.protocolVersion ?? null,
      });
    case "tools/list":
      return sendResult(res, id, { tools: toolList(), ttlMs: 0, cacheScope: "private" });
    case "tools/call":
      return toolsCall({ ...ctx, params: msg.params }).catch((err) => {
        console.error("tasks-peer: tools/call failed", err);
        sendError(res, 500, id, -32603, "Internal error");
      });
    case "tasks/get":
      return tasksGet(ctx);
    case "tasks/update":
      return tasksUpdate(ctx);
    case "tasks/cancel":
      return tasksCancel(ctx);
    case "subscriptions/listen":
      return listen(ctx);
    default:
      return sendError(res, 404, id, -32601, `Method not found: ${msg.method}`);
  }
}

// ---- HTTP ----------------------------------------------------------------------------------------


function logRequest(req, msg) {
  const params = msg.params ?? {};
  const entry = {
    t: Date.now(),
    method: msg.method,
    taskId: params.taskId ?? null,
    name: params.name ?? null,
    headers: { ...req.headers },
    tasksDeclared: declaresTasks(params),
  };
  requestLog.push(entry);
  if (requestLog.length > 500) requestLog.shift();
}

function control(req, res) {
  if (req.method === "DELETE") {
    requestLog = [];
    cancels = [];
    return send(res, 204);
  }
  const all = Object.fromEntries([...tasks].map(([k, t]) => [k, detailed(t)]));
  sendJson(res, 200, { requests: requestLog, cancels, tasks: all });
}

async function handle(req, res) {
  const url = new URL(req.url ?? "/", `http://${HOST}`);
  if (req.method === "OPTIONS") {
    const allow = req.headers["access-control-request-headers"] ?? "*";
    return send(res, 204, { "Access-Control-Allow-Headers": allow, "Access-Control-Max-Age": "600" });
  }
  if (url.pathname === "/_tasks") return control(req, res);
  if (url.pathname !== "/mcp") return sendJson(res, 404, { error: "use /mcp" });
  if (req.method === "GET") return send(res, 405, { Allow: "POST, OPTIONS" });
  if (req.method === "DELETE") return send(res, 405, { Allow: "POST, OPTIONS" });
  if (req.method !== "POST") return send(res, 405, { Allow: "POST, OPTIONS" });
  let msg;
  try {
    msg = JSON.parse(await readBody(req));
  } catch {
    return sendError(res, 400, null, -32700, "Parse error");
  }
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    return sendError(res, 400, null, -32600, "Invalid Request");
  }
  if (typeof msg.method !== "string" || msg.id === undefined) return send(res, 202);
  logRequest(req, msg);
  dispatch({ req, res, id: msg.id, msg });
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error("tasks-peer: handler error", err);
    if (!res.headersSent) send(res, 500);
    else res.destroy();
  });
});
server.keepAliveTimeout = 5000;
server.listen(PORT, HOST, () => {
  console.log(`tasks-peer listening on http://${HOST}:${PORT}/mcp`);
});

function shutdown() {
  for (const l of listeners) l.res.destroy();
  server.close();
  setTimeout(() => process.exit(0), 200).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
