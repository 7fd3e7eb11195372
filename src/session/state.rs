//! Session state: the negotiated era/version, the legacy session id, server identity, ids.

use crate::json::{json, Value};
use crate::protocol::capabilities::{Declared, Registered};
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::version::{Era, Mode};

/// What the user configured; fixed for the life of a client.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// `clientInfo` (`Implementation`).
    pub client_info: Value,
    /// Which callbacks are registered (declares capabilities).
    pub registered: Registered,
    /// What the caller declares beyond the callbacks (`capabilities`, `extensions`, `apps`).
    pub declared: Declared,
    /// A stored `server/discover` result to adopt instead of probing (`discoverResult`).
    pub stored_discover: Option<Value>,
    /// Modern era: `io.modelcontextprotocol/logLevel` stamped on every request.
    pub log_level: Option<String>,
    /// The `mode` option.
    pub mode: Mode,
    /// Refetch a list after its `list_changed` (`listChanged: { autoRefresh }`, default true).
    pub refresh_lists: bool,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            client_info: json!({ "name": "mcp-wasm-client", "version": env!("CARGO_PKG_VERSION") }),
            registered: Registered::default(),
            declared: Declared::default(),
            stored_discover: None,
            log_level: None,
            mode: Mode::Auto,
            refresh_lists: true,
        }
    }
}

impl ClientConfig {
    /// The `ClientCapabilities` to declare in `era`: the callbacks' and the caller's.
    pub fn capabilities(&self, era: Era) -> Value {
        self.declared.merged_into(self.registered.capabilities(era))
    }
}

/// What the session knows after (and while) connecting.
#[derive(Debug, Clone, Default)]
pub struct SessionState {
    /// Negotiated era; `None` before connect.
    pub era: Option<Era>,
    /// Negotiated protocol version string.
    pub protocol_version: Option<String>,
    /// Legacy `Mcp-Session-Id`, if the server issued one.
    pub session_id: Option<String>,
    /// `serverInfo` (legacy `initialize`) or the discover `_meta` stamp (modern).
    pub server_info: Option<Value>,
    /// Server capabilities.
    pub server_capabilities: Option<Value>,
    /// Server instructions.
    pub instructions: Option<String>,
    /// The full `server/discover` result, when one was received.
    pub discover_result: Option<Value>,
    /// The discover result was adopted from the `discoverResult` option, not probed.
    pub discover_stored: bool,
    /// The server refused the stored discover result: connect probes from now on.
    pub stored_refused: bool,
    /// True after `close()`.
    pub closed: bool,
    next_id: i64,
}

impl SessionState {
    /// A fresh, unconnected state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Mints the next request id (integers from 1; unique among in-flight requests).
    pub fn next_id(&mut self) -> RequestId {
        self.next_id += 1;
        RequestId::Num(self.next_id)
    }

    /// True once an era has been negotiated and the client is not closed.
    pub fn is_connected(&self) -> bool {
        self.era.is_some() && !self.closed
    }

    /// Forgets the negotiated connection (on close, or before re-initializing).
    pub fn reset(&mut self) {
        self.era = None;
        self.protocol_version = None;
        self.session_id = None;
        self.discover_stored = false;
    }
}
