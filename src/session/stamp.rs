//! Stamping outgoing messages: the 2026 `_meta` envelope and `Mcp-*` headers, or the legacy
//! session and version headers.

use super::state::{ClientConfig, SessionState};
use crate::json::{Map, Value};
use crate::protocol::header_value::encode_header_value;
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::protocol::version::Era;

/// `_meta` key: protocol version (2026).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: client capabilities (2026).
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: client info (2026).
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key: per-request log level (2026).
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key: server info on results (2026).
pub use crate::protocol::model::initialize::META_SERVER_INFO;

/// A message ready to POST: JSON body and the MCP headers it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    /// The JSON text to send.
    pub body: String,
    /// MCP headers (names in canonical case); the transport adds Accept/Content-Type.
    pub headers: Vec<(String, String)>,
    /// The W3C `traceparent` of the request's `params._meta`, if any: the span the steps of
    /// its exchange (reconnects, authorization) belong to.
    pub traceparent: Option<String>,
}

impl Outgoing {
    /// The value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The `Mcp-Name` a 2026 request needs, if any.
pub fn mcp_name(method: &str, params: Option<&Value>) -> Option<String> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
        _ => return None,
    };
    params?.get(key)?.as_str().map(str::to_string)
}

/// Adds the 2026 envelope keys to `params._meta`; a key the caller set there (a progressToken,
/// or an envelope key of its own) wins over the envelope's.
pub fn with_modern_envelope(cfg: &ClientConfig, version: &str, params: Option<Value>) -> Value {
    let mut params = match params {
        Some(Value::Object(o)) => o,
        _ => Map::new(),
    };
    let mut meta = match params.remove("_meta") {
        Some(Value::Object(o)) => o,
        _ => Map::new(),
    };
    let mut envelope = vec![
        (META_PROTOCOL_VERSION, Value::String(version.to_string())),
        (META_CLIENT_CAPABILITIES, cfg.capabilities(Era::Modern)),
        (META_CLIENT_INFO, cfg.client_info.clone()),
    ];
    if let Some(level) = &cfg.log_level {
        envelope.push((META_LOG_LEVEL, Value::String(level.clone())));
    }
    for (key, value) in envelope {
        meta.entry(key.to_string()).or_insert(value);
    }
    params.insert("_meta".into(), Value::Object(meta));
    Value::Object(params)
}

/// Headers and body of a 2026 request at `version` (also used by the discover probe).
pub fn modern_request(
    cfg: &ClientConfig,
    version: &str,
    id: RequestId,
    method: &str,
    params: Option<Value>,
) -> Outgoing {
    let params = with_modern_envelope(cfg, version, params);
    let mut headers = vec![
        ("MCP-Protocol-Version".to_string(), version.to_string()),
        ("Mcp-Method".to_string(), method.to_string()),
    ];
    if let Some(name) = mcp_name(method, Some(&params)) {
        headers.push(("Mcp-Name".to_string(), encode_header_value(&name)));
    }
    Outgoing {
        traceparent: traceparent_of(Some(&params)),
        body: Message::request(id, method, Some(params)).to_json(),
        headers,
    }
}

/// The `traceparent` in `params._meta`, if any.
pub fn traceparent_of(params: Option<&Value>) -> Option<String> {
    let text = params?.get("_meta")?.get("traceparent")?.as_str()?;
    Some(text.to_string())
}

/// Headers for any legacy message after `initialize`: session id and negotiated version.
pub fn legacy_headers(state: &SessionState) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(v) = &state.protocol_version {
        headers.push(("MCP-Protocol-Version".to_string(), v.clone()));
    }
    if let Some(s) = &state.session_id {
        headers.push(("Mcp-Session-Id".to_string(), s.clone()));
    }
    headers
}

/// Stamps a request for the negotiated era.
pub fn request(
    cfg: &ClientConfig,
    state: &SessionState,
    id: RequestId,
    method: &str,
    params: Option<Value>,
) -> Outgoing {
    match (state.era, state.protocol_version.as_deref()) {
        (Some(Era::Modern), Some(v)) => modern_request(cfg, v, id, method, params),
        _ => Outgoing {
            traceparent: traceparent_of(params.as_ref()),
            body: Message::request(id, method, params).to_json(),
            headers: legacy_headers(state),
        },
    }
}

/// Stamps any other message (notification, or a response to a server request); legacy only.
pub fn message(state: &SessionState, msg: &Message) -> Outgoing {
    Outgoing {
        body: msg.to_json(),
        headers: legacy_headers(state),
        traceparent: None,
    }
}

