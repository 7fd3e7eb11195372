//! Tasks, both eras, without I/O: recognising a task answer to `tools/call` (2025-11-25: the
//! wrapped `CreateTaskResult { task }` of a call that asked with `params.task`; 2026: a flat
//! `resultType: "task"` result of the `io.modelcontextprotocol/tasks` extension), the task
//! object JS sees (2026 names on both eras: `ttlMs`, `pollIntervalMs`), terminal states, the
//! poll interval, what a terminal task yields, the params of `tasks/*`, and the
//! `io.modelcontextprotocol/related-task` `_meta` of the 2025 side channel.

use super::mrtr::{self, InputRequest};
use crate::json::{json, Map, Value};
use crate::protocol::error::{
    ErrorKind, McpError, INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY, REQUEST_ABORTED,
};
use crate::protocol::model::error::ErrorObject;
use crate::protocol::model::initialize::ServerCapabilities;
use crate::protocol::model::list::items;
use crate::protocol::model::task::{CreateTaskResult, RelatedTaskMeta, TaskIdRef, TaskObject};
use crate::protocol::model::tool::Tool;
use crate::protocol::model::{view, Field};
use crate::protocol::version::Era;

pub use crate::protocol::capabilities::TASKS_EXTENSION;

/// `_meta` key tying a 2025-11-25 message to its task (`{ taskId }`).
pub use crate::protocol::model::task::RELATED_TASK;

/// The poll interval when the server suggests none.
pub const DEFAULT_POLL_MS: u64 = 1_000;
/// The shortest poll interval honoured (a server asking for less gets this).
pub const MIN_POLL_MS: u64 = 100;
/// The longest poll interval honoured (a server asking for more gets this).
pub const MAX_POLL_MS: u64 = 30_000;

/// The per-call options that make a `tools/call` a task call (`callTool`'s options object).
pub const TASK_CALL_OPTIONS: [&str; 2] = ["task", "onTask"];

pub use crate::protocol::model::task::Status;

/// A task as read from the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// `taskId`.
    pub id: String,
    /// `status`.
    pub status: Status,
    /// The object JS sees: the wire's fields with the 2026 names, without `resultType`.
    pub value: Value,
}

impl Task {
    /// The typed view of [`Task::value`] (2026 names).
    pub fn view(&self) -> TaskObject {
        TaskObject::read(&self.value).unwrap_or_default()
    }

    /// How long to wait before the next `tasks/get`: the server's interval within
    /// [`MIN_POLL_MS`]..=[`MAX_POLL_MS`], or [`DEFAULT_POLL_MS`].
    pub fn poll_ms(&self) -> u64 {
        match self.view().poll_interval_ms.into_ok() {
            Some(ms) if ms.is_finite() && ms >= 0.0 => {
                (ms.ceil() as u64).clamp(MIN_POLL_MS, MAX_POLL_MS)
            }
            _ => DEFAULT_POLL_MS,
        }
    }
}

fn malformed(what: &str, why: &str) -> McpError {
    McpError::protocol(
        INVALID_REQUEST,
        ["The server's task in ", what, " is malformed: ", why].concat(),
    )
}

/// Reads a task object of either era (`what` names where it came from, for errors): the 2025
/// `ttl` and `pollInterval` become `ttlMs` and `pollIntervalMs`; `ttlMs` is `null` when absent.
pub fn read(what: &str, v: &Value) -> Result<Task, McpError> {
    let Value::Object(wire) = v else {
        return Err(malformed(what, "it is not an object"));
    };
    let task = TaskObject::read(v).unwrap_or_default();
    let id = task.id().map_err(|why| malformed(what, &why))?.to_string();
    let status = task.state().map_err(|why| malformed(what, &why))?;
    let mut value = Map::new();
    for (k, v) in wire {
        let key = match k.as_str() {
            "resultType" => continue,
            "ttl" if !wire.contains_key("ttlMs") => "ttlMs",
            "pollInterval" if !wire.contains_key("pollIntervalMs") => "pollIntervalMs",
            other => other,
        };
        value.insert(key.to_string(), v.clone());
    }
    value.entry("ttlMs").or_insert(Value::Null);
    Ok(Task {
        id,
        status,
        value: Value::Object(value),
    })
}

