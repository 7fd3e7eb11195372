// Tasks, one API on both eras (issue 24 point 2), against two real peers this file starts itself:
//   2026-07-28: tests/peers/tasks_server.mjs (our server following the ext-tasks text and the
//               conformance suite's tasks-* scenarios; no SDK serves the extension yet), port 18121
//   2025-11-25: tests/peers/ts_tasks_server.mjs (TypeScript SDK 1.x with its experimental tasks and a
//               task store keyed by user, X-User), port 18122
// Both are started here and stopped by PID when the file ends (also on failure).
// Each peer's GET /_tasks shows what it saw (methods, headers, timings, tasks/cancel).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { pkg, rejection, text } from "./peers.mjs";

const { Client, McpError } = pkg;
const here = path.dirname(fileURLToPath(import.meta.url));
const PORT26 = Number(process.env.PEERS_TASKS_PORT ?? 18121);
const PORT25 = Number(process.env.PEERS_TS_TASKS_PORT ?? 18122);
const T26 = `http://127.0.0.1:${PORT26}/mcp`;
const T25 = `http://127.0.0.1:${PORT25}/mcp`;

// ---- the peers ---------------------------------------------------------------------------------

const children = [];
function startPeer(file, port) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(here, "../peers", file), String(port)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    const timer = setTimeout(() => reject(new Error(`${file} did not start on ${port}`)), 15_000);
    child.once("exit", (code) => reject(new Error(`${file} exited with ${code} before listening`)));
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes("listening")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
  });
}
function stopPeers() {
  for (const child of children) if (child.exitCode === null) process.kill(child.pid, "SIGTERM");
}
process.on("exit", stopPeers);

before(async () => {
  await Promise.all([startPeer("tasks_server.mjs", PORT26), startPeer("ts_tasks_server.mjs", PORT25)]);
});
after(stopPeers);

// ---- helpers -------------------------------------------------------------------------------------

const opened = [];
async function connected(url, options = {}) {
  const c = new Client(url, options);
  await c.connect();
  opened.push(c);
  return c;
}
after(async () => {
  for (const c of opened) await c.close().catch(() => {});
});
const modern = (options = {}) => connected(T26, { tasks: true, ...options });
const legacy = (user, options = {}) => connected(T25, { tasks: true, headers: { "X-User": user }, ...options });

/** What a peer saw: `{requests: [{t, method, taskId, headers?}], cancels?: [taskId]}`. */
async function seen(url) {
  const r = await fetch(new URL("/_tasks", url));
  return r.json();
}
const requestsFor = async (url, taskId) => (await seen(url)).requests.filter((r) => r.taskId === taskId);

/** Calls `name` and records every onTask call; resolves {result | error, tasks}. */
async function callRecording(client, name, args = {}, options = {}) {
  const tasks = [];
  const onTask = (task) => {
    tasks.push(task);
    options.onTask?.(task);
  };
  try {
    const result = await client.callTool(name, args, { ...options, onTask });
    return { result, tasks };
  } catch (error) {
    return { error, tasks };
  }
}

