// Smoke check of ts_tasks_server.mjs with the official SDK 1.x client (its experimental task client):
// every task tool, a reload (a new session of the same X-User) finding its task, another user refused.
// Usage: node tests/peers/ts_tasks_server.mjs & node tests/peers/check_ts_tasks_peer.mjs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
const url = new URL("http://127.0.0.1:18122/mcp");
async function mk(user) {
  const c = new Client({ name: "s", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  c.setRequestHandler(ElicitRequestSchema, async (r) => ({ action: "accept", content: { name: "Ann" } }));
  await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { "X-User": user } } }));
  return c;
}
const a = await mk("alice");
for (const name of ["slow_task", "ask_task", "fail_task", "schema_task"]) {
  const stream = a.experimental.tasks.callToolStream({ name, arguments: {} }, CallToolResultSchema, { task: { ttl: 60000 } });
  for await (const m of stream) console.log(name, m.type, JSON.stringify(m.task ?? m.result ?? m.error?.message).slice(0, 200));
}
const r = await a.request({ method: "tools/call", params: { name: "slow_task", arguments: { ms: 300 }, task: { ttl: 60000 } } }, (await import("@modelcontextprotocol/sdk/experimental/tasks")).CreateTaskResultSchema);
console.log("created", r.task.taskId);
const b = await mk("alice");
console.log("reload get", JSON.stringify(await b.experimental.tasks.getTask(r.task.taskId)));
console.log("reload result", JSON.stringify(await b.experimental.tasks.getTaskResult(r.task.taskId, CallToolResultSchema)));
const e = await mk("eve");
try { await e.experimental.tasks.getTask(r.task.taskId); console.log("EVE SAW IT"); } catch (err) { console.log("eve refused:", err.message); }
console.log("list", (await b.experimental.tasks.listTasks()).tasks.length, (await e.experimental.tasks.listTasks()).tasks.length);
process.exit(0);
