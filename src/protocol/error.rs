//! `McpError`: the one error type of the crate, with the JSON-RPC/MCP error codes.

use crate::json::{json, Value};

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
/// Local: authorization (OAuth) failed or needs the user; `data.kind` says which step.
pub const AUTHORIZATION_FAILED: i64 = -32012;
/// 2026: `Mcp-*` headers disagree with the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// 2026: the request needs a client capability that was not declared.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
/// 2026: the server does not speak the requested protocol version.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// 2025-11-25: a URL-mode elicitation is required first.
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// What kind of local (client-side) failure an error is; serialized as `data.kind` at the
/// JS boundary and in JSON-RPC error objects, so JS can branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The peer could not be reached or the connection failed (`"network"`).
    Network,
    /// A response stream ended or broke before its response (`"network"`, with `midEvent`);
    /// resuming (legacy) or re-issuing (2026) may help.
    StreamEnded {
        /// The stream was cut in the middle of an event.
        mid_event: bool,
    },
    /// A browser fetch failed in a way a refused CORS preflight produces (`"cors"`).
    Cors,
    /// The request ran out of time (`"timeout"`).
    Timeout,
    /// The caller (or the client) aborted the request (`"aborted"`).
    Aborted,
    /// The client is closed or not connected (`"closed"`).
    Closed,
    /// The server answered with an HTTP status or redirect the client refuses (`"http"`).
    Http,
    /// The server broke the protocol: bad JSON, wrong shape, wrong content type (`"protocol"`).
    Protocol,
    /// The caller passed bad arguments or options (`"input"`).
    Input,
    /// A user callback returned something unusable (`"callback"`).
    Callback,
    /// A legacy session expired (HTTP 404) and is being renewed (`"session_expired"`).
    SessionExpired,
    /// Not a failure: something the client dropped or doubted, told to `messageHandler` (`"warning"`).
    Warning,
    /// A transport written in JavaScript closed (its `onclose`) while requests were in flight
    /// (`"transport_closed"`).
    TransportClosed,
    /// Not a failure: a message a transport refused (another origin or source), told to
    /// `messageHandler` (`"dropped"`).
    Dropped,
    /// The server requires authorization and none could be obtained (`"unauthorized"`).
    Unauthorized,
    /// The user must visit the authorization URL; the flow continues after the callback
    /// (`"auth_redirect"`).
    AuthRedirect,
    /// The browser blocked the sign-in popup; `data.authorizationUrl` is the page to show as a
    /// link (`"popup_blocked"`).
    PopupBlocked,
    /// The server wants scopes the client may not (or may no longer) ask for
    /// (`"insufficient_scope"`).
    InsufficientScope,
    /// Protected-resource or authorization-server metadata is missing or unusable
    /// (`"auth_metadata"`).
    AuthMetadata,
    /// An authorization endpoint could not be reached from the browser (no CORS) (`"auth_cors"`).
    AuthCors,
    /// The authorization server's `issuer` or callback `iss` is not the one expected
    /// (`"issuer_mismatch"`).
    IssuerMismatch,
    /// The protected resource metadata names a resource other than this server
    /// (`"resource_mismatch"`).
    ResourceMismatch,
    /// The authorization callback's `state` is not the pending one (`"state_mismatch"`).
    StateMismatch,
    /// Client registration was refused or is impossible (`"registration_rejected"`).
    RegistrationRejected,
    /// The token endpoint refused a request or answered something unusable (`"token_error"`).
    TokenError,
    /// A DPoP key, proof or bound token could not be made or does not match (`"dpop_error"`).
    DpopError,
    /// The `assertion` callback of a jwt_bearer grant threw or returned nothing
    /// (`"assertion_error"`).
    AssertionError,
    /// The grant is unknown, or the authorization server does not offer it
    /// (`"unsupported_grant"`).
    UnsupportedGrant,
    /// The server cancelled the task a call was waiting for (`"task_cancelled"`).
    TaskCancelled,
    /// A part of the client loaded on first use could not be fetched or instantiated
    /// (`"module_load"`, `data.part` naming it).
    ModuleLoad,
    /// A skill file failed verification against its skill entry (`"skill_verification"`, with
    /// `data.reason`: `unlisted`, `size`, `digest` or `frontmatter`).
    SkillVerification,
    /// What was asked does not exist in this session's era or server, such as an extension
    /// it did not declare (`"unsupported"`).
    Unsupported,
    /// Not a call's failure: the app's cache store threw, answered something unusable or
    /// was too slow; the call went to the server (`"cache_store"`, told to `messageHandler`,
    /// with `data.operation`).
    CacheStore,
}

