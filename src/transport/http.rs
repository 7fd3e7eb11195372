//! Streamable HTTP rules that need no I/O: content types, and what a status/body means.

use crate::json::{json, Value};
use crate::protocol::error::{
    truncate, McpError, CONNECTION_CLOSED, INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND,
};
use crate::protocol::jsonrpc::{decode, Message};

/// `Accept` sent on every POST (both types MUST be listed).
pub const ACCEPT_POST: &str = "application/json, text/event-stream";

/// How a response body must be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyKind {
    /// One JSON-RPC message (or a 2025-03-26 batch).
    Json,
    /// A Server-Sent Events stream of JSON-RPC messages.
    Sse,
    /// Anything else: names the media type.
    Unexpected(String),
}

/// The media-type essence of a `Content-Type` value: lower case, parameters dropped.
pub fn media_type_essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Which reader a 2xx response with this `Content-Type` needs.
pub fn body_kind(content_type: Option<&str>) -> BodyKind {
    match content_type.map(media_type_essence).as_deref() {
        Some("application/json") => BodyKind::Json,
        Some("text/event-stream") => BodyKind::Sse,
        Some(other) => BodyKind::Unexpected(other.to_string()),
        None => BodyKind::Unexpected(String::new()),
    }
}

/// What to do with a 3xx answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redirect {
    /// Follow it: same origin, and the method survives (307/308, or any 30x for GET).
    Follow,
    /// Refuse: the error says why.
    Refuse(String),
}

/// Redirect policy: only same-origin redirects are followed (credentials and custom headers
/// never reach another origin), and a POST only through 307/308 (301/302/303 would drop the
/// body); at most `MAX_REDIRECTS` hops.
pub fn redirect_policy(
    status: u16,
    method: &str,
    from_origin: &str,
    to_origin: &str,
    to_url: &str,
    hops: u32,
) -> Redirect {
    if hops >= MAX_REDIRECTS {
        return Redirect::Refuse(format!("more than {MAX_REDIRECTS} redirects"));
    }
    if from_origin != to_origin {
        return Redirect::Refuse(format!(
            "the server redirected to another origin ({to_url}); the client does not follow cross-origin redirects, so credentials and custom headers never leave {from_origin}"
        ));
    }
    match (status, method) {
        (307 | 308, _) | (301..=303, "GET" | "DELETE") => Redirect::Follow,
        _ => Redirect::Refuse(format!("HTTP {status} would turn the {method} into a GET; the server must use 307/308 (to {to_url})")),
    }
}

/// Redirects followed for one request at most.
pub const MAX_REDIRECTS: u32 = 5;

/// The error for a 2xx response whose content type is neither JSON nor SSE.
pub fn unexpected_content_type(kind: &str, method: &str) -> McpError {
    let shown = if kind.is_empty() {
        "no Content-Type".to_string()
    } else {
        ["Content-Type ", &crate::util::quote::quoted(kind)].concat()
    };
    McpError::protocol(
        INVALID_REQUEST,
        format!("Unexpected content type: the server answered {method} with {shown}; expected application/json or text/event-stream"),
    )
}

/// The error for a request answered with 202 Accepted (no response will ever come).
pub fn accepted_for_request(method: &str) -> McpError {
    McpError::protocol(
        INVALID_REQUEST,
        format!("The server answered request {method} with 202 Accepted and no response"),
    )
}

/// The JSON-RPC error inside a non-2xx body, if the body holds one.
pub fn jsonrpc_error_in_body(body: &str) -> Option<McpError> {
    match decode(body).ok()?.into_iter().next()? {
        Message::Error { error, .. } => Some(error),
        _ => None,
    }
}

