//! Era negotiation: reading the `server/discover` probe's reply, and adopting a discover or
//! initialize result. The policy of `mode: "auto"`, written here once (docs/ARCHITECTURE.md
//! links to it):
//!
//! * a result listing a modern version we speak → modern, no `initialize`;
//! * a result listing none → legacy;
//! * `-32022` naming a mutual modern version → re-probe once at it; naming only legacy
//!   versions → legacy; naming only unknown modern versions → error;
//! * 401/403 → error (authorization is not an era verdict); 5xx → error;
//! * any other 4xx, with or without a JSON-RPC error (-32020/-32021 included, as the TS SDK
//!   does: deployed servers overload them), or a 2xx that is not a discover result → legacy;
//! * a network failure → error, except in a browser, where an opaque fetch failure may be the
//!   CORS preflight of the new headers being refused: then try `initialize`, whose plainer
//!   request passes a 2025-era CORS setup;
//! * over a message transport (a `MessagePort`, stdio, an in-memory pair: no HTTP status), a
//!   JSON-RPC error reply (e.g. -32601 method not found) is read as a 2xx carrying it → legacy
//!   (unless -32022, as above), and a probe nobody answers within its time → legacy (an older
//!   server may ignore a method it does not know before `initialize`); a transport that
//!   closed or failed to send → error.

use crate::json::{json, Map, Value};
use crate::protocol::error::{McpError, INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION};
use crate::protocol::jsonrpc::Message;
use crate::protocol::model::initialize::{
    supported_strings, DiscoverResult, InitializeResult, UnsupportedVersionData,
};
use crate::protocol::model::{view, Field};
use crate::protocol::version::{best_mutual_modern, is_legacy, KNOWN_VERSIONS};