impl ErrorKind {
    /// The `data.kind` string JS sees.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Network | ErrorKind::StreamEnded { .. } => "network",
            ErrorKind::Cors => "cors",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Closed => "closed",
            ErrorKind::Http => "http",
            ErrorKind::Protocol => "protocol",
            ErrorKind::Input => "input",
            ErrorKind::Callback => "callback",
            ErrorKind::SessionExpired => "session_expired",
            ErrorKind::Warning => "warning",
            ErrorKind::TransportClosed => "transport_closed",
            ErrorKind::Dropped => "dropped",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::AuthRedirect => "auth_redirect",
            ErrorKind::PopupBlocked => "popup_blocked",
            ErrorKind::InsufficientScope => "insufficient_scope",
            ErrorKind::AuthMetadata => "auth_metadata",
            ErrorKind::AuthCors => "auth_cors",
            ErrorKind::IssuerMismatch => "issuer_mismatch",
            ErrorKind::ResourceMismatch => "resource_mismatch",
            ErrorKind::StateMismatch => "state_mismatch",
            ErrorKind::RegistrationRejected => "registration_rejected",
            ErrorKind::TokenError => "token_error",
            ErrorKind::DpopError => "dpop_error",
            ErrorKind::AssertionError => "assertion_error",
            ErrorKind::UnsupportedGrant => "unsupported_grant",
            ErrorKind::TaskCancelled => "task_cancelled",
            ErrorKind::ModuleLoad => "module_load",
            ErrorKind::SkillVerification => "skill_verification",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::CacheStore => "cache_store",
        }
    }

    /// True for failures to reach the peer at all (network, CORS, a broken stream).
    pub fn is_unreachable(self) -> bool {
        matches!(
            self,
            ErrorKind::Network
                | ErrorKind::StreamEnded { .. }
                | ErrorKind::Cors
                | ErrorKind::TransportClosed
        )
    }
}

/// An MCP error: a JSON-RPC error from the server, or a local failure (then `kind` is set,
/// and JS sees `data.local === true` and `data.kind`).
///
/// One pointer wide: the parts live in a box, so every `Result<_, McpError>` and every `?`
/// moves a pointer, not the parts. `Deref`/`DerefMut` give `e.code`, `e.message = ...`.
#[derive(Clone, PartialEq)]
pub struct McpError(Box<ErrorParts>);

/// The parts of an [`McpError`], reached through its `Deref`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorParts {
    /// Numeric JSON-RPC error code.
    pub code: i64,
    /// Human-readable message.
    pub message: String,
    /// Structured detail: a server error's `data`, or a local error's extra fields.
    pub data: Option<Value>,
    /// What kind of local failure this is; `None` for errors received from the server.
    pub kind: Option<ErrorKind>,
}

impl std::ops::Deref for McpError {
    type Target = ErrorParts;
    fn deref(&self) -> &ErrorParts {
        &self.0
    }
}

impl std::ops::DerefMut for McpError {
    fn deref_mut(&mut self) -> &mut ErrorParts {
        &mut self.0
    }
}

impl From<ErrorParts> for McpError {
    fn from(parts: ErrorParts) -> Self {
        McpError(Box::new(parts))
    }
}

impl std::fmt::Debug for McpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpError")
            .field("code", &self.code)
            .field("message", &self.message)
            .field("data", &self.data)
            .field("kind", &self.kind)
            .finish()
    }
}

impl std::fmt::Display for McpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MCP error {}: {}", self.code, self.message)
    }
}

impl std::error::Error for McpError {}

