//! Connecting: the era probe (`server/discover`), `initialize` with the fallback to an older
//! transport, and renewing an expired legacy session (these two reached through the legacy-era
//! part, `parts::legacy`). The verdicts are `session::negotiate`'s (its module doc is the
//! era-negotiation policy).

use super::core::Engine;
use super::request::RequestOptions;
use super::transport::FirstReply;
use crate::json::{json, Value};
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::protocol::version::{Era, Mode, LATEST_LEGACY, LATEST_MODERN};
use crate::session::lists::Phase;
use crate::session::negotiate::{
    adopt_discover, adopt_initialize, classify_probe_network_error, classify_probe_reply,
    classify_probe_unanswered, stored_discover_version, suggests_http_sse, Adopted, ProbeVerdict,
};
use crate::session::stamp::{self, Outgoing};
use crate::session::SessionState;
use crate::transport::http::error_for_status;

/// How long the `server/discover` probe may take at most.
const PROBE_TIMEOUT_MS: u64 = 10_000;

fn adopt(st: &mut SessionState, era: Era, a: Adopted) {
    st.era = Some(era);
    st.protocol_version = Some(a.version);
    st.server_info = a.server_info;
    st.server_capabilities = Some(a.capabilities);
    st.instructions = a.instructions;
}

impl Engine {
    /// Connects according to `mode`; a no-op when already connected.
    pub async fn connect(&self) -> Result<(), McpError> {
        self.connect_with(None).await
    }

    /// [`Engine::connect`] with `meta` (the caller's trace context, `traceparent`) in the
    /// handshake request's `params._meta` (`server/discover`, `initialize`), as on every later
    /// request.
    pub async fn connect_with(&self, meta: Option<Value>) -> Result<(), McpError> {
        {
            let st = self.state.borrow();
            if st.closed {
                return Err(McpError::closed(
                    "Client is closed: create a new Client to reconnect",
                ));
            }
            if st.era.is_some() {
                return Ok(());
            }
        }
        if self.connecting.replace(true) {
            return Err(McpError::closed("connect() is already in progress"));
        }
        self.set_phase(Phase::Connecting, None);
        let result = match self.cfg.mode.clone() {
            Mode::Pinned(v) => {
                let mut st = self.state.borrow_mut();
                st.era = Some(Era::Modern);
                st.protocol_version = Some(v.to_string());
                st.server_capabilities = Some(json!({}));
                Ok(())
            }
            Mode::Legacy => self.initialize_legacy(meta.as_ref()).await,
            Mode::Auto => self.negotiate_auto(meta.as_ref()).await,
        };
        self.connecting.set(false);
        match &result {
            Ok(()) => self.set_phase(Phase::Connected, None),
            Err(e) => self.set_phase(Phase::Failed, Some(e)),
        }
        result
    }

    async fn negotiate_auto(&self, meta: Option<&Value>) -> Result<(), McpError> {
        if self.adopt_stored_discover() {
            return Ok(());
        }
        let mut version = LATEST_MODERN;
        let mut reprobed = false;
        loop {
            let id = self.state.borrow_mut().next_id();
            let params = meta.map(|m| json!({ "_meta": m }));
            let out =
                stamp::modern_request(&self.cfg, version, id.clone(), "server/discover", params);
            let what = "connect (server/discover probe)";
            let timeout = PROBE_TIMEOUT_MS.min(self.limits.timeout_ms);
            let verdict = match self.first_reply(&id, &out, what, timeout).await {
                Ok(r) => classify_probe_reply(r.status, r.message.as_ref(), reprobed),
                Err(e) if self.transport().message_based() => classify_probe_unanswered(e),
                Err(e) if e.kind().is_some_and(|k| k.is_unreachable()) => {
                    classify_probe_network_error(e, self.transport().in_browser())
                }
                Err(e) => ProbeVerdict::Fail(e),
            };
            match verdict {
                ProbeVerdict::Modern { version, discover } => {
                    let adopted = adopt_discover(version, &discover);
                    let mut st = self.state.borrow_mut();
                    adopt(&mut st, Era::Modern, adopted);
                    st.discover_result = Some(discover);
                    return Ok(());
                }
                ProbeVerdict::Reprobe(v) => {
                    version = v;
                    reprobed = true;
                }
                ProbeVerdict::Legacy(_) => return self.initialize_legacy(meta).await,
                ProbeVerdict::Fail(e) => return Err(e),
            }
        }
    }

    /// Adopts the `discoverResult` option without a probe, unless the server refused it once;
    /// true when adopted.
    fn adopt_stored_discover(&self) -> bool {
        let Some(stored) = &self.cfg.stored_discover else {
            return false;
        };
        let mut st = self.state.borrow_mut();
        if st.stored_refused {
            return false;
        }
        let Ok(version) = stored_discover_version(stored) else {
            return false;
        };
        adopt(&mut st, Era::Modern, adopt_discover(&version, stored));
        st.discover_result = Some(stored.clone());
        st.discover_stored = true;
        true
    }

