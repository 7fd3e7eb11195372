//! Tasks on the wire: the task object (2025-11-25 `Task`, 2026 `DetailedTask`) and the
//! answer that creates one (2025-11-25 `CreateTaskResult { task }`, 2026 a flat
//! `resultType: "task"` result). The session keeps the object JS sees beside this view.

use super::{view, Field, Seen};
use crate::json::{Map, Value};
use serde::Deserialize;

/// A task's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// In progress.
    Working,
    /// Waiting for the client's answers.
    InputRequired,
    /// Done; the result is ready (terminal).
    Completed,
    /// Ended by an error (terminal).
    Failed,
    /// Cancelled (terminal).
    Cancelled,
}

impl Status {
    /// Reads the wire's `status`.
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "working" => Status::Working,
            "input_required" => Status::InputRequired,
            "completed" => Status::Completed,
            "failed" => Status::Failed,
            "cancelled" => Status::Cancelled,
            _ => return None,
        })
    }

    /// Completed, failed and cancelled never change.
    pub fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// The fields of a task object the client interprets (2026 names: the session renames the
/// 2025 `ttl` and `pollInterval` before reading).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TaskObject {
    /// The task's id.
    pub task_id: Field<String>,
    /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
    pub status: Field<String>,
    /// Why it is in its status.
    pub status_message: Field<String>,
    /// When it last changed (compared, never interpreted).
    pub last_updated_at: Field<Value>,
    /// The server's suggested poll interval, in ms.
    pub poll_interval_ms: Field<f64>,
    /// 2026: the open requests of an `input_required` task (read as an `input_required` round).
    pub input_requests: Field<Value>,
    /// 2026: a completed task's result.
    pub result: Field<Value>,
    /// 2026: a failed task's error object.
    pub error: Field<Value>,
}

impl TaskObject {
    /// Reads a task object (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }

    /// The id, when a non-empty string; the error names what is wrong.
    pub fn id(&self) -> Result<&str, String> {
        match self.task_id.ok() {
            Some(id) if !id.is_empty() => Ok(id),
            _ => Err("taskId is not a non-empty string".into()),
        }
    }

    /// The status, when a known one; the error names what is wrong.
    pub fn state(&self) -> Result<Status, String> {
        let s = self.status.ok().ok_or("status is not a string")?;
        Status::parse(s)
            .ok_or_else(|| ["status ", &crate::util::quote::quoted(s), " is unknown"].concat())
    }
}

/// What a `tools/call` result says about a task: 2025-11-25 wraps the task (`{ task }`, no
/// `content`), 2026 flags the result itself (`resultType: "task"`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateTaskResult {
    /// 2025-11-25: the task.
    pub task: Field<Map<String, Value>>,
    /// Present on a tool's output (a task answer has none; `null` counts as present).
    pub content: Seen,
    /// 2026: `"task"` on a task answer.
    pub result_type: Field<String>,
}

impl CreateTaskResult {
    /// Reads a result (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }

    /// 2026: the result is the task (`resultType: "task"`).
    pub fn is_flat_task(&self) -> bool {
        self.result_type.ok().is_some_and(|t| t == "task")
    }

    /// 2025-11-25: the wrapped task, when `task` is an object and there is no `content`.
    pub fn wrapped(self) -> Option<Map<String, Value>> {
        if self.content.0 {
            return None;
        }
        self.task.into_ok()
    }
}

/// The task a notification names (`notifications/tasks`, `notifications/tasks/status`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
pub struct TaskIdRef<'a> {
    /// `taskId`, when a string.
    /// (Anything but a string is no id: the notification is not about a task we can name.)
    #[serde(default, rename = "taskId", deserialize_with = "super::lenient_str")]
    pub task_id: Option<&'a str>,
}

/// The 2025-11-25 related-task `_meta` of a server request (`{ taskId }`, echoed on the answer).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct RelatedTaskMeta {
    /// `_meta`.
    #[serde(rename = "_meta")]
    pub meta: Field<Map<String, Value>>,
}

impl RelatedTaskMeta {
    /// `_meta["io.modelcontextprotocol/related-task"]` as sent (`null` kept), if present.
    pub fn related_task(self) -> Option<Value> {
        let mut meta = self.meta.into_ok()?;
        meta.remove(RELATED_TASK)
    }
}

/// `_meta` key tying a 2025-11-25 message to its task (`{ taskId }`).
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn a_task_object_and_its_named_errors() {
        let t = TaskObject::read(
            &json!({"taskId": "t", "status": "working", "pollIntervalMs": 500,
            "statusMessage": "busy", "lastUpdatedAt": "2026-01-01T00:00:00Z", "other": 1}),
        )
        .unwrap();
        assert_eq!((t.id(), t.state()), (Ok("t"), Ok(Status::Working)));
        assert_eq!(t.poll_interval_ms, Field::Is(500.0));
        assert_eq!(t.status_message.ok().map(String::as_str), Some("busy"));
        for (bad, why) in [
            (
                json!({"taskId": "", "status": "working"}),
                "taskId is not a non-empty string",
            ),
            (
                json!({"taskId": 5, "status": "working"}),
                "taskId is not a non-empty string",
            ),
            (
                json!({"taskId": "a", "status": 1}),
                "status is not a string",
            ),
            (json!({"taskId": "a"}), "status is not a string"),
            (
                json!({"taskId": "a", "status": "done"}),
                "status \"done\" is unknown",
            ),
        ] {
            let t = TaskObject::read(&bad).unwrap();
            assert_eq!(t.id().and_then(|_| t.state()).unwrap_err(), why, "{bad}");
        }
        assert!(TaskObject::read(&json!([1])).is_none());
    }

    #[test]
    fn a_task_answer_of_either_era() {
        let wrapped = CreateTaskResult::read(&json!({"task": {"taskId": "a"}})).unwrap();
        assert!(!wrapped.is_flat_task());
        assert_eq!(wrapped.wrapped().unwrap()["taskId"], "a");
        let output = json!({"task": {"taskId": "a"}, "content": null});
        assert_eq!(CreateTaskResult::read(&output).unwrap().wrapped(), None);
        let not_a_task = json!({"task": "a"});
        assert_eq!(CreateTaskResult::read(&not_a_task).unwrap().wrapped(), None);
        let flat = CreateTaskResult::read(&json!({"resultType": "task", "taskId": "b"})).unwrap();
        assert!(flat.is_flat_task());
        assert!(!CreateTaskResult::read(&json!({"resultType": 1}))
            .unwrap()
            .is_flat_task());
    }
}
