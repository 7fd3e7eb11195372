//! A tool of a `tools/list` page as the client reads it: its name, `outputSchema` (results
//! are checked against it) and 2025-11-25 `execution.taskSupport`. The tool itself is passed
//! to JS as sent; `inputSchema`'s `x-mcp-header` annotations are read by
//! [`tool_headers`](crate::protocol::tool_headers).

use super::{view, Field};
use crate::json::{Map, Value};
use serde::Deserialize;

/// A listed tool.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Tool {
    /// Its name (a tool without a string name is not remembered).
    pub name: Field<String>,
    /// The JSON Schema its structured output follows.
    pub output_schema: Field<Map<String, Value>>,
    /// 2025-11-25: how it runs.
    pub execution: Field<ToolExecution>,
}

/// `execution` of a 2025-11-25 tool.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ToolExecution {
    /// `"forbidden"`, `"optional"` or `"required"`.
    pub task_support: Field<String>,
}

impl Tool {
    /// Reads a tool (`None` when it is not an object).
    pub fn read(v: &Value) -> Option<Self> {
        view(v)
    }

    /// `execution.taskSupport` is `"required"`: a call must ask for a task.
    pub fn task_required(&self) -> bool {
        let support = self.execution.ok().and_then(|e| e.task_support.ok());
        support.is_some_and(|s| s == "required")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn a_tool_as_read() {
        let t = Tool::read(&json!({"name": "t", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}))
        .unwrap();
        assert_eq!(t.name.ok().map(String::as_str), Some("t"));
        assert_eq!(t.output_schema.ok().unwrap()["type"], "object");
        assert!(t.task_required());
        let t = Tool::read(
            &json!({"name": 3, "outputSchema": true, "execution": {"taskSupport": "optional"}}),
        )
        .unwrap();
        assert!(t.name.ok().is_none() && t.output_schema.ok().is_none() && !t.task_required());
        assert!(!Tool::read(&json!({"execution": "required"}))
            .unwrap()
            .task_required());
        assert!(Tool::read(&json!("t")).is_none());
    }
}
