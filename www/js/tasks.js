// Tasks that survive a reload: a call the server answers with a task (the demo's long_task, with
// the client option `tasks: true`) stores its task id in sessionStorage; after a reload, connect()
// resumes it with client.tasks.result(taskId) and shows the result where the call would have.
import { h } from "./dom.js";
import { state } from "./state.js";
import { addMessage, errorNode, renderResult, scrollToEnd, systemNote } from "./chat.js";

/** sessionStorage key of the task in flight: { taskId, tool, url, startedAt }. */
const TASK_KEY = "mcp-demo-task";

function storedTask() {
  try {
    const t = JSON.parse(sessionStorage.getItem(TASK_KEY) ?? "null");
    return typeof t?.taskId === "string" ? t : null;
  } catch {
    return null;
  }
}
const forget = (taskId) => {
  if (storedTask()?.taskId === taskId) sessionStorage.removeItem(TASK_KEY);
};

/** A line in the result bubble naming the task and its status. */
function taskLine(li, task) {
  let line = li.querySelector("[data-test=task]");
  if (!line) {
    line = h("div", { class: "task-line", "data-test": "task", role: "status" });
    li.querySelector(".bubble").append(line);
  }
  line.dataset.taskId = task.taskId;
  line.textContent = `Task ${task.taskId.slice(0, 8)}… · ${task.status}${task.statusMessage ? ` · ${task.statusMessage}` : ""}` +
    " · reload the page: the result still arrives";
  scrollToEnd();
}

/** Call options that store the task (if the server makes one) for the transcript entry `li`. */
export function taskCallOptions(li, tool, url) {
  return {
    onTask: (task) => {
      sessionStorage.setItem(TASK_KEY, JSON.stringify({ taskId: task.taskId, tool, url, startedAt: Date.now() }));
      li.dataset.taskId = task.taskId;
      taskLine(li, task);
    },
  };
}

/** The call ended (result or error): the stored task, if it was this call's, is done. */
export function callEnded(li) {
  if (li.dataset.taskId) forget(li.dataset.taskId);
}

/** After connecting to `url`: resumes a task a previous page load stored, showing its result. */
export async function resumeStoredTask(url) {
  const stored = storedTask();
  const c = state.client;
  if (!stored || !c?.tasks || stored.url !== url) return;
  systemNote(`Resuming task ${stored.taskId.slice(0, 8)}… of ${stored.tool} after a reload.`, "msg-task-resumed");
  const li = addMessage("server", { test: "msg-result", dataset: { tool: stored.tool, state: "pending", taskId: stored.taskId, resumed: "1" } },
    h("span", { class: "pending", text: "waiting for the task…" }));
  taskLine(li, { taskId: stored.taskId, status: "working" });
  try {
    const result = await c.tasks.result(stored.taskId);
    renderResult(li, `${stored.tool} (task, resumed)`, result, Date.now() - stored.startedAt);
  } catch (err) {
    li.dataset.state = "error";
    li.querySelector(".bubble").replaceChildren(errorNode(err, `Task ${stored.taskId.slice(0, 8)}…`));
  } finally {
    forget(stored.taskId);
  }
}
