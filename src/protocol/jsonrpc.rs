//! JSON-RPC 2.0 envelope: request ids, the four message kinds, decoding with clear errors.

use super::error::{truncate, McpError, INVALID_REQUEST, PARSE_ERROR};
use crate::json::{json, Map, Value};
use std::fmt;

/// A JSON-RPC request id: a string or an integer, never null.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// Integer id.
    Num(i64),
    /// String id.
    Str(String),
}

impl RequestId {
    /// Reads an id from JSON; `None` for null, floats, objects...
    pub fn from_value(v: &Value) -> Option<RequestId> {
        match v {
            Value::Number(n) => n.as_i64().map(RequestId::Num),
            Value::String(s) => Some(RequestId::Str(s.clone())),
            _ => None,
        }
    }

    /// The id as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Num(n) => json!(n),
            RequestId::Str(s) => json!(s),
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Num(n) => write!(f, "{n}"),
            RequestId::Str(s) => f.write_str(&crate::util::quote::quoted(s)),
        }
    }
}

/// One JSON-RPC 2.0 message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: expects a response with the same id.
    Request {
        /// Its id.
        id: RequestId,
        /// The method.
        method: String,
        /// The params, if any.
        params: Option<Value>,
    },
    /// A notification: no id, no response.
    Notification {
        /// The method.
        method: String,
        /// The params, if any.
        params: Option<Value>,
    },
    /// A successful response.
    Result {
        /// The id of the request it answers.
        id: RequestId,
        /// The result.
        result: Value,
    },
    /// An error response; `id` is `None` when the server could not tell which request failed.
    Error {
        /// The id of the request it answers, if known.
        id: Option<RequestId>,
        /// The error.
        error: McpError,
    },
}

impl Message {
    /// Builds a request.
    pub fn request(id: RequestId, method: &str, params: Option<Value>) -> Message {
        Message::Request {
            id,
            method: method.to_string(),
            params,
        }
    }

    /// Builds a notification.
    pub fn notification(method: &str, params: Option<Value>) -> Message {
        Message::Notification {
            method: method.to_string(),
            params,
        }
    }