/// The legacy `initialize` request: no session or version header; `meta` (a trace context given
/// to `connect()`) as its `params._meta`.
pub fn initialize(
    cfg: &ClientConfig,
    id: RequestId,
    version: &str,
    meta: Option<&Value>,
) -> Outgoing {
    let mut params = crate::json::json!({
        "protocolVersion": version,
        "capabilities": cfg.capabilities(Era::Legacy),
        "clientInfo": cfg.client_info,
    });
    if let (Some(meta), Some(o)) = (meta, params.as_object_mut()) {
        o.insert("_meta".into(), meta.clone());
    }
    Outgoing {
        traceparent: traceparent_of(Some(&params)),
        body: Message::request(id, "initialize", Some(params)).to_json(),
        headers: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::json;
    use crate::protocol::capabilities::Registered;

    fn body(o: &Outgoing) -> Value {
        crate::json::from_str(&o.body).unwrap()
    }

    #[test]
    fn modern_requests_carry_envelope_and_headers() {
        let cfg = ClientConfig {
            registered: Registered {
                elicitation: true,
                ..Default::default()
            },
            log_level: Some("info".into()),
            ..Default::default()
        };
        let mut st = SessionState::new();
        st.era = Some(Era::Modern);
        st.protocol_version = Some("2026-07-28".into());
        let params = json!({"name": "weather", "arguments": {"city": "Paris"}, "_meta": {"progressToken": 7}});
        let o = request(&cfg, &st, RequestId::Num(7), "tools/call", Some(params));
        let b = body(&o);
        let meta = &b["params"]["_meta"];
        assert_eq!(meta[META_PROTOCOL_VERSION], "2026-07-28");
        assert_eq!(
            meta[META_CLIENT_CAPABILITIES],
            json!({"elicitation": {"form": {}, "url": {}}})
        );
        assert_eq!(meta[META_CLIENT_INFO]["name"], "mcp-wasm-client");
        assert_eq!(meta[META_LOG_LEVEL], "info");
        assert_eq!(meta["progressToken"], 7);
        assert_eq!(b["params"]["arguments"]["city"], "Paris");
        assert_eq!(o.header("mcp-protocol-version"), Some("2026-07-28"));
        assert_eq!(o.header("mcp-method"), Some("tools/call"));
        assert_eq!(o.header("mcp-name"), Some("weather"));
        assert_eq!(o.header("mcp-session-id"), None);
    }

    #[test]
    fn a_callers_meta_key_wins_over_the_envelopes() {
        let cfg = ClientConfig {
            declared: crate::protocol::capabilities::Declared::new(
                None,
                Some(json!({"io.example/thing": {"level": 2}})),
                false,
            )
            .unwrap(),
            ..Default::default()
        };
        let params = json!({"_meta": {META_CLIENT_INFO: {"name": "mine", "version": "9"}}});
        let b = with_modern_envelope(&cfg, "2026-07-28", Some(params));
        assert_eq!(b["_meta"][META_CLIENT_INFO]["name"], "mine");
        assert_eq!(
            b["_meta"][META_CLIENT_CAPABILITIES],
            json!({"extensions": {"io.example/thing": {"level": 2}}})
        );
        assert_eq!(b["_meta"][META_PROTOCOL_VERSION], "2026-07-28");
        let o = initialize(&cfg, RequestId::Num(1), "2025-11-25", None);
        assert_eq!(
            body(&o)["params"]["capabilities"]["extensions"]["io.example/thing"]["level"],
            2
        );
    }

    #[test]
    fn mcp_name_rules() {
        assert_eq!(
            mcp_name("resources/read", Some(&json!({"uri": "demo://x"}))).as_deref(),
            Some("demo://x")
        );
        assert_eq!(
            mcp_name("prompts/get", Some(&json!({"name": "greet"}))).as_deref(),
            Some("greet")
        );
        assert_eq!(mcp_name("tools/list", Some(&json!({"name": "x"}))), None);
        for m in ["tasks/get", "tasks/update", "tasks/cancel"] {
            assert_eq!(
                mcp_name(m, Some(&json!({"taskId": "t-1"}))).as_deref(),
                Some("t-1")
            );
        }
        assert_eq!(mcp_name("tasks/list", Some(&json!({"taskId": "t"}))), None);
        let cfg = ClientConfig::default();
        let o = modern_request(
            &cfg,
            "2026-07-28",
            RequestId::Num(1),
            "tools/call",
            Some(json!({"name": "météo"})),
        );
        assert!(o.header("mcp-name").unwrap().starts_with("=?base64?"));
        let o = modern_request(
            &cfg,
            "2026-07-28",
            RequestId::Num(1),
            "server/discover",
            None,
        );
        assert_eq!(
            body(&o)["params"]["_meta"][META_CLIENT_CAPABILITIES],
            json!({})
        );
        assert_eq!(o.header("mcp-name"), None);
    }

    #[test]
    fn legacy_requests_carry_session_and_version_only() {
        let cfg = ClientConfig {
            log_level: Some("info".into()),
            ..Default::default()
        };
        let mut st = SessionState::new();
        st.era = Some(Era::Legacy);
        st.protocol_version = Some("2025-06-18".into());
        st.session_id = Some("abc".into());
        let o = request(&cfg, &st, RequestId::Num(2), "tools/list", None);
        assert_eq!(
            body(&o),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        );
        assert_eq!(o.header("MCP-Protocol-Version"), Some("2025-06-18"));
        assert_eq!(o.header("Mcp-Session-Id"), Some("abc"));
        assert_eq!(o.header("Mcp-Method"), None);
    }

    #[test]
    fn initialize_offers_latest_legacy_with_legacy_capabilities() {
        let cfg = ClientConfig {
            registered: Registered {
                roots: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let o = initialize(&cfg, RequestId::Num(1), "2025-11-25", None);
        let b = body(&o);
        assert_eq!(b["method"], "initialize");
        assert_eq!(b["params"]["protocolVersion"], "2025-11-25");
        assert_eq!(
            b["params"]["capabilities"],
            json!({"roots": {"listChanged": true}})
        );
        assert!(o.headers.is_empty());
    }
}