/// The task a `tools/call` result announces, if it is one: 2025-11-25 a `CreateTaskResult`
/// (`{ task: {...} }`, no `content`), 2026 a `resultType: "task"` result.
pub fn created(era: Era, result: &Value) -> Result<Option<Task>, McpError> {
    let Some(answer) = CreateTaskResult::read(result) else {
        return Ok(None);
    };
    match era {
        Era::Legacy => match answer.wrapped() {
            Some(task) => read("the CreateTaskResult", &Value::Object(task)).map(Some),
            None => Ok(None),
        },
        Era::Modern if answer.is_flat_task() => read("the CreateTaskResult", result).map(Some),
        Era::Modern => Ok(None),
    }
}

/// True when `result` announces a task (no tool output to check yet).
pub fn is_task_stub(result: &Value) -> bool {
    CreateTaskResult::read(result).is_some_and(|a| a.is_flat_task() || a.wrapped().is_some())
}

/// The error for a task the server cancelled.
pub fn cancelled(task: &Task) -> McpError {
    let mut message = [
        "The server cancelled task ",
        &crate::util::quote::quoted(&task.id),
    ]
    .concat();
    if let Field::Is(why) = task.view().status_message {
        message.push_str(": ");
        message.push_str(&why);
    }
    McpError::local(
        REQUEST_ABORTED,
        ErrorKind::TaskCancelled,
        message,
        json!({ "taskId": task.id }),
    )
}

/// What a terminal 2026 `DetailedTask` yields: `completed` its `result` (a `CallToolResult`,
/// `isError: true` included), `failed` its `error` as the server's error, `cancelled` a
/// [`cancelled`] error; `None` while it is not terminal.
pub fn outcome(task: &Task) -> Option<Result<Value, McpError>> {
    Some(match task.status {
        Status::Working | Status::InputRequired => return None,
        Status::Cancelled => Err(cancelled(task)),
        Status::Completed => match task.view().result {
            Field::Is(r @ Value::Object(_)) => Ok(r),
            _ => Err(malformed(
                "tasks/get",
                "it is completed without a result object",
            )),
        },
        Status::Failed => Err(match task.view().error {
            Field::Is(e) => failure(task, &e),
            _ => malformed("tasks/get", "it failed without an error object"),
        }),
    })
}

/// A failed task's `error` (`{ code, message, data? }`) as the server's error.
fn failure(task: &Task, e: &Value) -> McpError {
    let e = ErrorObject::read(e).unwrap_or_default();
    let code = e.code.ok().copied().unwrap_or(INTERNAL_ERROR);
    let message = e.message.ok().map_or("the task failed", String::as_str);
    let mut data = match e.data() {
        Some(Value::Object(o)) => o,
        Some(other) => Map::from_iter([("detail".to_string(), other)]),
        None => Map::new(),
    };
    data.insert("taskId".into(), Value::String(task.id.clone()));
    McpError::with_data(code, message, Value::Object(data))
}

/// The still-open `inputRequests` of an `input_required` 2026 task (keys in `answered` were
/// answered by an earlier `tasks/update`: keys are unique for the task's life).
pub fn open_requests(task: &Task, answered: &[String]) -> Result<Vec<InputRequest>, McpError> {
    match task.view().input_requests {
        Field::Absent | Field::Null => Ok(Vec::new()),
        Field::Is(Value::Object(m)) if m.is_empty() => Ok(Vec::new()),
        _ => Ok(mrtr::parse("tasks/get", &task.value)?
            .requests
            .into_iter()
            .filter(|r| !answered.contains(&r.key))
            .collect()),
    }
}

/// The task a notification is about: 2026 `notifications/tasks` (on a listen stream) and
/// 2025-11-25 `notifications/tasks/status` carry the whole task.
pub fn notified_task<'a>(method: &str, params: &'a Value) -> Option<&'a str> {
    match method {
        "notifications/tasks" | "notifications/tasks/status" => view::<TaskIdRef>(params)?.task_id,
        _ => None,
    }
}