/// The error for a non-2xx HTTP response: the JSON-RPC error it carries, else one built from
/// the status (404 on a live legacy session means the session expired).
pub fn error_for_status(
    status: u16,
    status_text: &str,
    body: &str,
    method: &str,
    has_session: bool,
) -> McpError {
    if status == 404 && has_session {
        let said = jsonrpc_error_in_body(body)
            .map(|e| format!(" (server said: {})", e.message))
            .unwrap_or_default();
        return McpError::local(
            INVALID_REQUEST,
            crate::protocol::error::ErrorKind::SessionExpired,
            format!("Session terminated: the server answered HTTP 404 for this session's {method}{said}"),
            json!({ "status": 404 }),
        );
    }
    if let Some(mut e) = jsonrpc_error_in_body(body) {
        // The status stays visible (a 400 refusal of the request itself) unless the error
        // carries data of its own.
        if e.data.is_none() {
            e.data = Some(json!({ "status": status }));
        }
        return e;
    }
    let detail = json!({ "status": status, "body": truncate(body, 500) });
    let (code, message) = match status {
        404 => (
            METHOD_NOT_FOUND,
            format!("Not Found: HTTP 404 for {method}"),
        ),
        401 => (
            INVALID_REQUEST,
            format!("Unauthorized: HTTP 401 for {method} (the server requires authorization)"),
        ),
        403 => (INVALID_REQUEST, format!("Forbidden: HTTP 403 for {method}")),
        _ => {
            let text = if status_text.is_empty() {
                String::new()
            } else {
                format!(" {status_text}")
            };
            let body_note = if body.trim().is_empty() {
                " with an empty body".to_string()
            } else {
                format!(": {}", truncate(body.trim(), 200))
            };
            (INTERNAL_ERROR, format!("Server returned an error response: HTTP {status}{text} for {method}{body_note}"))
        }
    };
    McpError::local(
        code,
        crate::protocol::error::ErrorKind::Http,
        message,
        detail,
    )
}

/// The error for a stream that ended (or broke, with `cause`) before the response to
/// `method` arrived.
pub fn stream_ended(method: &str, mid_event: bool, cause: Option<&str>) -> McpError {
    let how = if mid_event {
        "was cut in the middle of an event"
    } else {
        "ended"
    };
    McpError::local(
        CONNECTION_CLOSED,
        crate::protocol::error::ErrorKind::StreamEnded { mid_event },
        format!(
            "SSE stream {how} without a response to {method}{}",
            cause.map(|c| format!(" ({c})")).unwrap_or_default()
        ),
        Value::Null,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_stay_on_the_origin() {
        let o = "http://a.example";
        assert_eq!(
            redirect_policy(307, "POST", o, o, "http://a.example/mcp/", 0),
            Redirect::Follow
        );
        assert_eq!(
            redirect_policy(301, "GET", o, o, "http://a.example/x", 0),
            Redirect::Follow
        );
        assert!(
            matches!(redirect_policy(302, "POST", o, o, "http://a.example/x", 0), Redirect::Refuse(m) if m.contains("307/308"))
        );
        assert!(
            matches!(redirect_policy(307, "POST", o, "http://b.example", "http://b.example/mcp", 0), Redirect::Refuse(m) if m.contains("another origin"))
        );
        assert!(
            matches!(redirect_policy(307, "POST", o, o, "http://a.example/x", 5), Redirect::Refuse(m) if m.contains("more than 5"))
        );
    }

    #[test]
    fn content_types() {
        assert_eq!(
            body_kind(Some("application/json; charset=utf-8")),
            BodyKind::Json
        );
        assert_eq!(body_kind(Some("Text/Event-Stream")), BodyKind::Sse);
        assert_eq!(
            body_kind(Some("text/html")),
            BodyKind::Unexpected("text/html".into())
        );
        assert_eq!(body_kind(None), BodyKind::Unexpected(String::new()));
        assert!(unexpected_content_type("text/html", "tools/call")
            .message
            .contains("\"text/html\""));
    }

    #[test]
    fn status_errors_prefer_the_body() {
        let e = error_for_status(
            500,
            "Internal Server Error",
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"database on fire"}}"#,
            "tools/call",
            false,
        );
        assert_eq!((e.code, e.message.as_str()), (-32603, "database on fire"));
        let e = error_for_status(500, "Internal Server Error", "", "tools/call", false);
        assert_eq!(e.code, INTERNAL_ERROR);
        assert!(
            e.message.contains("HTTP 500") && e.message.contains("empty body"),
            "{}",
            e.message
        );
        assert_eq!(e.kind(), Some(crate::protocol::error::ErrorKind::Http));
        let e = error_for_status(502, "", "<html>bad gateway</html>", "tools/list", false);
        assert!(e.message.contains("bad gateway"));
        assert!(error_for_status(404, "", "", "x", true)
            .message
            .starts_with("Session terminated"));
        assert_eq!(
            error_for_status(404, "", "", "x", false).code,
            METHOD_NOT_FOUND
        );
    }
}