impl McpError {
    /// An error with a code and message and no data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self::make(code, message.into(), None, None)
    }

    /// An error with data attached.
    pub fn with_data(code: i64, message: impl Into<String>, data: Value) -> Self {
        Self::make(code, message.into(), Some(data), None)
    }

    /// A local (client-side) failure of the given kind, with extra detail for `data`.
    pub fn local(code: i64, kind: ErrorKind, message: impl Into<String>, extra: Value) -> Self {
        Self::make_local(code, kind, message.into(), extra)
    }

    // `local`'s body, not generic over the message type.
    #[inline(never)]
    fn make_local(code: i64, kind: ErrorKind, message: String, extra: Value) -> Self {
        let data = match extra {
            Value::Object(o) if !o.is_empty() => Some(Value::Object(o)),
            _ => None,
        };
        Self::make(code, message, data, Some(kind))
    }

    // One non-generic body for every constructor: the box is allocated in one place.
    #[inline(never)]
    fn make(code: i64, message: String, data: Option<Value>, kind: Option<ErrorKind>) -> Self {
        McpError(Box::new(ErrorParts {
            code,
            message,
            data,
            kind,
        }))
    }

    /// The same error with `context` put in front of its message (`"context: message"`).
    pub fn with_context(mut self, context: impl std::fmt::Display) -> Self {
        self.message = format!("{context}: {}", self.message);
        self
    }

    /// The same error with `more` appended to its message.
    pub fn with_suffix(mut self, more: impl std::fmt::Display) -> Self {
        self.message = format!("{}{more}", self.message);
        self
    }

    /// The request did not complete within `ms` milliseconds.
    pub fn timeout(method: &str, ms: u64) -> Self {
        Self::local(
            REQUEST_TIMEOUT,
            ErrorKind::Timeout,
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
            ErrorKind::Aborted,
            message,
            json!({ "reason": reason }),
        )
    }

    /// The client is closed or not connected.
    pub fn closed(what: &str) -> Self {
        Self::local(
            CLIENT_CLOSED,
            ErrorKind::Closed,
            what.to_string(),
            Value::Null,
        )
    }

    /// The call was made before `connect()` resolved.
    pub fn not_connected() -> Self {
        Self::closed("Client is not connected: await client.connect() first")
    }

    /// The client was closed while `what` was under way.
    pub fn closed_while(what: &str) -> Self {
        Self::closed(&format!("Client was closed while {what}"))
    }

    /// The caller passed bad arguments or options (-32602, `data.kind = "input"`).
    pub fn input(message: impl Into<String>) -> Self {
        Self::local(INVALID_PARAMS, ErrorKind::Input, message, Value::Null)
    }

    /// The server broke the protocol (bad JSON, wrong shape, wrong content type...).
    pub fn protocol(code: i64, message: impl Into<String>) -> Self {
        Self::local(code, ErrorKind::Protocol, message, Value::Null)
    }

    /// Something worth telling `messageHandler` that is not a failure of any call.
    pub fn warning(message: impl Into<String>) -> Self {
        Self::local(INVALID_REQUEST, ErrorKind::Warning, message, Value::Null)
    }

    /// The parts, out of their box (to move a field out).
    pub fn into_parts(self) -> ErrorParts {
        *self.0
    }

    /// True when this error was produced by the client, not received from the server.
    pub fn is_local(&self) -> bool {
        self.kind.is_some()
    }

    /// The kind of a local error, if any.
    pub fn kind(&self) -> Option<ErrorKind> {
        self.kind
    }

    /// The `data` JS sees: a local error's detail with `local: true`, `kind` (and `midEvent`
    /// for a broken stream); a server error's `data` as received. The one serializer of kinds.
    pub fn data_json(&self) -> Option<Value> {
        let Some(kind) = self.kind else {
            return self.data.clone();
        };
        let mut data = json!({ "local": true, "kind": kind.as_str() });
        if let ErrorKind::StreamEnded { mid_event } = kind {
            data["midEvent"] = Value::Bool(mid_event);
        }
        if let (Some(obj), Some(Value::Object(more))) = (data.as_object_mut(), &self.data) {
            obj.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        Some(data)
    }

    /// The JSON-RPC `error` object for this error.
    pub fn to_error_object(&self) -> Value {
        let mut obj = json!({ "code": self.code, "message": self.message });
        if let Some(data) = self.data_json() {
            obj["data"] = data;
        }
        obj
    }

    /// Reads a JSON-RPC `error` object; anything malformed becomes a protocol error saying so.
    pub fn from_error_object(value: &Value) -> Self {
        let code = value.get("code").and_then(Value::as_i64);
        let message = value.get("message").and_then(Value::as_str);
        match (code, message) {
            (Some(code), Some(message)) => {
                Self::make(code, message.to_string(), value.get("data").cloned(), None)
            }
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
        assert_eq!(e.kind(), Some(ErrorKind::Timeout));
        assert_eq!(e.data_json().unwrap()["kind"], "timeout");
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