/// What to do after the probe.
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeVerdict {
    /// Speak this modern version; the discover result is attached.
    Modern {
        /// The adopted version.
        version: &'static str,
        /// The `server/discover` result.
        discover: Value,
    },
    /// Probe once more at this version.
    Reprobe(&'static str),
    /// Fall back to `initialize`; the reason is for logs.
    Legacy(String),
    /// Give up with this error.
    Fail(McpError),
}

/// Classifies the HTTP reply to the probe: its status and the JSON-RPC message in its body.
pub fn classify_probe_reply(
    status: u16,
    message: Option<&Message>,
    already_reprobed: bool,
) -> ProbeVerdict {
    if let Some(Message::Error { error, .. }) = message {
        if error.code == UNSUPPORTED_PROTOCOL_VERSION {
            let data = error.data.as_ref().and_then(view::<UnsupportedVersionData>);
            let supported = data.map_or_else(Vec::new, |d| supported_strings(&d.supported));
            if let Some(v) = best_mutual_modern(supported.iter().map(String::as_str)) {
                return if already_reprobed {
                    ProbeVerdict::Fail(McpError::with_data(
                        UNSUPPORTED_PROTOCOL_VERSION,
                        format!("The server refused protocol version {v} although it lists it as supported"),
                        json!({ "supported": supported }),
                    ))
                } else {
                    ProbeVerdict::Reprobe(v)
                };
            }
            if supported.iter().any(|v| is_legacy(v)) {
                return ProbeVerdict::Legacy(
                    "server/discover: -32022 naming handshake-era versions".into(),
                );
            }
            return ProbeVerdict::Fail(McpError::with_data(
                UNSUPPORTED_PROTOCOL_VERSION,
                format!(
                    "No protocol version in common: the server supports {}, this client {}",
                    crate::util::quote::quoted_list(
                        &supported.iter().map(String::as_str).collect::<Vec<_>>()
                    ),
                    crate::util::quote::quoted_list(&KNOWN_VERSIONS)
                ),
                json!({ "supported": supported, "requested": "2026-07-28" }),
            ));
        }
    }
    match status {
        401 | 403 => {
            let mut e = match message {
                Some(Message::Error { error, .. }) => error.clone(),
                _ => McpError::new(INVALID_REQUEST, String::new()),
            };
            e.message = format!("Authorization required: the server answered HTTP {status} to server/discover{}", if e.message.is_empty() { String::new() } else { format!(" ({})", e.message) });
            e.kind = Some(crate::protocol::error::ErrorKind::Http);
            e.data = Some(json!({ "status": status }));
            ProbeVerdict::Fail(e)
        }
        500..=599 => ProbeVerdict::Fail(McpError::local(
            crate::protocol::error::INTERNAL_ERROR,
            crate::protocol::error::ErrorKind::Http,
            format!("The server failed with HTTP {status} while probing its protocol era (server/discover)"),
            json!({ "status": status }),
        )),
        200..=299 => match message {
            Some(Message::Result { result, .. }) => {
                let supported = DiscoverResult::read(result).map_or_else(Vec::new, |d| d.versions());
                match best_mutual_modern(supported.iter().map(String::as_str)) {
                    Some(version) => ProbeVerdict::Modern { version, discover: result.clone() },
                    None => ProbeVerdict::Legacy(format!("server/discover lists no modern version we speak ({})", crate::util::quote::quoted_list(&supported.iter().map(String::as_str).collect::<Vec<_>>()))),
                }
            }
            Some(Message::Error { error, .. }) => ProbeVerdict::Legacy(format!("server/discover answered error {}", error.code)),
            _ => ProbeVerdict::Legacy("server/discover got no JSON-RPC response".into()),
        },
        400..=499 => ProbeVerdict::Legacy(format!("server/discover answered HTTP {status}")),
        _ => ProbeVerdict::Fail(McpError::local(
            INVALID_REQUEST,
            crate::protocol::error::ErrorKind::Http,
            format!("Unexpected HTTP {status} to server/discover"),
            json!({ "status": status }),
        )),
    }
}

/// Classifies a probe that failed before any HTTP status (fetch rejected).
pub fn classify_probe_network_error(error: McpError, in_browser: bool) -> ProbeVerdict {
    if in_browser
        && error.kind() != Some(crate::protocol::error::ErrorKind::Timeout)
        && error.kind() != Some(crate::protocol::error::ErrorKind::Aborted)
    {
        ProbeVerdict::Legacy(
            "server/discover failed in the browser (a refused CORS preflight looks like this)"
                .into(),
        )
    } else {
        ProbeVerdict::Fail(error)
    }
}

/// Classifies a probe over a message transport that ended without any reply: a timeout means
/// an older server ignored the unknown method (legacy); anything else (the transport closed,
/// `send` failed, the caller aborted) is an error.
pub fn classify_probe_unanswered(error: McpError) -> ProbeVerdict {
    if error.kind() == Some(crate::protocol::error::ErrorKind::Timeout) {
        ProbeVerdict::Legacy(format!(
            "server/discover got no reply over a message transport ({})",
            error.message
        ))
    } else {
        ProbeVerdict::Fail(error)
    }
}

/// True when a refused `initialize` POST points at the deprecated HTTP+SSE transport: 400, 404
/// or 405 without a result and without a modern error body (spec: Backward Compatibility).
pub fn suggests_http_sse(status: u16, message: Option<&Message>) -> bool {
    let modern_error = matches!(message, Some(Message::Error { error, .. }) if (-32022..=-32020).contains(&error.code));
    matches!(status, 400 | 404 | 405)
        && !matches!(message, Some(Message::Result { .. }))
        && !modern_error
}

/// Server identity, capabilities and instructions read from a connect result.
#[derive(Debug, Clone, PartialEq)]
pub struct Adopted {
    /// The negotiated protocol version.
    pub version: String,
    /// `serverInfo`, if given.
    pub server_info: Option<Value>,
    /// Server capabilities (`{}` when absent).
    pub capabilities: Value,
    /// Instructions, if given.
    pub instructions: Option<String>,
}

/// The capabilities as sent, `{}` when absent or not an object.
fn capabilities(c: Field<Map<String, Value>>) -> Value {
    Value::Object(c.into_ok().unwrap_or_default())
}

/// Reads a `server/discover` result adopted at `version`.
pub fn adopt_discover(version: &str, result: &Value) -> Adopted {
    let d = DiscoverResult::read(result).unwrap_or_default();
    Adopted {
        version: version.to_string(),
        server_info: d.server_info().map(|i| Value::Object(i.raw.clone())),
        capabilities: capabilities(d.capabilities),
        instructions: d.instructions.into_ok(),
    }
}

/// The version a stored `server/discover` result (the `discoverResult` option) is adopted at:
/// the newest modern revision its `supportedVersions` shares with this client; an error
/// naming what is wrong when it lists none or is not a discover result.
pub fn stored_discover_version(result: &Value) -> Result<String, String> {
    let d = DiscoverResult::read(result).unwrap_or_default();
    if !matches!(d.supported_versions, Field::Is(_)) {
        return Err("discoverResult must be a server/discover result (an object with supportedVersions, as client.discoverResult gives it)".into());
    }
    if d.capabilities.is_present() && d.capabilities.ok().is_none() {
        return Err("discoverResult.capabilities must be an object".into());
    }
    let supported = d.versions();
    best_mutual_modern(supported.iter().map(String::as_str))
        .map(str::to_string)
        .ok_or_else(|| {
            format!(
                "discoverResult lists no protocol version this client speaks ({}; this client: {})",
                crate::util::quote::quoted_list(
                    &supported.iter().map(String::as_str).collect::<Vec<_>>()
                ),
                crate::util::quote::quoted_list(&KNOWN_VERSIONS)
            )
        })
}

/// Reads an `initialize` result; a version this client does not speak is an error.
pub fn adopt_initialize(result: &Value) -> Result<Adopted, McpError> {
    let r = InitializeResult::read(result).unwrap_or_default();
    let version = r.protocol_version.ok().map_or("", String::as_str);
    if !is_legacy(version) {
        return Err(McpError::with_data(
            UNSUPPORTED_PROTOCOL_VERSION,
            format!("The server answered initialize with protocol version {}, which this client does not speak", crate::util::quote::quoted(version)),
            json!({ "supported": KNOWN_VERSIONS, "requested": version }),
        ));
    }
    Ok(Adopted {
        version: version.to_string(),
        server_info: r.server_info.into_ok().map(|i| Value::Object(i.raw)),
        capabilities: capabilities(r.capabilities),
        instructions: r.instructions.into_ok(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::jsonrpc::RequestId;
    use crate::protocol::model::initialize::META_SERVER_INFO;

    fn err(code: i64, data: Value) -> Message {
        Message::Error {
            id: Some(RequestId::Num(1)),
            error: McpError::with_data(code, "x", data),
        }
    }

    #[test]
    fn an_unanswered_probe_over_a_message_transport_means_legacy_other_failures_fail() {
        let timeout = McpError::timeout("server/discover", 10);
        assert!(matches!(
            classify_probe_unanswered(timeout),
            ProbeVerdict::Legacy(_)
        ));
        let closed = McpError::local(
            crate::protocol::error::CONNECTION_CLOSED,
            crate::protocol::error::ErrorKind::TransportClosed,
            "closed",
            Value::Null,
        );
        assert!(matches!(
            classify_probe_unanswered(closed),
            ProbeVerdict::Fail(_)
        ));
        // A JSON-RPC error reply without a status reads as a 2xx carrying it: legacy.
        let reply = err(-32601, Value::Null);
        assert!(matches!(
            classify_probe_reply(200, Some(&reply), false),
            ProbeVerdict::Legacy(_)
        ));
    }

    #[test]
    fn modern_result_is_adopted() {
        let r = json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "_meta": {META_SERVER_INFO: {"name": "srv", "version": "1"}}});
        let m = Message::Result {
            id: RequestId::Num(1),
            result: r.clone(),
        };
        assert_eq!(
            classify_probe_reply(200, Some(&m), false),
            ProbeVerdict::Modern {
                version: "2026-07-28",
                discover: r.clone()
            }
        );
        let a = adopt_discover("2026-07-28", &r);
        assert_eq!(a.server_info.unwrap()["name"], "srv");
        assert_eq!(a.capabilities, json!({"tools": {}}));
    }

    #[test]
    fn result_without_modern_versions_is_legacy() {
        let m = Message::Result {
            id: RequestId::Num(1),
            result: json!({"supportedVersions": ["2025-11-25"]}),
        };
        assert!(matches!(
            classify_probe_reply(200, Some(&m), false),
            ProbeVerdict::Legacy(_)
        ));
    }

    #[test]
    fn unsupported_version_reprobes_once_or_falls_back() {
        let m = err(
            -32022,
            json!({"supported": ["2026-07-28", "2030-01-01"], "requested": "x"}),
        );
        assert_eq!(
            classify_probe_reply(400, Some(&m), false),
            ProbeVerdict::Reprobe("2026-07-28")
        );
        assert!(matches!(
            classify_probe_reply(400, Some(&m), true),
            ProbeVerdict::Fail(_)
        ));
        let m = err(-32022, json!({"supported": ["2025-06-18"]}));
        assert!(matches!(
            classify_probe_reply(400, Some(&m), false),
            ProbeVerdict::Legacy(_)
        ));
        let m = err(-32022, json!({"supported": ["2031-01-01"]}));
        match classify_probe_reply(400, Some(&m), false) {
            ProbeVerdict::Fail(e) => assert!(e.message.contains("No protocol version in common")),
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn legacy_signals() {
        // TS SDK 1.x: 400 with -32000 "No valid session ID provided".
        let m = err(-32000, Value::Null);
        assert!(matches!(
            classify_probe_reply(400, Some(&m), false),
            ProbeVerdict::Legacy(_)
        ));
        assert!(matches!(
            classify_probe_reply(400, None, false),
            ProbeVerdict::Legacy(_)
        ));
        assert!(matches!(
            classify_probe_reply(404, None, false),
            ProbeVerdict::Legacy(_)
        ));
        assert!(matches!(
            classify_probe_reply(405, None, false),
            ProbeVerdict::Legacy(_)
        ));
        assert!(matches!(
            classify_probe_reply(400, Some(&err(-32021, Value::Null)), false),
            ProbeVerdict::Legacy(_)
        ));
        assert!(matches!(
            classify_probe_reply(200, Some(&err(-32601, Value::Null)), false),
            ProbeVerdict::Legacy(_)
        ));
    }

    #[test]
    fn errors_that_are_not_era_verdicts() {
        match classify_probe_reply(401, None, false) {
            ProbeVerdict::Fail(e) => assert!(e.message.contains("HTTP 401")),
            v => panic!("{v:?}"),
        }
        assert!(matches!(
            classify_probe_reply(503, None, false),
            ProbeVerdict::Fail(_)
        ));
        let net = McpError::local(
            -32000,
            crate::protocol::error::ErrorKind::Network,
            "fetch failed",
            Value::Null,
        );
        assert!(matches!(
            classify_probe_network_error(net.clone(), false),
            ProbeVerdict::Fail(_)
        ));
        assert!(matches!(
            classify_probe_network_error(net, true),
            ProbeVerdict::Legacy(_)
        ));
        assert!(matches!(
            classify_probe_network_error(McpError::timeout("server/discover", 10), true),
            ProbeVerdict::Fail(_)
        ));
    }

    #[test]
    fn http_sse_fallback_signals() {
        assert!(suggests_http_sse(405, None));
        assert!(suggests_http_sse(404, None));
        assert!(suggests_http_sse(400, Some(&err(-32000, Value::Null))));
        assert!(!suggests_http_sse(400, Some(&err(-32022, Value::Null))));
        assert!(!suggests_http_sse(500, None));
        assert!(!suggests_http_sse(
            200,
            Some(&Message::Result {
                id: RequestId::Num(1),
                result: json!({})
            })
        ));
    }

    #[test]
    fn initialize_results() {
        let a = adopt_initialize(&json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "s", "version": "1"}, "instructions": "hi"})).unwrap();
        assert_eq!(a.version, "2025-06-18");
        assert_eq!(a.instructions.as_deref(), Some("hi"));
        let e = adopt_initialize(&json!({"protocolVersion": "1999-01-01"})).unwrap_err();
        assert!(e.message.contains("1999-01-01"));
    }

    #[test]
    fn a_stored_discover_result_is_adopted_at_a_mutual_version() {
        let stored = json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}});
        assert_eq!(stored_discover_version(&stored).unwrap(), "2026-07-28");
        assert!(stored_discover_version(&json!({"capabilities": {}}))
            .unwrap_err()
            .contains("supportedVersions"));
        assert!(
            stored_discover_version(&json!({"supportedVersions": ["2025-11-25"]}))
                .unwrap_err()
                .contains("no protocol version this client speaks")
        );
        assert!(stored_discover_version(
            &json!({"supportedVersions": ["2026-07-28"], "capabilities": []})
        )
        .unwrap_err()
        .contains("capabilities must be an object"));
    }
}