    /// The server refused the session adopted from `discoverResult`: forget it and probe.
    pub(super) async fn reprobe(&self, why: &McpError) -> Result<(), McpError> {
        while self.connecting.get() {
            self.host.sleep(20).await;
        }
        {
            let mut st = self.state.borrow_mut();
            if !st.discover_stored {
                // A concurrent call re-probed already.
                return Ok(());
            }
            st.reset();
            st.stored_refused = true;
        }
        self.surface_error(McpError::warning(format!(
            "The server refused the stored discoverResult ({}): probing it again with server/discover",
            why.message
        )));
        self.connect_with(None).await
    }

    /// Sends a handshake request and returns its first reply whatever the status: through the
    /// transport's own handshake path, or (transports without statuses) as a plain exchange.
    async fn first_reply(
        &self,
        id: &RequestId,
        out: &Outgoing,
        what: &str,
        timeout_ms: u64,
    ) -> Result<FirstReply, McpError> {
        let transport = self.transport();
        if let Some(reply) = transport.first_reply(out, what, self.inbox()) {
            return self.within(timeout_ms, what, reply).await;
        }
        let opts = RequestOptions::with_timeout(timeout_ms);
        let message = match self.exchange(id, out, what, &opts, None).await {
            Ok(result) => Message::Result {
                id: id.clone(),
                result,
            },
            Err(e) if !e.is_local() => Message::Error {
                id: Some(id.clone()),
                error: e,
            },
            Err(e) => return Err(e),
        };
        Ok(FirstReply {
            status: 200,
            session_id: None,
            message: Some(message),
        })
    }

    /// The legacy handshake, through the legacy-era part (loaded now: a session of the 2026 era
    /// never needs it).
    async fn initialize_legacy(&self, meta: Option<&Value>) -> Result<(), McpError> {
        let legacy = crate::parts::legacy::get().await?;
        legacy.initialize(self, meta).await
    }

    /// A new legacy session after the server answered 404 for `expired`, through the legacy-era
    /// part (loaded by the handshake that made the session).
    pub(super) async fn renew_legacy(
        &self,
        expired: Option<String>,
        why: &McpError,
    ) -> Result<(), McpError> {
        let legacy = crate::parts::legacy::get().await?;
        legacy.reinitialize(self, expired, why).await
    }

    /// `initialize` (`meta` in its `params._meta`), then `notifications/initialized`; once over
    /// the older transport when the server refused it the way an HTTP+SSE server does (there
    /// responses arrive on its stream).
    pub(crate) async fn initialize(&self, meta: Option<&Value>) -> Result<(), McpError> {
        let mut fell_back = false;
        let reply = loop {
            let id = self.state.borrow_mut().next_id();
            let out = stamp::initialize(&self.cfg, id.clone(), LATEST_LEGACY, meta);
            let reply = self
                .first_reply(&id, &out, "initialize", self.limits.timeout_ms)
                .await?;
            if !fell_back && suggests_http_sse(reply.status, reply.message.as_ref()) {
                if let Some(opening) = self.transport().fallback(self.inbox()) {
                    match opening.await {
                        Ok(older) => {
                            *self.transport.borrow_mut() = older;
                            fell_back = true;
                            continue;
                        }
                        Err(e) => self.surface_error(e),
                    }
                }
            }
            break reply;
        };
        let adopted = match reply.message {
            Some(Message::Result { result, .. }) if (200..300).contains(&reply.status) => {
                adopt_initialize(&result)?
            }
            Some(Message::Error { error, .. }) => return Err(error),
            _ => return Err(error_for_status(reply.status, "", "", "initialize", false)),
        };
        {
            let mut st = self.state.borrow_mut();
            adopt(&mut st, Era::Legacy, adopted);
            st.session_id = reply.session_id;
        }
        if let Err(e) = self.notify("notifications/initialized", None).await {
            if !fell_back {
                self.state.borrow_mut().reset();
            }
            return Err(e);
        }
        let headers = {
            let st = self.state.borrow();
            st.session_id.is_some().then(|| stamp::legacy_headers(&st))
        };
        if let Some(headers) = headers {
            self.transport().listen(headers, self.inbox());
        }
        Ok(())
    }

    /// Starts a new legacy session after the server answered 404 for `expired` (unless a
    /// concurrent call already did), and tells `messageHandler`.
    pub(crate) async fn reinitialize(
        &self,
        expired: Option<String>,
        why: &McpError,
    ) -> Result<(), McpError> {
        while self.connecting.get() {
            self.host.sleep(20).await;
        }
        if self.state.borrow().session_id != expired {
            return Ok(());
        }
        self.transport().stop_listening();
        self.state.borrow_mut().reset();
        self.surface_error(McpError::local(
            crate::protocol::error::INVALID_REQUEST,
            crate::protocol::error::ErrorKind::SessionExpired,
            format!("{} — starting a new session and retrying once", why.message),
            json!({ "expiredSessionId": expired }),
        ));
        self.connecting.set(true);
        let r = self.initialize(None).await;
        self.connecting.set(false);
        if let Err(e) = &r {
            self.gone(e);
        }
        r
    }
}