    /// The message as a JSON value.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("jsonrpc".into(), json!("2.0"));
        match self {
            Message::Request { id, method, params } => {
                m.insert("id".into(), id.to_value());
                m.insert("method".into(), json!(method));
                if let Some(p) = params {
                    m.insert("params".into(), p.clone());
                }
            }
            Message::Notification { method, params } => {
                m.insert("method".into(), json!(method));
                if let Some(p) = params {
                    m.insert("params".into(), p.clone());
                }
            }
            Message::Result { id, result } => {
                m.insert("id".into(), id.to_value());
                m.insert("result".into(), result.clone());
            }
            Message::Error { id, error } => {
                m.insert(
                    "id".into(),
                    id.as_ref().map_or(Value::Null, RequestId::to_value),
                );
                m.insert("error".into(), error.to_error_object());
            }
        }
        Value::Object(m)
    }

    /// The message serialized as compact JSON text: the text of [`Message::to_value`]. A request
    /// or a notification (every message a call sends) is written from its parts as they are:
    /// no copy of its params into a new object first.
    pub fn to_json(&self) -> String {
        let (id, method, params) = match self {
            Message::Request { id, method, params } => (Some(id), method, params),
            Message::Notification { method, params } => (None, method, params),
            _ => return self.to_value().to_string(),
        };
        let mut out = Vec::with_capacity(64);
        out.extend_from_slice(br#"{"jsonrpc":"2.0""#);
        // Writing to a Vec fails only for a value serde_json cannot write, which a Value is not.
        if let Some(id) = id {
            out.extend_from_slice(br#","id":"#);
            let _ = match id {
                RequestId::Num(n) => crate::json::to_writer(&mut out, n),
                RequestId::Str(s) => crate::json::to_writer(&mut out, s),
            };
        }
        out.extend_from_slice(br#","method":"#);
        let _ = crate::json::to_writer(&mut out, method);
        if let Some(p) = params {
            out.extend_from_slice(br#","params":"#);
            let _ = crate::json::to_writer(&mut out, p);
        }
        out.push(b'}');
        // serde_json writes UTF-8
        String::from_utf8(out).unwrap_or_default()
    }

    /// The id of a response (result or error), if it has one.
    pub fn response_id(&self) -> Option<&RequestId> {
        match self {
            Message::Result { id, .. } => Some(id),
            Message::Error { id, .. } => id.as_ref(),
            _ => None,
        }
    }

    /// Reads one message from a JSON value, naming what is wrong when it is not JSON-RPC 2.0.
    pub fn from_value(v: Value) -> Result<Message, McpError> {
        let Value::Object(mut obj) = v else {
            return Err(not_jsonrpc(&v, "expected a JSON object"));
        };
        if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Err(not_jsonrpc(
                &Value::Object(obj),
                "missing \"jsonrpc\": \"2.0\"",
            ));
        }
        let id_value = obj.remove("id");
        let id = id_value.as_ref().and_then(RequestId::from_value);
        if let Some(method) = obj.get("method") {
            let Some(method) = method.as_str().map(str::to_string) else {
                return Err(not_jsonrpc(
                    &Value::Object(obj),
                    "\"method\" is not a string",
                ));
            };
            let params = obj.remove("params");
            return Ok(match (id_value, id) {
                (None, _) => Message::Notification { method, params },
                (Some(_), Some(id)) => Message::Request { id, method, params },
                (Some(bad), None) => {
                    return Err(McpError::protocol(
                        INVALID_REQUEST,
                        format!(
                            "Server sent request {} with an invalid id {bad}",
                            crate::util::quote::quoted(&method)
                        ),
                    ))
                }
            });
        }
        if let Some(error) = obj.remove("error") {
            return Ok(Message::Error {
                id,
                error: error_from_wire(&error),
            });
        }
        if let Some(result) = obj.remove("result") {
            return match id {
                Some(id) => Ok(Message::Result { id, result }),
                None => Err(not_jsonrpc(
                    &Value::Object(obj),
                    "a result without a valid id",
                )),
            };
        }
        Err(not_jsonrpc(
            &Value::Object(obj),
            "neither method, result nor error",
        ))
    }
}

/// A response's `error` object (`{ code, message, data? }`, read by
/// [`ErrorObject`](super::model::error::ErrorObject)) as an [`McpError`]; one whose `code` is
/// not an integer or whose `message` is not a string is a protocol error naming it.
fn error_from_wire(value: &Value) -> McpError {
    let wire = super::model::error::ErrorObject::read(value).unwrap_or_default();
    match (wire.parts(), wire.data()) {
        (Some((code, message)), Some(data)) => McpError::with_data(code, message, data),
        (Some((code, message)), None) => McpError::new(code, message),
        (None, _) => McpError::protocol(
            INVALID_REQUEST,
            format!(
                "Server sent a malformed JSON-RPC error object: {}",
                truncate(&value.to_string(), 200)
            ),
        ),
    }
}

fn not_jsonrpc(v: &Value, why: &str) -> McpError {
    McpError::protocol(
        INVALID_REQUEST,
        format!(
            "Server sent a message that is not JSON-RPC 2.0 ({why}): {}",
            truncate(&v.to_string(), 200)
        ),
    )
}

/// Decodes a body that holds one JSON-RPC message or (2025-03-26) a batch of them.
pub fn decode(text: &str) -> Result<Vec<Message>, McpError> {
    let value: Value = crate::json::from_str(text).map_err(|e| {
        McpError::protocol(
            PARSE_ERROR,
            format!("Server sent malformed JSON ({e}): {}", truncate(text, 200)),
        )
    })?;
    match value {
        Value::Array(items) if items.is_empty() => Err(McpError::protocol(
            INVALID_REQUEST,
            "Server sent an empty JSON-RPC batch",
        )),
        Value::Array(items) => items.into_iter().map(Message::from_value).collect(),
        other => Ok(vec![Message::from_value(other)?]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_each_kind() {
        let m = decode(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#).unwrap();
        assert_eq!(m, vec![Message::request(RequestId::Num(3), "ping", None)]);
        let m = decode(
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#,
        )
        .unwrap();
        assert!(
            matches!(&m[0], Message::Notification { method, params: Some(_) } if method == "notifications/message")
        );
        let m = decode(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#).unwrap();
        assert_eq!(m[0].response_id(), Some(&RequestId::Str("a".into())));
        let m = decode(
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request"}}"#,
        )
        .unwrap();
        assert!(matches!(&m[0], Message::Error { id: None, error } if error.code == -32000));
    }

    #[test]
    fn error_objects_are_read_through_their_model() {
        let m = decode(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad","data":null}}"#,
        )
        .unwrap();
        let Message::Error { error, .. } = &m[0] else {
            panic!("{m:?}")
        };
        assert_eq!((error.code, error.message.as_str()), (-32602, "bad"));
        assert_eq!(error.data, Some(Value::Null), "data passed on as sent");
        for bad in [
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#,
        ] {
            let m = decode(bad).unwrap();
            let Message::Error { error, .. } = &m[0] else {
                panic!("{m:?}")
            };
            assert_eq!(error.code, INVALID_REQUEST, "{bad}");
            assert!(
                error
                    .message
                    .starts_with("Server sent a malformed JSON-RPC error object: "),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn decodes_batches() {
        let m = decode(r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":1,"result":1}]"#)
            .unwrap();
        assert_eq!(m.len(), 2);
        assert!(decode("[]").is_err());
    }

    #[test]
    fn to_json_is_the_text_of_to_value() {
        let params = json!({"name": "é\u{1F600}\"\\\n\u{7}", "arguments": {"z": [1, 2.5, null, true], "a": {}}, "_meta": {"progressToken": -3}});
        for m in [
            Message::request(RequestId::Num(0), "tools/call", Some(params.clone())),
            Message::request(RequestId::Num(i64::MIN), "a", None),
            Message::request(
                RequestId::Str("id \"q\" \u{1}é".into()),
                "m\u{7f}/é",
                Some(json!([])),
            ),
            Message::notification("notifications/cancelled", Some(params)),
            Message::notification("n", None),
            Message::Result {
                id: RequestId::Num(7),
                result: json!({"b": 1, "a": 2}),
            },
        ] {
            assert_eq!(m.to_json(), m.to_value().to_string(), "{m:?}");
        }
    }

    #[test]
    fn round_trips() {
        for m in [
            Message::request(
                RequestId::Str("x".into()),
                "tools/list",
                Some(json!({"cursor": ""})),
            ),
            Message::notification("notifications/initialized", None),
            Message::Result {
                id: RequestId::Num(1),
                result: json!({"ok": true}),
            },
            Message::Error {
                id: Some(RequestId::Num(2)),
                error: McpError::new(-32601, "nope"),
            },
        ] {
            assert_eq!(decode(&m.to_json()).unwrap(), vec![m]);
        }
    }

    #[test]
    fn rejects_what_is_not_jsonrpc_with_a_reason() {
        let e = decode(r#"{"jsonrpc":"2.0","id":"#).unwrap_err();
        assert_eq!(e.code, PARSE_ERROR);
        assert!(e.message.contains("malformed JSON"), "{}", e.message);
        let e = decode(r#"{"hello":"world"}"#).unwrap_err();
        assert!(e.message.contains("not JSON-RPC 2.0"), "{}", e.message);
        assert!(e.message.contains("hello"));
        let e = decode(r#"{"jsonrpc":"2.0","id":1}"#).unwrap_err();
        assert!(e.message.contains("neither method"));
        let e = decode(r#"{"jsonrpc":"2.0","result":{}}"#).unwrap_err();
        assert!(e.message.contains("without a valid id"));
        let e = decode(r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#).unwrap_err();
        assert!(e.message.contains("invalid id"));
        assert!(decode("42").is_err());
    }
}
