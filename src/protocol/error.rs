//! `McpError`: the one error type of the crate, with the JSON-RPC/MCP error codes.

use serde_json::{json, Value};

/// JSON-RPC parse error.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC invalid request (also: unexpected content type, 202 for a request).
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC method not found.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC invalid params (unknown tool, undeclared elicitation mode, ...).
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC internal error.
pub const INTERNAL_ERROR: i64 = -32603;
/// Local: the connection failed, closed, or a stream ended without the response.
pub const CONNECTION_CLOSED: i64 = -32000;
/// Local: the request timed out (same number as the Python SDK).
pub const REQUEST_TIMEOUT: i64 = -32001;
/// Resource not found (2025-11-25 and older servers).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// Local: the caller aborted the request through its `AbortSignal`.
pub const REQUEST_ABORTED: i64 = -32010;
/// Local: the client was closed (or never connected) when the call was made.
pub const CLIENT_CLOSED: i64 = -32011;
/// 2026: `Mcp-*` headers disagree with the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// 2026: the request needs a client capability that was not declared.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
/// 2026: the server does not speak the requested protocol version.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// 2025-11-25: a URL-mode elicitation is required first.
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// An MCP error: a JSON-RPC error from the server, or a local failure (then `data.local` is
/// `true` and `data.kind` names it: `network`, `cors`, `timeout`, `aborted`, `closed`, `http`,
/// `protocol`, `input`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("MCP error {code}: {message}")]
pub struct McpError {
    /// Numeric JSON-RPC error code.
    pub code: i64,
    /// Human-readable message.
    pub message: String,
    /// Optional structured detail.
    pub data: Option<Value>,
}

impl McpError {
    /// An error with a code and message and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        McpError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// An error with data attached.
    pub fn with_data(code: i64, message: impl Into<String>, data: Value) -> Self {
        McpError {
            code,
            message: message.into(),
            data: Some(data),
        }
    }

    /// A local (client-side) failure of the given kind, with extra detail merged into `data`.
    pub fn local(code: i64, kind: &str, message: impl Into<String>, extra: Value) -> Self {
        let mut data = json!({ "local": true, "kind": kind });
        if let (Some(obj), Value::Object(more)) = (data.as_object_mut(), extra) {
            obj.extend(more);
        }
        McpError::with_data(code, message, data)
    }

    /// The request did not complete within `ms` milliseconds.
    pub fn timeout(method: &str, ms: u64) -> Self {
        Self::local(
            REQUEST_TIMEOUT,
            "timeout",
            format!("Request timed out: {method} got no response within {ms} ms"),
            json!({ "timeoutMs": ms }),
        )
    }

    /// The caller aborted the request.
    pub fn aborted(method: &str, reason: Option<String>) -> Self {
        let message = match &reason {
            Some(r) => format!("Request aborted: {method} ({r})"),
            None => format!("Request aborted: {method}"),
        };
        Self::local(
            REQUEST_ABORTED,
            "aborted",
            message,
            json!({ "reason": reason }),
        )
    }

    /// The client is closed or not connected.
    pub fn closed(what: &str) -> Self {
        Self::local(CLIENT_CLOSED, "closed", what.to_string(), Value::Null)
    }

    /// The caller passed bad arguments or options (-32602, `data.kind = "input"`).
    pub fn input(message: impl Into<String>) -> Self {
        Self::local(INVALID_PARAMS, "input", message, Value::Null)
    }

    /// The server broke the protocol (bad JSON, wrong shape, wrong content type...).
    pub fn protocol(code: i64, message: impl Into<String>) -> Self {
        Self::local(code, "protocol", message, Value::Null)
    }

    /// True when this error was produced by the client, not received from the server.
    pub fn is_local(&self) -> bool {
        self.data
            .as_ref()
            .and_then(|d| d.get("local"))
            .and_then(Value::as_bool)
            == Some(true)
    }

    /// The `data.kind` of a local error, if any.
    pub fn kind(&self) -> Option<&str> {
        if !self.is_local() {
            return None;
        }
        self.data.as_ref()?.get("kind")?.as_str()
    }

    /// The JSON-RPC `error` object for this error.
    pub fn to_error_object(&self) -> Value {
        let mut obj = json!({ "code": self.code, "message": self.message });
        if let Some(data) = &self.data {
            obj["data"] = data.clone();
        }
        obj
    }

    /// Reads a JSON-RPC `error` object; anything malformed becomes a protocol error saying so.
    pub fn from_error_object(value: &Value) -> Self {
        let code = value.get("code").and_then(Value::as_i64);
        let message = value.get("message").and_then(Value::as_str);
        match (code, message) {
            (Some(code), Some(message)) => McpError {
                code,
                message: message.to_string(),
                data: value.get("data").cloned(),
            },
            _ => McpError::protocol(
                INVALID_REQUEST,
                format!(
                    "Server sent a malformed JSON-RPC error object: {}",
                    truncate(&value.to_string(), 200)
                ),
            ),
        }
    }
}

/// Cuts `s` to at most `max` bytes on a char boundary, marking the cut.
pub fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_errors_carry_kind_and_detail() {
        let e = McpError::timeout("tools/call", 250);
        assert_eq!(e.code, REQUEST_TIMEOUT);
        assert!(e.is_local());
        assert_eq!(e.kind(), Some("timeout"));
        assert_eq!(e.data.as_ref().unwrap()["timeoutMs"], 250);
        assert!(e.message.contains("250 ms"));
    }

    #[test]
    fn server_error_objects_round_trip() {
        let v = json!({"code": -32602, "message": "Unknown tool: nope", "data": {"x": 1}});
        let e = McpError::from_error_object(&v);
        assert_eq!(e.code, -32602);
        assert!(!e.is_local());
        assert_eq!(e.kind(), None);
        assert_eq!(e.to_error_object(), v);
    }

    #[test]
    fn malformed_error_objects_are_named() {
        let e = McpError::from_error_object(&json!({"code": "x"}));
        assert_eq!(e.code, INVALID_REQUEST);
        assert!(e.message.contains("malformed JSON-RPC error"));
    }

    #[test]
    fn truncate_respects_char_boundaries() {
        assert_eq!(truncate("héllo", 2), "h…");
        assert_eq!(truncate("abc", 5), "abc");
    }
}