/** Resolves once `cond()` is truthy; fails after `ms`. */
async function until(cond, what, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Checks `task` uses the 2026 names on both eras. */
function assertTaskShape(task, { pollIntervalMs, ttlMs }) {
  assert.equal(typeof task.taskId, "string");
  assert.ok(task.taskId.length > 0);
  assert.ok(["working", "input_required"].includes(task.status), `status ${task.status}`);
  assert.equal(task.pollIntervalMs, pollIntervalMs);
  if (ttlMs !== undefined) assert.equal(task.ttlMs, ttlMs);
  assert.equal(task.ttl, undefined, "the 2025 wire name ttl is not shown to JS");
  assert.equal(task.pollInterval, undefined, "the 2025 wire name pollInterval is not shown to JS");
  assert.equal(task.resultType, undefined, "the task object is not the raw wire result");
}

/** Gaps (ms) between consecutive `method` requests for one task, as the server saw them. */
async function gaps(url, taskId, method) {
  const times = (await requestsFor(url, taskId)).filter((r) => r.method === method).map((r) => r.t);
  return times.slice(1).map((t, i) => t - times[i]);
}

/** An elicitationCallback answering each form field with `answers[field]`, recording its calls. */
function answering(answers) {
  const calls = [];
  const elicitationCallback = async (_ctx, params) => {
    calls.push(params);
    const field = Object.keys(params.requestedSchema?.properties ?? {})[0];
    return { action: "accept", content: { [field]: answers[field] } };
  };
  return { calls, elicitationCallback };
}

// ---- 2026-07-28 ------------------------------------------------------------------------------------

describe("2026-07-28 tasks extension (our peer following ext-tasks / conformance)", () => {
  test("a task resolves callTool with the final result; onTask once, with the 2026 names", async () => {
    const c = await modern();
    assert.equal(c.era, "modern");
    assert.ok(c.serverCapabilities.extensions?.["io.modelcontextprotocol/tasks"]);
    const { result, error, tasks } = await callRecording(c, "slow_task", { ms: 300, text: "a" });
    assert.equal(error, undefined);
    assert.equal(text(result), "done: a");
    assert.equal(result.isError, false);
    assert.equal(tasks.length, 1);
    assertTaskShape(tasks[0], { pollIntervalMs: 150, ttlMs: 600_000 });
    assert.equal(result.resultType, undefined, "the final result is the CallToolResult, not the task envelope");
  });

  test("the tasks extension is declared on the call, and Mcp-Method / Mcp-Name carry the task id on tasks/*", async () => {
    const c = await modern();
    const { tasks } = await callRecording(c, "slow_task", { ms: 200 });
    const taskId = tasks[0].taskId;
    const log = await requestsFor(T26, taskId);
    assert.ok(log.length > 0, "the client polled tasks/get");
    for (const r of log) {
      assert.ok(r.method.startsWith("tasks/"));
      assert.equal(r.headers["mcp-method"], r.method);
      assert.equal(r.headers["mcp-name"], taskId);
      assert.equal(r.tasksDeclared, true);
    }
    const call = (await seen(T26)).requests.filter((r) => r.method === "tools/call" && r.name === "slow_task").at(-1);
    assert.equal(call.tasksDeclared, true);
  });

  test("polling honours pollIntervalMs: no tasks/get sooner than the server asked", async () => {
    const c = await modern();
    const { result, tasks } = await callRecording(c, "slow_task", { ms: 1000, pollMs: 300 });
    assert.equal(text(result), "done: ");
    const g = await gaps(T26, tasks[0].taskId, "tasks/get");
    assert.ok(g.length >= 2, `polled ${g.length + 1} times`);
    for (const gap of g) assert.ok(gap >= 290, `tasks/get ${gap} ms after the previous one (pollIntervalMs 300)`);
  });

  test("a quick task-capable tool answered synchronously needs no task", async () => {
    const c = await modern();
    const { result, tasks } = await callRecording(c, "quick_task", { text: "q" });
    assert.equal(text(result), "quick: q");
    assert.equal(tasks.length, 0);
  });

  test("input_required is answered through elicitationCallback with tasks/update", async () => {
    const { calls, elicitationCallback } = answering({ name: "Ann", color: "red" });
    const c = await modern({ elicitationCallback });
    const { result, error, tasks } = await callRecording(c, "ask_task");
    assert.equal(error, undefined);
    assert.equal(text(result), "hello Ann (red)");
    assert.deepEqual(calls.map((p) => p.message).sort(), ["Favourite colour?", "Your name?"]);
    const log = await requestsFor(T26, tasks[0].taskId);
    assert.ok(log.some((r) => r.method === "tasks/update"), "answers went back with tasks/update");
  });

  test("MRTR before the task, then a task on the retry", async () => {
    const { calls, elicitationCallback } = answering({ ok: "yes" });
    const c = await modern({ elicitationCallback });
    const { result, error, tasks } = await callRecording(c, "confirm_task");
    assert.equal(error, undefined);
    assert.equal(text(result), "confirmed and done");
    assert.equal(calls.length, 1);
    assert.equal(calls[0].message, "Start the job?");
    assert.equal(tasks.length, 1);
  });

  test("a failed task rejects with its error; a completed isError:true result resolves", async () => {
    const c = await modern();
    const failed = await callRecording(c, "fail_task");
    assert.ok(failed.error instanceof McpError, String(failed.error));
    assert.equal(failed.error.code, -32603);
    assert.match(failed.error.message, /backend exploded/);
    assert.equal(failed.tasks.length, 1);
    const toolError = await callRecording(c, "error_task");
    assert.equal(toolError.error, undefined);
    assert.equal(toolError.result.isError, true);
    assert.equal(text(toolError.result), "tool said no");
  });

  test("tasks.cancel cancels; the waiting call ends; tasks.get says cancelled", async () => {
    const c = await modern();
    let taskId;
    const pending = callRecording(c, "endless_task", {}, { onTask: (t) => (taskId = t.taskId) });
    await until(() => taskId, "onTask");
    await c.tasks.cancel(taskId);
    const { error } = await pending;
    assert.ok(error instanceof McpError, "a cancelled task does not resolve as a result");
    assert.equal(error.data?.kind, "task_cancelled");
    assert.match(error.message, /cancel/i);
    assert.equal((await c.tasks.get(taskId)).status, "cancelled");
    assert.ok((await seen(T26)).cancels.includes(taskId));
    await c.tasks.cancel(taskId); // idempotent
  });

  test("after a reload: a new Client gets the task and its result with the stored id", async () => {
    const first = await modern();
    const abort = new AbortController();
    let taskId;
    const { error } = await callRecording(first, "slow_task", { ms: 600, text: "reloaded" }, {
      signal: abort.signal,
      onTask: (t) => {
        taskId = t.taskId;
        abort.abort();
      },
    });
    assert.equal(error?.data?.kind, "aborted");
    await first.close();
    const second = await modern();
    const task = await second.tasks.get(taskId);
    assert.equal(task.taskId, taskId);
    assert.ok(["working", "completed"].includes(task.status));
    assert.equal(typeof task.ttlMs, "number");
    assert.equal(task.pollIntervalMs, 150);
    assert.equal(typeof task.createdAt, "string");
    const result = await second.tasks.result(taskId, { timeoutMs: 10_000 });
    assert.equal(text(result), "done: reloaded");
    assert.equal((await second.tasks.get(taskId)).status, "completed");
    assert.ok(!(await seen(T26)).cancels.includes(taskId), "an abort stops waiting, it does not cancel the task");
  });

  test("a callTool timeout (timeoutMs: a task without news) stops waiting but not the task; tasks.result gets it later", async () => {
    const c = await modern();
    let taskId;
    const { error } = await callRecording(c, "slow_task", { ms: 900, text: "late" }, {
      timeoutMs: 300,
      onTask: (t) => (taskId = t.taskId),
    });
    assert.equal(error?.data?.kind, "timeout");
    assert.ok(taskId);
    const result = await c.tasks.result(taskId);
    assert.equal(text(result), "done: late");
    assert.ok(!(await seen(T26)).cancels.includes(taskId));
  });

  test("onTask alone declares the extension on its call", async () => {
    const c = await connected(T26); // no tasks: true
    const { result, tasks } = await callRecording(c, "slow_task", { ms: 100, text: "asked" });
    assert.equal(text(result), "done: asked");
    assert.equal(tasks.length, 1);
    const call = (await seen(T26)).requests.filter((r) => r.method === "tools/call" && r.name === "slow_task").at(-1);
    assert.equal(call.tasksDeclared, true);
  });

  test("tasks.result honours its own signal", async () => {
    const c = await modern();
    let taskId;
    const { error } = await callRecording(c, "endless_task", {}, { maxTotalTimeoutMs: 100, onTask: (t) => (taskId = t.taskId) });
    assert.equal(error?.data?.kind, "timeout");
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const e = await rejection(c.tasks.result(taskId, { signal: abort.signal }));
    assert.equal(e.data?.kind, "aborted");
    await c.tasks.cancel(taskId);
  });

  test("tasks.list is unsupported on 2026", async () => {
    const c = await modern();
    const e = await rejection(c.tasks.list());
    assert.equal(e.data?.kind, "unsupported");
  });

  test("-32021: a task-only tool without the tasks extension declared is a clear error", async () => {
    const c = await connected(T26); // no tasks: true, and no onTask or task option
    const e = await rejection(c.callTool("slow_task", { ms: 100 }));
    assert.equal(e.code, -32021);
    assert.match(e.message, /task/i);
    assert.deepEqual(e.data?.requiredCapabilities, { extensions: { "io.modelcontextprotocol/tasks": {} } });
    const calls = (await seen(T26)).requests.filter((r) => r.method === "tools/call" && r.name === "slow_task");
    assert.equal(calls.at(-1).tasksDeclared, false, "the client declares only what the caller asked for");
  });

  test("-32021 that declaring tasks cannot fix is a clear error, not a loop", async () => {
    const c = await modern(); // no samplingCallback: the sampling capability is not declared
    await seen(T26);
    const before = (await seen(T26)).requests.length;
    const e = await rejection(c.callTool("sampling_task", {}));
    assert.equal(e.code, -32021);
    assert.match(e.message, /sampling/);
    assert.deepEqual(e.data?.requiredCapabilities, { sampling: {} });
    const calls = (await seen(T26)).requests.slice(before).filter((r) => r.method === "tools/call");
    assert.ok(calls.length >= 1 && calls.length <= 2, `${calls.length} tools/call sent`);
  });

  test("outputSchema is checked on the final result, never on the task stub", async () => {
    const c = await modern();
    await c.listTools(); // the outputSchema is known from here on
    const good = await callRecording(c, "schema_task", { valid: true });
    assert.equal(good.error, undefined, String(good.error));
    assert.deepEqual(good.result.structuredContent, { sum: 3 });
    assert.equal(good.tasks.length, 1);
    const bad = await callRecording(c, "schema_task", { valid: false });
    assert.ok(bad.error instanceof McpError);
    assert.match(bad.error.message, /does not match its outputSchema/);
  });

  test("notifications/tasks on a listen() stream wake the poller before pollIntervalMs", async () => {
    const c = await modern();
    const started = Date.now();
    let listening;
    let taskId;
    const { result } = await callRecording(c, "wake_task", { ms: 300 }, {
      onTask: (t) => {
        taskId = t.taskId;
        listening = c.listen({ taskIds: [t.taskId] }).then(
          (sub) => ({ sub }),
          (error) => ({ error }),
        );
      },
    });
    const { sub, error } = await listening;
    assert.equal(error, undefined, `listen({ taskIds }) refused: ${error?.message}`);
    assert.deepEqual(sub.honoured.taskIds, [taskId]);
    assert.equal(text(result), "woke");
    const took = Date.now() - started;
    assert.ok(took < 3000, `resolved after ${took} ms; pollIntervalMs is 5000`);
    await sub.close();
  });
});

// ---- 2025-11-25 ------------------------------------------------------------------------------------

describe("2025-11-25 tasks (TypeScript SDK 1.x experimental tasks, store keyed by user)", () => {
  test("a task-augmented call resolves with the final result; onTask once, with the 2026 names", async () => {
    const c = await legacy("alice");
    assert.equal(c.era, "legacy");
    const { result, error, tasks } = await callRecording(c, "slow_task", { ms: 300, text: "b" }, { task: { ttlMs: 60_000 } });
    assert.equal(error, undefined, String(error));
    assert.equal(text(result), "done: b");
    assert.equal(tasks.length, 1);
    assertTaskShape(tasks[0], { pollIntervalMs: 150, ttlMs: 60_000 });
    const related = result._meta?.["io.modelcontextprotocol/related-task"];
    assert.ok(related === undefined || related.taskId === tasks[0].taskId);
  });

  test("a tool requiring tasks is called as a task without the task option", async () => {
    const c = await legacy("alice");
    const { result, tasks } = await callRecording(c, "slow_task", { ms: 200, text: "req" });
    assert.equal(text(result), "done: req");
    assert.equal(tasks.length, 1);
    const listed = await legacy("alice");
    await listed.listTools(); // execution.taskSupport "required" known from the listing
    const again = await listed.callTool("slow_task", { ms: 100, text: "listed" });
    assert.equal(text(again), "done: listed");
  });

  test("polling honours the server's pollInterval", async () => {
    const c = await legacy("alice");
    const { result, tasks } = await callRecording(c, "slow_task", { ms: 900, pollMs: 300 }, { task: {} });
    assert.equal(text(result), "done: ");
    assert.equal(tasks.length, 1);
    for (const gap of await gaps(T25, tasks[0].taskId, "tasks/get")) {
      assert.ok(gap >= 290, `tasks/get ${gap} ms after the previous one (pollInterval 300)`);
    }
  });

  test("input_required: the elicitation arrives through tasks/result and is answered by elicitationCallback", async () => {
    const { calls, elicitationCallback } = answering({ name: "Ann" });
    const c = await legacy("alice", { elicitationCallback });
    const { result, error, tasks } = await callRecording(c, "ask_task", {}, { task: { ttlMs: 60_000 } });
    assert.equal(error, undefined, String(error));
    assert.equal(text(result), "hello Ann");
    assert.equal(calls.length, 1);
    assert.equal(calls[0].message, "Your name?");
    assert.ok((await requestsFor(T25, tasks[0].taskId)).some((r) => r.method === "tasks/result"));
  });

  test("a failed task resolves with the tool's isError:true result", async () => {
    const c = await legacy("alice");
    const { result, error } = await callRecording(c, "fail_task", {}, { task: {} });
    assert.equal(error, undefined, String(error));
    assert.equal(result.isError, true);
    assert.match(text(result), /backend exploded/);
  });

  test("outputSchema is checked on the final result, never on the task stub", async () => {
    const c = await legacy("alice");
    await c.listTools();
    const good = await callRecording(c, "schema_task", { valid: true }, { task: {} });
    assert.equal(good.error, undefined, String(good.error));
    assert.deepEqual(good.result.structuredContent, { sum: 3 });
    const bad = await callRecording(c, "schema_task", { valid: false }, { task: {} });
    assert.ok(bad.error instanceof McpError);
    assert.match(bad.error.message, /does not match its outputSchema/);
  });

  test("tasks.cancel cancels; tasks.get says cancelled", async () => {
    const c = await legacy("alice");
    let taskId;
    const pending = callRecording(c, "endless_task", {}, { task: {}, onTask: (t) => (taskId = t.taskId) });
    await until(() => taskId, "onTask");
    await c.tasks.cancel(taskId);
    const { error } = await pending;
    assert.ok(error instanceof McpError, "a cancelled task does not resolve as a result");
    const task = await c.tasks.get(taskId);
    assert.equal(task.status, "cancelled");
    assert.ok((await requestsFor(T25, taskId)).some((r) => r.method === "tasks/cancel"));
  });

  test("after a reload: a new session of the same user gets the task, its result and its listing; another user does not", async () => {
    const first = await legacy("alice");
    const abort = new AbortController();
    let taskId;
    const { error } = await callRecording(first, "slow_task", { ms: 600, text: "reloaded" }, {
      task: { ttlMs: 60_000 },
      signal: abort.signal,
      onTask: (t) => {
        taskId = t.taskId;
        abort.abort();
      },
    });
    assert.equal(error?.data?.kind, "aborted");
    await first.close();

    const second = await legacy("alice");
    const task = await second.tasks.get(taskId);
    assert.equal(task.taskId, taskId);
    assert.equal(task.ttlMs, 60_000);
    assert.equal(task.pollIntervalMs, 150);
    assert.equal(task.ttl, undefined);
    const listed = await second.tasks.list();
    assert.ok(listed.tasks.some((t) => t.taskId === taskId));
    assert.ok(listed.tasks.every((t) => t.pollInterval === undefined && t.ttl === undefined));
    const result = await second.tasks.result(taskId, { timeoutMs: 10_000 });
    assert.equal(text(result), "done: reloaded");
    assert.ok(!(await requestsFor(T25, taskId)).some((r) => r.method === "tasks/cancel"));

    const eve = await legacy("eve");
    assert.equal((await rejection(eve.tasks.get(taskId))).code, -32602);
    assert.equal((await rejection(eve.tasks.result(taskId))).code, -32602);
    assert.ok(!(await eve.tasks.list()).tasks.some((t) => t.taskId === taskId));
  });

  test("a callTool timeout (maxTotalTimeoutMs) stops waiting but not the task; tasks.result gets it later", async () => {
    const c = await legacy("bob");
    let taskId;
    const { error } = await callRecording(c, "slow_task", { ms: 800, text: "late" }, {
      task: {},
      maxTotalTimeoutMs: 300,
      onTask: (t) => (taskId = t.taskId),
    });
    assert.equal(error?.data?.kind, "timeout");
    const result = await c.tasks.result(taskId);
    assert.equal(text(result), "done: late");
    assert.equal((await c.tasks.get(taskId)).status, "completed");
    assert.ok(!(await requestsFor(T25, taskId)).some((r) => r.method === "tasks/cancel"));
  });

  test("tasks: true declares the tasks capability on initialize", async () => {
    const c = await legacy("carol");
    const { result } = await callRecording(c, "plain_echo", { text: "x" });
    assert.equal(text(result), "x"); // an ordinary tool stays an ordinary call
    assert.ok(c.serverCapabilities.tasks?.requests?.tools?.call, "the server's tasks capability is visible");
    const init = (await seen(T25)).requests.filter((r) => r.method === "initialize" && r.user === "carol").at(-1);
    assert.ok(init.capabilities?.tasks, `initialize declared ${JSON.stringify(init.capabilities)}`);
  });
});

describe("the README's Tasks example", () => {
  // The example as written, but for the import, the port and a 30 s sleep made 1 s; `localStorage`
  // is a Map-backed stand-in the two runs share through a file (Node has none).
  const root = path.join(here, "../..");
  const dir = mkdtempSync(path.join(tmpdir(), "readme-tasks-"));
  const store = path.join(dir, "storage.json");
  function run() {
    const readme = readFileSync(path.join(root, "docs/client.md"), "utf8");
    const start = readme.indexOf("## Tasks");
    const example = /```js\n([\s\S]*?)```/.exec(readme.slice(start))?.[1];
    assert.ok(start >= 0 && example, "docs/client.md has a Tasks section with an example");
    const pkgFile = path.join(path.resolve(root, process.env.MCP_PKG_NODE ?? "pkg/nodejs"), "mcp_wasm_client.js");
    const prelude = `import { readFileSync, writeFileSync } from "node:fs";
const saved = JSON.parse(readFileSync(${JSON.stringify(store)}, "utf8"));
const localStorage = {
  getItem: (k) => saved[k] ?? null,
  setItem: (k, v) => { saved[k] = String(v); writeFileSync(${JSON.stringify(store)}, JSON.stringify(saved)); },
  removeItem: (k) => { delete saved[k]; writeFileSync(${JSON.stringify(store)}, JSON.stringify(saved)); },
};
`;
    const code =
      prelude +
      example
        .replace('from "mcp-wasm-client"', `from ${JSON.stringify(pkgFile)}`)
        .replace("http://127.0.0.1:18121/mcp", T26)
        .replace("{ seconds: 30 }", "{ seconds: 1 }") +
      "\nawait client.close();\n";
    const file = path.join(dir, "example.mjs");
    writeFileSync(file, code);
    return execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 30_000 });
  }

  test("a first run calls the tool as a task; a run after a 'reload' waits for the stored task", async () => {
    writeFileSync(store, "{}");
    assert.match(run(), /slept 1 s/);
    assert.deepEqual(JSON.parse(readFileSync(store, "utf8")), {}, "the task id was stored, then removed");
    // A page that stored a task id and was reloaded before the result came.
    const c = await modern();
    const controller = new AbortController();
    let stored;
    const waiting = c.callTool("slow", { seconds: 1 }, { onTask: (t) => { stored = t.taskId; controller.abort(); }, signal: controller.signal });
    await rejection(waiting);
    assert.ok(stored, "onTask gave the id");
    writeFileSync(store, JSON.stringify({ task: stored }));
    assert.match(run(), /slept 1 s/);
    assert.deepEqual(JSON.parse(readFileSync(store, "utf8")), {});
  });
});