/// True when a poll shows news: the status, its message or the update time changed.
pub fn changed(before: &Task, after: &Task) -> bool {
    let (b, a) = (before.view(), after.view());
    b.status != a.status
        || b.status_message != a.status_message
        || b.last_updated_at != a.last_updated_at
}

/// The wait for a task ran past `timeoutMs` without news; the task goes on.
pub fn wait_timed_out(task_id: &str, ms: u64) -> McpError {
    let mut e = McpError::timeout("tools/call", ms);
    e.message = [
        "Request timed out: task ",
        &crate::util::quote::quoted(task_id),
        " had no news within ",
        &ms.to_string(),
        " ms; it goes on (client.tasks.result(taskId) waits for it again, client.tasks.cancel(taskId) stops it)",
    ]
    .concat();
    if let Some(Value::Object(d)) = &mut e.data {
        d.insert("taskId".into(), Value::String(task_id.to_string()));
    }
    e
}

/// A 2025-11-25 tool listing says a call must ask for a task (`execution.taskSupport`).
pub fn task_required(tool: &Value) -> bool {
    Tool::read(tool).is_some_and(|t| t.task_required())
}

/// 2025-11-25: the server accepts task-augmented `tools/call` (`tasks.requests.tools.call`).
pub fn server_runs_tool_tasks(capabilities: Option<&Value>) -> bool {
    ServerCapabilities::read(capabilities).runs_tool_tasks()
}

/// `{ taskId }`: the params of `tasks/get`, `tasks/result` and `tasks/cancel`.
pub fn id_params(task_id: &str) -> Value {
    json!({ "taskId": task_id })
}

/// The params of a 2026 `tasks/update`: the task and this round's answers.
pub fn update_params(task_id: &str, responses: Map<String, Value>) -> Value {
    json!({ "taskId": task_id, "inputResponses": responses })
}

/// The 2025-11-25 `params.task` of a task-augmented call (`ttlMs` sent as the wire's `ttl`).
pub fn task_param(ttl_ms: Option<u64>) -> Value {
    match ttl_ms {
        Some(ms) => json!({ "ttl": ms }),
        None => json!({}),
    }
}

/// A `tasks/list` result with every task in the JS shape (`nextCursor` kept).
pub fn list(result: &Value) -> Result<Value, McpError> {
    let Some(tasks) = items(result, "tasks") else {
        return Err(malformed("tasks/list", "tasks is not an array"));
    };
    let tasks: Result<Vec<Value>, McpError> = tasks
        .iter()
        .map(|t| read("tasks/list", t).map(|t| t.value))
        .collect();
    let mut out = result.as_object().cloned().unwrap_or_default();
    out.insert("tasks".into(), Value::Array(tasks?));
    Ok(Value::Object(out))
}

/// `tasks.list()` on a 2026 session: the extension removed `tasks/list`.
pub fn list_unsupported() -> McpError {
    McpError::local(
        METHOD_NOT_FOUND,
        ErrorKind::Unsupported,
        "tasks.list exists only in 2025-11-25; the 2026 tasks extension removed tasks/list: keep the taskId onTask gives and call tasks.get or tasks.result with it",
        Value::Null,
    )
}

/// -32021 to a request: the server wanted the tasks extension declared. The error, reworded
/// to say how (its code and data kept).
pub fn missing_declaration(mut e: McpError) -> McpError {
    if e.code == MISSING_REQUIRED_CLIENT_CAPABILITY {
        e.message = [
            &e.message,
            " (the server requires a client capability this request did not declare; for tasks pass new Client(url, { tasks: true }) or the call's task option)",
        ]
        .concat();
    }
    e
}

/// The task a 2025-11-25 server request belongs to (its `_meta` related-task), if any.
pub fn related_task(params: &Value) -> Option<Value> {
    view::<RelatedTaskMeta>(params)?.related_task()
}

/// Echoes a server request's related-task `_meta` on the client's answer to it.
pub fn echo_related_task(related: Option<Value>, answer: &mut Value) {
    if let (Some(related), Value::Object(a)) = (related, answer) {
        if let Value::Object(meta) = a.entry("_meta").or_insert_with(|| json!({})) {
            meta.insert(RELATED_TASK.into(), related);
        }
    }
}

#[cfg(test)]
mod tests;
