//! Reading results: the 2026 `resultType` rule (missing means complete; unknown is invalid).

use crate::protocol::error::{McpError, INVALID_REQUEST};
use serde_json::Value;

/// What kind of result arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKind {
    /// A final result (`resultType` absent or `"complete"`).
    Complete,
    /// A multi-round-trip interim result.
    InputRequired,
}

/// Classifies a result by `resultType`; anything else is a protocol error naming the value.
pub fn result_kind(method: &str, result: &Value) -> Result<ResultKind, McpError> {
    if !result.is_object() {
        return Err(McpError::protocol(
            INVALID_REQUEST,
            format!(
                "The server's result for {method} is not a JSON object: {}",
                crate::protocol::error::truncate(&result.to_string(), 100)
            ),
        ));
    }
    match result.get("resultType") {
        None | Some(Value::Null) => Ok(ResultKind::Complete),
        Some(Value::String(s)) if s == "complete" => Ok(ResultKind::Complete),
        Some(Value::String(s)) if s == "input_required" => Ok(ResultKind::InputRequired),
        Some(other) => Err(McpError::protocol(
            INVALID_REQUEST,
            format!("The server's result for {method} has an unknown resultType {other}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn result_types() {
        assert_eq!(result_kind("m", &json!({})).unwrap(), ResultKind::Complete);
        assert_eq!(
            result_kind("m", &json!({"resultType": "complete"})).unwrap(),
            ResultKind::Complete
        );
        assert_eq!(
            result_kind("m", &json!({"resultType": "input_required"})).unwrap(),
            ResultKind::InputRequired
        );
        assert!(result_kind("tools/call", &json!({"resultType": "task"}))
            .unwrap_err()
            .message
            .contains("\"task\""));
        assert!(result_kind("m", &json!([1])).is_err());
    }
}
