//! The params of what a server asks the client (legacy JSON-RPC requests, or 2026
//! `inputRequests` entries), as far as the client checks them before a callback runs. The
//! params themselves are passed to the callback as sent.

use super::{view, Field};
use crate::json::Value;
use serde::Deserialize;

/// `elicitation/create` params.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ElicitRequestParams {
    /// `"form"` (also when absent or not a string) or `"url"`.
    pub mode: Field<String>,
    /// URL mode: where to send the user.
    pub url: Field<String>,
    /// Form mode: the schema the answer follows.
    pub requested_schema: Field<Value>,
}

impl ElicitRequestParams {
    /// Reads params (default when not an object).
    pub fn read(v: &Value) -> Self {
        view(v).unwrap_or_default()
    }

    /// The mode when it is a string.
    pub fn mode(&self) -> Option<&str> {
        self.mode.ok().map(String::as_str)
    }

    /// The `requestedSchema` as sent (`null` when absent).
    pub fn schema(self) -> Value {
        self.requested_schema.into_ok().unwrap_or(Value::Null)
    }
}

/// `sampling/createMessage` params, as far as the declared capabilities decide.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CreateMessageParams {
    /// Tools offered to the model.
    pub tools: Field<Value>,
    /// How the model may use them.
    pub tool_choice: Field<Value>,
}

impl CreateMessageParams {
    /// Reads params (default when not an object).
    pub fn read(v: &Value) -> Self {
        view(v).unwrap_or_default()
    }

    /// `tools` or `toolChoice` is given (not `null`).
    pub fn wants_tools(&self) -> bool {
        !self.tools.is_missing() || !self.tool_choice.is_missing()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;

    #[test]
    fn elicitation_params() {
        let p =
            ElicitRequestParams::read(&json!({"mode": "url", "url": "https://x", "message": "m"}));
        assert_eq!((p.mode(), p.url.ok().is_some()), (Some("url"), true));
        let p =
            ElicitRequestParams::read(&json!({"mode": 3, "requestedSchema": {"type": "object"}}));
        assert_eq!(
            p.mode(),
            None,
            "a mode that is not a string reads as absent"
        );
        assert_eq!(p.schema(), json!({"type": "object"}));
        assert_eq!(
            ElicitRequestParams::read(&json!(null)).schema(),
            Value::Null
        );
    }

    #[test]
    fn sampling_params() {
        assert!(CreateMessageParams::read(&json!({"tools": []})).wants_tools());
        assert!(CreateMessageParams::read(&json!({"toolChoice": {"mode": "auto"}})).wants_tools());
        assert!(!CreateMessageParams::read(&json!({"tools": null, "messages": []})).wants_tools());
    }
}
