//! Drives a session over fetch: connect (probe/initialize), request/response exchanges with
//! timeout and abort, reading JSON and SSE bodies, dispatching what the server sends.
//! Protocol decisions are delegated to `session::*`; this file only sequences I/O.

use crate::js::abort::{sleep, within, AbortOnDrop, AbortWait};
use crate::js::callbacks::{self, Callbacks};
use crate::js::http::{byte_stream, read_text, Head, Http};
use crate::js::{error as jserr, interop};
use crate::protocol::error::{McpError, INVALID_REQUEST};
use crate::protocol::jsonrpc::{decode, Message, RequestId};
use crate::protocol::version::{Era, Mode, LATEST_LEGACY, LATEST_MODERN};
use crate::session::cache::{key_of, ResponseCache};
use crate::session::inflight::InFlight;
use crate::session::mrtr;
use crate::session::negotiate::{
    adopt_discover, adopt_initialize, classify_probe_network_error, classify_probe_reply,
    suggests_http_sse, Adopted, ProbeVerdict,
};
use crate::session::reconnect::{self, Reconnect};
use crate::session::results::{result_kind, ResultKind};
use crate::session::stamp::{self, Outgoing};
use crate::session::tools::ToolRegistry;
use crate::session::{ClientConfig, SessionState};
use crate::transport::http::{
    accepted_for_request, body_kind, error_for_status, stream_ended, unexpected_content_type,
    BodyKind,
};
use crate::transport::sse::SseParser;
use futures::{future, pin_mut, select, FutureExt, StreamExt};
use gloo_net::http::Method;
use js_sys::Function;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::spawn_local;
use web_sys::{AbortController, AbortSignal};

/// How long the `server/discover` probe may take at most.
const PROBE_TIMEOUT_MS: u64 = 10_000;
/// Largest error body read from a non-2xx response.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// JS functions that receive what the server tells.
#[derive(Default)]
pub struct Handlers {
    /// Every surfaced notification and transport error.
    pub message_handler: Option<Function>,
    /// `notifications/message` params.
    pub logging_callback: Option<Function>,
}

/// Everything a client owns; shared by every in-flight call.
pub struct Inner {
    /// Fixed configuration.
    pub cfg: ClientConfig,
    /// The HTTP transport.
    pub http: Http,
    /// Negotiated session state.
    pub state: RefCell<SessionState>,
    /// Requests waiting for a response.
    pub inflight: RefCell<InFlight>,
    /// Default per-request timeout.
    pub timeout_ms: u64,
    /// Cap on one buffered message.
    pub max_message_bytes: usize,
    /// Notification receivers.
    pub handlers: Handlers,
    /// Server-request answerers.
    pub callbacks: Callbacks,
    /// Cap on 2026 `input_required` rounds per call.
    pub max_rounds: u32,
    /// Abort controllers of open exchanges, aborted on close.
    active: RefCell<HashMap<RequestId, AbortController>>,
    /// Legacy server requests being answered: their id → (the call whose stream carried them,
    /// the controller behind the callback's `context.signal`).
    server_requests: RefCell<HashMap<RequestId, (Option<RequestId>, AbortController)>>,
    /// The legacy GET stream's controller.
    get_stream: RefCell<Option<AbortController>>,
    /// Callbacks in progress (request timers do not run meanwhile).
    callbacks_pending: Rc<Cell<u32>>,
    /// Tools seen in listings (2026 `Mcp-Param-*` headers, output schemas).
    pub tools: RefCell<ToolRegistry>,
    /// 2026 list-result cache (`None` when the `cache` option is false).
    cache: Option<RefCell<ResponseCache>>,
    /// Legacy `listen()` subscriptions fed from the GET stream.
    pub listeners: RefCell<Vec<std::rc::Weak<crate::js::listen::ListenState>>>,
    /// Counter for `listen-N` request ids.
    pub next_listen: Cell<u64>,
    /// Calls waiting for progress, by `progressToken`.
    progress: RefCell<HashMap<String, ProgressSlot>>,
    next_progress_token: Cell<u64>,
    connecting: Cell<bool>,
}

/// Limits of one client.
pub struct Limits {
    /// Default per-request timeout.
    pub timeout_ms: u64,
    /// Cap on one buffered message.
    pub max_message_bytes: usize,
    /// Cap on `input_required` rounds.
    pub max_rounds: u32,
    /// Cache 2026 list results per `ttlMs`.
    pub cache: bool,
}

/// Shared handle to a client's state.
pub type Shared = Rc<Inner>;

impl Inner {
    /// Builds the shared state.
    pub fn new(
        cfg: ClientConfig,
        http: Http,
        limits: Limits,
        handlers: Handlers,
        callbacks: Callbacks,
    ) -> Shared {
        Rc::new(Inner {
            cfg,
            http,
            state: RefCell::new(SessionState::new()),
            inflight: RefCell::new(InFlight::new()),
            timeout_ms: limits.timeout_ms,
            max_message_bytes: limits.max_message_bytes,
            max_rounds: limits.max_rounds,
            handlers,
            callbacks,
            active: RefCell::new(HashMap::new()),
            server_requests: RefCell::new(HashMap::new()),
            get_stream: RefCell::new(None),
            callbacks_pending: Rc::new(Cell::new(0)),
            progress: RefCell::new(HashMap::new()),
            listeners: RefCell::new(Vec::new()),
            next_listen: Cell::new(0),
            tools: RefCell::new(ToolRegistry::with_pattern_matcher(
                crate::js::interop::regex_test,
            )),
            cache: limits.cache.then(|| RefCell::new(ResponseCache::new())),
            next_progress_token: Cell::new(0),
            connecting: Cell::new(false),
        })
    }

    fn era(&self) -> Option<Era> {
        self.state.borrow().era
    }
}

/// Per-call settings.
#[derive(Clone)]
pub struct Call {
    /// Timeout for this call (restarted by progress when `reset_timeout_on_progress`).
    pub timeout_ms: u64,
    /// Caller's abort signal.
    pub signal: Option<AbortSignal>,
    /// Receives this call's `notifications/progress` params.
    pub on_progress: Option<Function>,
    /// Progress restarts the timeout.
    pub reset_timeout_on_progress: bool,
    /// Hard cap on the whole call.
    pub max_total_timeout_ms: Option<u64>,
    /// Bumped on each progress notification of this call (set by `request`).
    pub progress_bump: Option<Rc<Cell<u64>>>,
}

impl Call {
    /// A call with only a timeout (internal requests).
    pub fn plain(timeout_ms: u64) -> Call {
        Call {
            timeout_ms,
            signal: None,
            on_progress: None,
            reset_timeout_on_progress: true,
            max_total_timeout_ms: None,
            progress_bump: None,
        }
    }
}

/// A call's progress receiver, registered under its `progressToken`.
struct ProgressSlot {
    on_progress: Function,
    bump: Rc<Cell<u64>>,
}

/// Removes a progress registration when the call settles.
struct ProgressGuard {
    inner: Shared,
    token: String,
}

impl Drop for ProgressGuard {
    fn drop(&mut self) {
        self.inner.progress.borrow_mut().remove(&self.token);
    }
}

fn new_controller() -> Result<AbortController, McpError> {
    AbortController::new().map_err(|e| {
        McpError::local(
            INVALID_REQUEST,
            crate::protocol::error::ErrorKind::Network,
            format!(
                "AbortController unavailable: {}",
                crate::js::http::error_text(&e)
            ),
            Value::Null,
        )
    })
}

// ---------------------------------------------------------------- connect

/// Connects according to `mode`; a no-op when already connected.
pub async fn connect(inner: &Shared) -> Result<(), McpError> {
    {
        let st = inner.state.borrow();
        if st.closed {
            return Err(McpError::closed(
                "Client is closed: create a new Client to reconnect",
            ));
        }
        if st.era.is_some() {
            return Ok(());
        }
    }
    if inner.connecting.replace(true) {
        return Err(McpError::closed("connect() is already in progress"));
    }
    let result = match inner.cfg.mode.clone() {
        Mode::Pinned(v) => {
            let mut st = inner.state.borrow_mut();
            st.era = Some(Era::Modern);
            st.protocol_version = Some(v.to_string());
            st.server_capabilities = Some(json!({}));
            Ok(())
        }
        Mode::Legacy => initialize(inner).await,
        Mode::Auto => negotiate_auto(inner).await,
    };
    inner.connecting.set(false);
    result
}

async fn negotiate_auto(inner: &Shared) -> Result<(), McpError> {
    let mut version = LATEST_MODERN;
    let mut reprobed = false;
    loop {
        let id = inner.state.borrow_mut().next_id();
        let out = stamp::modern_request(&inner.cfg, version, id, "server/discover", None);
        let verdict = match one_shot(
            inner,
            out,
            "connect (server/discover probe)",
            PROBE_TIMEOUT_MS.min(inner.timeout_ms),
        )
        .await
        {
            Ok((status, _, msg)) => classify_probe_reply(status, msg.as_ref(), reprobed),
            Err(e)
                if e.kind()
                    .is_some_and(crate::protocol::error::ErrorKind::is_unreachable) =>
            {
                classify_probe_network_error(e, inner.http.in_browser)
            }
            Err(e) => ProbeVerdict::Fail(e),
        };
        match verdict {
            ProbeVerdict::Modern { version, discover } => {
                let adopted = adopt_discover(version, &discover);
                let mut st = inner.state.borrow_mut();
                apply(&mut st, Era::Modern, adopted);
                st.discover_result = Some(discover);
                return Ok(());
            }
            ProbeVerdict::Reprobe(v) => {
                version = v;
                reprobed = true;
            }
            ProbeVerdict::Legacy(_) => return initialize(inner).await,
            ProbeVerdict::Fail(e) => return Err(e),
        }
    }
}

fn apply(st: &mut SessionState, era: Era, a: Adopted) {
    st.era = Some(era);
    st.protocol_version = Some(a.version);
    st.server_info = a.server_info;
    st.server_capabilities = Some(a.capabilities);
    st.instructions = a.instructions;
}

async fn initialize(inner: &Shared) -> Result<(), McpError> {
    let id = inner.state.borrow_mut().next_id();
    let out = stamp::initialize(&inner.cfg, id, LATEST_LEGACY);
    let (status, session_id, msg) = one_shot(inner, out, "initialize", inner.timeout_ms).await?;
    if suggests_http_sse(status, msg.as_ref()) {
        match open_http_sse(inner).await {
            Ok(()) => return initialize_over_http_sse(inner).await,
            Err(e) => report(inner, e),
        }
    }
    let adopted = match msg {
        Some(Message::Result { result, .. }) if (200..300).contains(&status) => {
            adopt_initialize(&result)?
        }
        Some(Message::Error { error, .. }) => return Err(error),
        _ => return Err(error_for_status(status, "", "", "initialize", false)),
    };
    {
        let mut st = inner.state.borrow_mut();
        apply(&mut st, Era::Legacy, adopted);
        st.session_id = session_id;
    }
    if let Err(e) = notify(inner, "notifications/initialized", None).await {
        inner.state.borrow_mut().reset();
        return Err(e);
    }
    if inner.state.borrow().session_id.is_some() {
        spawn_local(get_stream(inner.clone()));
    }
    Ok(())
}

/// The deprecated HTTP+SSE transport (2024-11-05): GET the URL, wait for the `endpoint`
/// event, then keep reading that stream (responses, notifications, server requests) while
/// every message is POSTed to the endpoint. The endpoint must be on the server's origin.
async fn open_http_sse(inner: &Shared) -> Result<(), McpError> {
    let controller = new_controller()?;
    let signal = controller.signal();
    let what = "the HTTP+SSE stream";
    let send = inner.http.send(Method::GET, None, &[], &signal, what);
    let head = within(PROBE_TIMEOUT_MS.min(inner.timeout_ms), what, send)
        .await
        .inspect_err(|_| controller.abort())?;
    if !(200..300).contains(&head.status)
        || body_kind(head.content_type.as_deref()) != BodyKind::Sse
    {
        controller.abort();
        return Err(McpError::protocol(
            INVALID_REQUEST,
            "No HTTP+SSE stream at the URL",
        ));
    }
    *inner.get_stream.borrow_mut() = Some(controller.clone());
    let (tx, rx) = futures::channel::oneshot::channel::<String>();
    let task = inner.clone();
    spawn_local(async move {
        let _guard = AbortOnDrop::new(controller);
        let mut tx = Some(tx);
        let mut parser = SseParser::new(task.max_message_bytes);
        let stream = byte_stream(&head, what);
        pin_mut!(stream);
        while let Some(Ok(chunk)) = stream.next().await {
            let Ok(events) = parser.feed(&chunk) else {
                break;
            };
            for ev in events {
                if ev.event == "endpoint" {
                    if let Some(t) = tx.take() {
                        let _ = t.send(ev.data.trim().to_string());
                    }
                } else if !ev.data.trim().is_empty() {
                    match decode(&ev.data) {
                        Ok(messages) => messages.into_iter().for_each(|m| dispatch(&task, m, None)),
                        Err(e) => report(&task, e),
                    }
                }
            }
        }
        if tx.is_none() && !task.state.borrow().closed {
            let e = McpError::local(
                crate::protocol::error::CONNECTION_CLOSED,
                crate::protocol::error::ErrorKind::Network,
                "The HTTP+SSE stream closed; the session is over",
                Value::Null,
            );
            task.inflight.borrow_mut().fail_all(&e);
            report(&task, e);
        }
    });
    let endpoint = rx.await.map_err(|_| {
        McpError::protocol(
            INVALID_REQUEST,
            "The HTTP+SSE stream ended before its endpoint event",
        )
    })?;
    inner.http.set_endpoint(&endpoint)
}

async fn initialize_over_http_sse(inner: &Shared) -> Result<(), McpError> {
    let id = inner.state.borrow_mut().next_id();
    let out = stamp::initialize(&inner.cfg, id.clone(), LATEST_LEGACY);
    let result = exchange(inner, id, out, "initialize", &Call::plain(inner.timeout_ms)).await?;
    let adopted = adopt_initialize(&result)?;
    apply(&mut inner.state.borrow_mut(), Era::Legacy, adopted);
    notify(inner, "notifications/initialized", None).await
}

/// POSTs one request and reads the first response in its body (JSON or SSE), whatever the
/// status; for the probe and `initialize`, whose callers judge the status themselves.
async fn one_shot(
    inner: &Shared,
    out: Outgoing,
    method: &str,
    timeout_ms: u64,
) -> Result<(u16, Option<String>, Option<Message>), McpError> {
    let controller = new_controller()?;
    let _guard = AbortOnDrop::new(controller.clone());
    let work = async {
        let head = inner
            .http
            .send(
                Method::POST,
                Some(&out.body),
                &out.headers,
                &controller.signal(),
                method,
            )
            .await?;
        let status = head.status;
        let session = head.session_id.clone();
        let is_sse = (200..300).contains(&status)
            && body_kind(head.content_type.as_deref()) == BodyKind::Sse;
        let msg = if is_sse {
            first_sse_response(inner, &head, method).await?
        } else {
            let text = read_text(&head, inner.max_message_bytes, method)
                .await
                .unwrap_or_default();
            decode(&text).ok().and_then(|msgs| {
                msgs.into_iter()
                    .find(|m| matches!(m, Message::Result { .. } | Message::Error { .. }))
            })
        };
        Ok::<_, McpError>((status, session, msg))
    };
    within(timeout_ms, method, work).await
}

async fn first_sse_response(
    inner: &Shared,
    head: &Head,
    method: &str,
) -> Result<Option<Message>, McpError> {
    let mut found = None;
    let mut parser = SseParser::new(inner.max_message_bytes);
    read_sse_messages(head, method, &mut parser, |m| match m {
        Message::Result { .. } | Message::Error { .. } => {
            found = Some(m);
            true
        }
        other => {
            dispatch(inner, other, None);
            false
        }
    })
    .await?;
    Ok(found)
}

/// Reads an SSE body incrementally, handing each JSON-RPC message to `on_message` until it
/// returns true; a stream that ends or breaks before that is an error saying how it ended.
async fn read_sse_messages(
    head: &Head,
    method: &str,
    parser: &mut SseParser,
    mut on_message: impl FnMut(Message) -> bool,
) -> Result<(), McpError> {
    let stream = byte_stream(head, method);
    pin_mut!(stream);
    while let Some(chunk) = stream.next().await {
        let chunk = chunk
            .map_err(|e| stream_ended(method, parser.has_partial_event(), Some(&e.message)))?;
        let events = parser.feed(&chunk).map_err(|e| {
            McpError::protocol(
                INVALID_REQUEST,
                format!("{e} in the response stream for {method}"),
            )
        })?;
        for ev in events {
            if ev.data.trim().is_empty() {
                continue;
            }
            for m in decode(&ev.data)? {
                if on_message(m) {
                    return Ok(());
                }
            }
        }
    }
    Err(stream_ended(method, parser.has_partial_event(), None))
}

/// POSTs a long-lived request (2026 `subscriptions/listen`) and returns its SSE response head;
/// an error status or a JSON answer is the error.
pub async fn open_stream(
    inner: &Shared,
    id: RequestId,
    method: &str,
    params: Value,
    controller: &AbortController,
    timeout_ms: u64,
) -> Result<Head, McpError> {
    ensure_connected(inner)?;
    let out = stamp::request(&inner.cfg, &inner.state.borrow(), id, method, Some(params));
    let signal = controller.signal();
    let send = inner
        .http
        .send(Method::POST, Some(&out.body), &out.headers, &signal, method);
    let head = within(timeout_ms, method, send)
        .await
        .inspect_err(|_| controller.abort())?;
    if !(200..300).contains(&head.status) {
        return Err(status_error(inner, &head, method).await);
    }
    match body_kind(head.content_type.as_deref()) {
        BodyKind::Sse => Ok(head),
        BodyKind::Json => {
            let text = read_text(&head, inner.max_message_bytes, method).await?;
            match decode(&text)?.into_iter().next() {
                Some(Message::Error { error, .. }) => Err(error),
                _ => Err(McpError::protocol(
                    INVALID_REQUEST,
                    format!("The server answered {method} with a JSON body instead of a stream"),
                )),
            }
        }
        BodyKind::Unexpected(kind) => Err(unexpected_content_type(&kind, method)),
    }
}

/// Reads an SSE body with a fresh parser, handing each message to `on_message` until it
/// returns true.
pub async fn read_stream_messages(
    head: &Head,
    what: &str,
    max_message_bytes: usize,
    on_message: impl FnMut(Message) -> bool,
) -> Result<(), McpError> {
    let mut parser = SseParser::new(max_message_bytes);
    read_sse_messages(head, what, &mut parser, on_message).await
}

// ---------------------------------------------------------------- requests

/// Sends a request in the negotiated era and returns its final result.
pub async fn request(
    inner: &Shared,
    method: &str,
    params: Option<Value>,
    mut call: Call,
) -> Result<Value, McpError> {
    ensure_connected(inner)?;
    let mut original = params.unwrap_or_else(|| json!({}));
    let _progress = match call.on_progress.clone() {
        Some(f) => {
            let n = inner.next_progress_token.get() + 1;
            inner.next_progress_token.set(n);
            let token = format!("progress-{n}");
            if let Some(obj) = original.as_object_mut() {
                let meta = obj.entry("_meta").or_insert_with(|| json!({}));
                if let Some(m) = meta.as_object_mut() {
                    m.insert("progressToken".into(), Value::String(token.clone()));
                }
            }
            let bump = Rc::new(Cell::new(0));
            if call.reset_timeout_on_progress {
                call.progress_bump = Some(bump.clone());
            }
            inner.progress.borrow_mut().insert(
                token.clone(),
                ProgressSlot {
                    on_progress: f,
                    bump,
                },
            );
            Some(ProgressGuard {
                inner: inner.clone(),
                token,
            })
        }
        None => None,
    };
    let work = request_rounds(inner, method, original, &call).fuse();
    let cap = async {
        match call.max_total_timeout_ms {
            Some(ms) => sleep(ms).await,
            None => future::pending().await,
        }
    }
    .fuse();
    pin_mut!(work, cap);
    select! {
        r = work => r,
        _ = cap => {
            let ms = call.max_total_timeout_ms.unwrap_or_default();
            let mut e = McpError::timeout(method, ms);
            e.message = format!("Request timed out: {method} ran past maxTotalTimeoutMs ({ms} ms)");
            Err(e)
        },
    }
}

/// A list method, one page (`cursor`) or every page (`all`, at most `max_pages`).
pub async fn list(
    inner: &Shared,
    method: &str,
    key: &str,
    cursor: Option<String>,
    all: Option<u32>,
    call: Call,
) -> Result<Value, McpError> {
    let params = |c: Option<String>| match c {
        Some(c) => json!({ "cursor": c }),
        None => json!({}),
    };
    let Some(max_pages) = all else {
        return request(inner, method, Some(params(cursor)), call).await;
    };
    let mut pages = crate::session::results::Pages::default();
    let mut next = cursor;
    loop {
        let page = request(inner, method, Some(params(next)), call.clone()).await?;
        match pages.add(method, key, &page, max_pages)? {
            Some(c) => next = Some(c),
            None => return Ok(pages.finish(key, page)),
        }
    }
}

/// The request loop: 2026 `input_required` rounds, and one transparent re-initialize when a
/// legacy session expired (HTTP 404).
async fn request_rounds(
    inner: &Shared,
    method: &str,
    original: Value,
    call: &Call,
) -> Result<Value, McpError> {
    let mut params = original.clone();
    let mut rounds: u32 = 0;
    let mut state_only_streak = 0;
    let mut reinitialized = false;
    let mut reissued = false;
    let mut relisted = false;
    let modern = inner.era() == Some(Era::Modern);
    let cache_key = key_of(method, &params);
    if let (true, Some(cache)) = (modern, &inner.cache) {
        if let Some(hit) = cache
            .borrow()
            .get(method, cache_key.as_deref(), js_sys::Date::now())
        {
            return Ok(hit);
        }
    }
    loop {
        let id = inner.state.borrow_mut().next_id();
        let (mut out, session_used) = {
            let st = inner.state.borrow();
            (
                stamp::request(&inner.cfg, &st, id.clone(), method, Some(params.clone())),
                st.session_id.clone(),
            )
        };
        if modern && method == "tools/call" {
            let name = params
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let args = params.get("arguments").cloned().unwrap_or(Value::Null);
            out.headers
                .extend(inner.tools.borrow().call_headers(name, &args));
        }
        let result = match exchange(inner, id, out, method, call).await {
            // 2026: Mcp-Param-* disagreed with the server's view of the tool: re-list, retry once.
            Err(e)
                if e.code == crate::protocol::error::HEADER_MISMATCH
                    && method == "tools/call"
                    && !relisted =>
            {
                relisted = true;
                relist_tools(inner, call).await?;
                continue;
            }
            Err(e)
                if e.kind() == Some(crate::protocol::error::ErrorKind::SessionExpired)
                    && !reinitialized =>
            {
                reinitialized = true;
                reinitialize(inner, session_used, &e).await?;
                continue;
            }
            // 2026: a broken response stream loses the request; re-issue it once with a new id,
            // unless callbacks' answers would be replayed without the server's requestState.
            Err(e)
                if inner.era() == Some(Era::Modern)
                    && !reissued
                    && reconnect::is_stream_break(&e)
                    && (params.get("inputResponses").is_none()
                        || params.get("requestState").is_some()) =>
            {
                reissued = true;
                continue;
            }
            other => other?,
        };
        let mut result = result;
        if method == "tools/list" {
            let era = inner.era().unwrap_or(Era::Legacy);
            for warning in inner.tools.borrow_mut().absorb(era, &mut result) {
                report(
                    inner,
                    McpError::local(
                        INVALID_REQUEST,
                        crate::protocol::error::ErrorKind::Warning,
                        warning,
                        Value::Null,
                    ),
                );
            }
        }
        if method == "tools/call"
            && !matches!(result_kind(method, &result), Ok(ResultKind::InputRequired))
        {
            let name = params
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if let Some(warning) = inner.tools.borrow().check_output(name, &result)? {
                report(
                    inner,
                    McpError::local(
                        INVALID_REQUEST,
                        crate::protocol::error::ErrorKind::Warning,
                        warning,
                        Value::Null,
                    ),
                );
            }
        }
        if !modern {
            return Ok(result);
        }
        match result_kind(method, &result)? {
            ResultKind::Complete => {
                if let (0, Some(cache)) = (rounds, &inner.cache) {
                    cache.borrow_mut().put(method, cache_key.as_deref(), &params, &result, js_sys::Date::now());
                }
                return Ok(result);
            }
            ResultKind::InputRequired if !mrtr::MRTR_METHODS.contains(&method) => {
                return Err(McpError::protocol(
                    INVALID_REQUEST,
                    format!("The server answered {method} with input_required, which only tools/call, prompts/get and resources/read may return"),
                ))
            }
            ResultKind::InputRequired => {}
        }
        rounds += 1;
        if rounds > inner.max_rounds {
            return Err(mrtr::rounds_exceeded(method, inner.max_rounds));
        }
        let round = mrtr::parse(method, &result)?;
        let responses = if round.requests.is_empty() {
            sleep(mrtr::backoff_ms(state_only_streak)).await;
            state_only_streak += 1;
            None
        } else {
            state_only_streak = 0;
            Some(answer_round(inner, &round.requests, call).await?)
        };
        params = mrtr::retry_params(&original, responses, round.request_state.as_deref());
    }
}

/// Re-reads every page of `tools/list` (the registry absorbs them), bypassing the cache.
async fn relist_tools(inner: &Shared, call: &Call) -> Result<(), McpError> {
    if let Some(cache) = &inner.cache {
        cache.borrow_mut().drop_method("tools/list");
    }
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let params = cursor.map_or_else(|| json!({}), |c| json!({ "cursor": c }));
        let page = Box::pin(request_rounds(inner, "tools/list", params, call)).await?;
        match crate::session::results::next_cursor(&page) {
            Some(c) => cursor = Some(c),
            None => return Ok(()),
        }
    }
    Ok(())
}

/// Starts a new legacy session after the server answered 404 for `expired` (unless a
/// concurrent call already did), and tells `messageHandler`.
async fn reinitialize(
    inner: &Shared,
    expired: Option<String>,
    why: &McpError,
) -> Result<(), McpError> {
    while inner.connecting.get() {
        sleep(20).await;
    }
    if inner.state.borrow().session_id != expired {
        return Ok(());
    }
    if let Some(c) = inner.get_stream.borrow_mut().take() {
        c.abort();
    }
    inner.state.borrow_mut().reset();
    report(
        inner,
        McpError::local(
            INVALID_REQUEST,
            crate::protocol::error::ErrorKind::SessionExpired,
            format!("{} — starting a new session and retrying once", why.message),
            json!({ "expiredSessionId": expired }),
        ),
    );
    inner.connecting.set(true);
    let r = initialize(inner).await;
    inner.connecting.set(false);
    r
}

/// Answers every entry of one `input_required` round concurrently; the first failure cancels
/// the others (their `context.signal` fires) and fails the call, as does the call's abort.
async fn answer_round(
    inner: &Shared,
    requests: &[mrtr::InputRequest],
    call: &Call,
) -> Result<serde_json::Map<String, Value>, McpError> {
    let mut guard = AbortUnlessDone {
        controllers: requests
            .iter()
            .map(|_| new_controller())
            .collect::<Result<_, _>>()?,
        done: false,
    };
    let answers = requests.iter().zip(guard.controllers.iter()).map(|(r, c)| {
        let signal = c.signal();
        async move {
            let v = callbacks::answer(
                &inner.callbacks,
                &inner.cfg.registered,
                &inner.callbacks_pending,
                &r.method,
                r.params.clone(),
                JsValue::from_str(&r.key),
                &signal,
            )
            .await?;
            Ok::<_, McpError>((r.key.clone(), v))
        }
    });
    let all = future::try_join_all(answers).fuse();
    let user_abort = async {
        match &call.signal {
            Some(s) => AbortWait::new(s.clone()).fired().await,
            None => future::pending().await,
        }
    }
    .fuse();
    pin_mut!(all, user_abort);
    let method = "an input_required round";
    let outcome = select! {
        r = all => r.map(|pairs| pairs.into_iter().collect()),
        reason = user_abort => Err(McpError::aborted(method, reason)),
    };
    guard.done = outcome.is_ok();
    outcome
}

/// Aborts every callback's `context.signal` unless the round completed.
struct AbortUnlessDone {
    controllers: Vec<AbortController>,
    done: bool,
}

impl Drop for AbortUnlessDone {
    fn drop(&mut self) {
        if !self.done {
            for c in &self.controllers {
                c.abort();
            }
        }
    }
}

fn ensure_connected(inner: &Shared) -> Result<(), McpError> {
    let st = inner.state.borrow();
    if st.closed {
        Err(McpError::closed("Client is closed"))
    } else if st.era.is_none() {
        Err(McpError::closed(
            "Client is not connected: await client.connect() first",
        ))
    } else {
        Ok(())
    }
}

/// Sends one stamped request and waits for its response, its timeout, or its abort.
async fn exchange(
    inner: &Shared,
    id: RequestId,
    out: Outgoing,
    method: &str,
    call: &Call,
) -> Result<Value, McpError> {
    let rx = inner.inflight.borrow_mut().register(id.clone());
    let controller = new_controller()?;
    inner
        .active
        .borrow_mut()
        .insert(id.clone(), controller.clone());
    let guard = AbortOnDrop::new(controller.clone());
    let mut body_done = false;

    let post = post_and_read(inner, &id, &out, method, controller.signal()).fuse();
    let timer = call_timer(inner, call.timeout_ms, call.progress_bump.as_ref()).fuse();
    let user_abort = async {
        match &call.signal {
            Some(s) => AbortWait::new(s.clone()).fired().await,
            None => future::pending().await,
        }
    }
    .fuse();
    let mut rx = rx;
    pin_mut!(post, timer, user_abort);

    let closed = || McpError::closed("Client was closed while the request was in flight");
    // Over the deprecated HTTP+SSE transport the POST only gets 202; the response arrives on
    // the transport's SSE stream, so the exchange keeps waiting after the POST is done.
    let outcome = loop {
        select! {
            r = rx => break r.unwrap_or_else(|_| Err(closed())),
            p = post => {
                body_done = matches!(p, Ok(true));
                if let Ok(Some(delivered)) = rx.try_recv() {
                    break delivered;
                }
                match p {
                    Err(e) => break Err(e),
                    Ok(_) if inner.http.endpoint().is_some() => continue,
                    Ok(_) => break Err(McpError::protocol(INVALID_REQUEST, format!("The server's response stream for {method} ended without a response"))),
                }
            },
            _ = timer => {
                abort_server_requests(inner, |_, own| own.as_ref() == Some(&id));
                cancel_on_server(inner, &id, "timeout");
                break Err(McpError::timeout(method, call.timeout_ms));
            },
            reason = user_abort => {
                abort_server_requests(inner, |_, own| own.as_ref() == Some(&id));
                cancel_on_server(inner, &id, reason.as_deref().unwrap_or("aborted"));
                break Err(McpError::aborted(method, reason));
            },
        }
    };
    inner.inflight.borrow_mut().forget(&id);
    inner.active.borrow_mut().remove(&id);
    if body_done {
        guard.disarm();
    }
    outcome
}

/// Sleeps `ms` of request time: time while a user callback is pending does not count (a
/// person filling a form is not a slow server), and progress restarts it. Checked in slices of
/// at most one second.
async fn call_timer(inner: &Shared, ms: u64, progress: Option<&Rc<Cell<u64>>>) {
    let mut remaining = ms;
    let mut seen = progress.map_or(0, |p| p.get());
    while remaining > 0 {
        let slice = remaining.min(1000);
        sleep(slice).await;
        let now = progress.map_or(0, |p| p.get());
        if now != seen {
            // Progress arrived: the timeout starts over.
            seen = now;
            remaining = ms;
        } else if inner.callbacks_pending.get() == 0 {
            remaining -= slice;
        }
    }
}

/// Legacy: tell the server to stop working on `id`; modern: aborting the fetch is the cancel.
fn cancel_on_server(inner: &Shared, id: &RequestId, reason: &str) {
    if inner.era() != Some(Era::Legacy) {
        return;
    }
    let params = json!({ "requestId": id.to_value(), "reason": reason });
    let inner = inner.clone();
    spawn_local(async move {
        let _ = notify(&inner, "notifications/cancelled", Some(params)).await;
    });
}

/// POSTs a request and reads its body, delivering what arrives; returns when the body ends or
/// the response to `id` has been delivered.
async fn post_and_read(
    inner: &Shared,
    id: &RequestId,
    out: &Outgoing,
    method: &str,
    signal: AbortSignal,
) -> Result<bool, McpError> {
    let head = inner
        .http
        .send(Method::POST, Some(&out.body), &out.headers, &signal, method)
        .await?;
    if head.status == 202 {
        if inner.http.endpoint().is_some() {
            return Ok(true);
        }
        return Err(accepted_for_request(method));
    }
    if !(200..300).contains(&head.status) {
        return Err(status_error(inner, &head, method).await);
    }
    match body_kind(head.content_type.as_deref()) {
        BodyKind::Json => {
            let text = read_text(&head, inner.max_message_bytes, method).await?;
            for m in decode(&text)? {
                dispatch(inner, m, Some(id));
            }
            Ok(true)
        }
        BodyKind::Sse => read_sse(inner, &head, id, method, &signal)
            .await
            .map(|_| false),
        BodyKind::Unexpected(kind) => Err(unexpected_content_type(&kind, method)),
    }
}

async fn status_error(inner: &Shared, head: &Head, method: &str) -> McpError {
    let body = read_text(head, MAX_ERROR_BODY, method)
        .await
        .unwrap_or_default();
    let (has_session, legacy) = {
        let st = inner.state.borrow();
        (st.session_id.is_some(), st.era == Some(Era::Legacy))
    };
    let mut e = error_for_status(head.status, &head.status_text, &body, method, has_session);
    if inner.http.in_browser && legacy && !has_session && head.status == 400 {
        e.message.push_str(
            " — no Mcp-Session-Id was readable after initialize: a cross-origin server must list Mcp-Session-Id in Access-Control-Expose-Headers",
        );
    }
    e
}

/// Reads a request's SSE stream until its response. In the legacy era a stream that breaks
/// after events with ids is resumed with GET + `Last-Event-ID` (the server's `retry:` first,
/// then backoff; repeated breaks resume from the newest id); a stream without ids cannot be.
async fn read_sse(
    inner: &Shared,
    head: &Head,
    id: &RequestId,
    method: &str,
    signal: &AbortSignal,
) -> Result<(), McpError> {
    let deliver = |m: Message| {
        dispatch(inner, m, Some(id));
        !inner.inflight.borrow().contains(id)
    };
    let mut parser = SseParser::new(inner.max_message_bytes);
    let mut err = match read_sse_messages(head, method, &mut parser, deliver).await {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    if inner.era() != Some(Era::Legacy) || !reconnect::is_stream_break(&err) {
        return Err(err);
    }
    let Some(mut last_id) = parser.last_event_id().map(str::to_string) else {
        err.message
            .push_str("; the stream carried no event ids, so it cannot be resumed");
        return Err(err);
    };
    let mut retry = parser.retry_ms();
    let mut schedule = Reconnect::new(Some(reconnect::RESUME_ATTEMPTS));
    loop {
        let Some(delay) = schedule.next_delay(retry) else {
            err.message = format!(
                "{} (gave up after {} attempts to resume from event {last_id:?})",
                err.message,
                schedule.attempts()
            );
            return Err(err);
        };
        sleep(delay).await;
        let mut headers = stamp::legacy_headers(&inner.state.borrow());
        headers.push(("Last-Event-ID".into(), last_id.clone()));
        let head = match inner
            .http
            .send(Method::GET, None, &headers, signal, method)
            .await
        {
            Ok(h) => h,
            Err(e) if e.kind() == Some(crate::protocol::error::ErrorKind::Network) => {
                err = e;
                continue;
            }
            Err(e) => return Err(e),
        };
        if !(200..300).contains(&head.status)
            || body_kind(head.content_type.as_deref()) != BodyKind::Sse
        {
            let mut e = status_error(inner, &head, method).await;
            e.message = format!(
                "Could not resume the stream of {method} from event {last_id:?}: {}",
                e.message
            );
            return Err(e);
        }
        let mut resumed = SseParser::new(inner.max_message_bytes);
        match read_sse_messages(&head, method, &mut resumed, deliver).await {
            Ok(()) => return Ok(()),
            Err(e) if reconnect::is_stream_break(&e) => {
                if let Some(newer) = resumed.last_event_id() {
                    if newer != last_id {
                        last_id = newer.to_string();
                        schedule.reset();
                    }
                }
                retry = resumed.retry_ms().or(retry);
                err = e;
            }
            Err(e) => return Err(e),
        }
    }
}

// ---------------------------------------------------------------- what the server sends

/// Routes one incoming message: responses to their waiting request, notifications to the
/// handlers, server requests to their answerers. `own` is the request whose stream carried it.
fn dispatch(inner: &Shared, msg: Message, own: Option<&RequestId>) {
    match msg {
        Message::Result { id, result } => {
            if !inner.inflight.borrow_mut().deliver(&id, Ok(result)) {
                report(inner, McpError::protocol(INVALID_REQUEST, format!("Server sent a response for request id {id}, which is not in flight (unknown or duplicate); ignored")));
            }
        }
        Message::Error { id, error } => {
            let target = id.or_else(|| own.cloned());
            let delivered = match &target {
                Some(t) => inner.inflight.borrow_mut().deliver(t, Err(error.clone())),
                None => false,
            };
            if !delivered {
                report(inner, error);
            }
        }
        Message::Notification { method, params } => on_notification(inner, &method, params),
        Message::Request { id, method, params } => {
            let inner = inner.clone();
            let own = own.cloned();
            spawn_local(
                async move { answer_server_request(&inner, id, &method, params, own).await },
            );
        }
    }
}

/// Applies a notification (cache, progress, legacy listeners) and hands it to the handlers.
pub fn on_notification(inner: &Shared, method: &str, params: Option<Value>) {
    if method == "notifications/cancelled" {
        // Applied, not surfaced: the callback answering that request sees its signal fire.
        if let Some(target) = params
            .as_ref()
            .and_then(|p| p.get("requestId"))
            .and_then(RequestId::from_value)
        {
            abort_server_requests(inner, |id, _| *id == target);
        }
        return;
    }
    if let Some(cache) = &inner.cache {
        cache
            .borrow_mut()
            .invalidate_for_notification(method, params.as_ref().unwrap_or(&Value::Null));
    }
    if method == "notifications/tools/list_changed" {
        inner.tools.borrow_mut().clear();
    }
    if inner.era() == Some(Era::Legacy) {
        let p = params.clone().unwrap_or(Value::Null);
        for l in inner
            .listeners
            .borrow()
            .iter()
            .filter_map(std::rc::Weak::upgrade)
        {
            if l.wants(method, &p) {
                l.push(Ok(json!({ "method": method, "params": p })));
            }
        }
    }
    if method == "notifications/progress" {
        let token = params
            .as_ref()
            .and_then(|p| p.get("progressToken"))
            .map(|t| match t {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        if let Some(slot) = token.and_then(|t| {
            inner
                .progress
                .borrow()
                .get(&t)
                .map(|s| (s.on_progress.clone(), s.bump.clone()))
        }) {
            slot.1.set(slot.1.get() + 1);
            call_handler(
                &slot.0,
                &interop::to_js(params.as_ref().unwrap_or(&Value::Null)),
            );
        }
    }
    if method == "notifications/message" {
        if let Some(f) = &inner.handlers.logging_callback {
            call_handler(f, &interop::to_js(params.as_ref().unwrap_or(&Value::Null)));
        }
    }
    if let Some(f) = &inner.handlers.message_handler {
        let mut n = json!({ "method": method });
        if let Some(p) = params {
            n["params"] = p;
        }
        call_handler(f, &interop::to_js(&n));
    }
}

/// Gives a transport-level error to `messageHandler` (nothing else would see it).
fn report(inner: &Shared, error: McpError) {
    if let Some(f) = &inner.handlers.message_handler {
        call_handler(f, &jserr::to_js(error));
    }
}

fn call_handler(f: &Function, arg: &JsValue) {
    if let Ok(ret) = f.call1(&JsValue::UNDEFINED, arg) {
        if let Ok(p) = wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>(ret) {
            spawn_local(async move {
                let _ = wasm_bindgen_futures::JsFuture::from(p).await;
            });
        }
    }
}

async fn answer_server_request(
    inner: &Shared,
    id: RequestId,
    method: &str,
    params: Option<Value>,
    own: Option<RequestId>,
) {
    let Ok(controller) = new_controller() else {
        return;
    };
    inner
        .server_requests
        .borrow_mut()
        .insert(id.clone(), (own, controller.clone()));
    let signal = controller.signal();
    let work = callbacks::answer(
        &inner.callbacks,
        &inner.cfg.registered,
        &inner.callbacks_pending,
        method,
        params.unwrap_or_else(|| json!({})),
        interop::to_js(&id.to_value()),
        &signal,
    )
    .fuse();
    let cancelled = AbortWait::new(signal.clone());
    let cancelled = async move {
        let mut c = cancelled;
        c.fired().await
    }
    .fuse();
    pin_mut!(work, cancelled);
    let outcome = select! {
        o = work => Some(o),
        _ = cancelled => None,
    };
    inner.server_requests.borrow_mut().remove(&id);
    // A request the server cancelled (or whose call was aborted) gets no response.
    let Some(outcome) = outcome else { return };
    let reply = match outcome {
        Ok(result) => Message::Result { id, result },
        Err(error) => Message::Error {
            id: Some(id),
            error,
        },
    };
    if let Err(e) = post_message(inner, &reply, "a response to a server request").await {
        report(inner, e);
    }
}

/// Aborts the callbacks answering server requests that `pred` selects.
fn abort_server_requests(inner: &Shared, pred: impl Fn(&RequestId, &Option<RequestId>) -> bool) {
    for (id, (own, c)) in inner.server_requests.borrow().iter() {
        if pred(id, own) {
            c.abort();
        }
    }
}

/// Legacy: keeps the standalone GET stream open for server requests and notifications;
/// 404/405/406 mean the server offers none. Other failures and ends reconnect with backoff
/// (resuming from the last event id) until `close()`.
async fn get_stream(inner: Shared) {
    let Ok(controller) = new_controller() else {
        return;
    };
    *inner.get_stream.borrow_mut() = Some(controller.clone());
    let _guard = AbortOnDrop::new(controller.clone());
    let signal = controller.signal();
    let mut schedule = Reconnect::new(None);
    let mut last_id: Option<String> = None;
    let mut retry: Option<u64> = None;
    loop {
        if signal.aborted() || inner.state.borrow().closed {
            return;
        }
        let mut headers = stamp::legacy_headers(&inner.state.borrow());
        headers.push(("Cache-Control".into(), "no-store".into()));
        if let Some(id) = &last_id {
            headers.push(("Last-Event-ID".into(), id.clone()));
        }
        match inner
            .http
            .send(Method::GET, None, &headers, &signal, "the GET stream")
            .await
        {
            Ok(head) => match head.status {
                200..=299 if body_kind(head.content_type.as_deref()) == BodyKind::Sse => {
                    let mut parser = SseParser::new(inner.max_message_bytes);
                    let opened = js_sys::Date::now();
                    let _ = read_sse_messages(&head, "the GET stream", &mut parser, |m| {
                        dispatch(&inner, m, None);
                        false
                    })
                    .await;
                    if js_sys::Date::now() - opened >= reconnect::HEALTHY_STREAM_MS {
                        schedule.reset();
                    }
                    last_id = parser.last_event_id().map(str::to_string).or(last_id);
                    retry = parser.retry_ms().or(retry);
                }
                404..=406 => return,
                _ => report(&inner, status_error(&inner, &head, "the GET stream").await),
            },
            Err(e) => {
                if e.kind() == Some(crate::protocol::error::ErrorKind::Aborted)
                    || signal.aborted()
                    || inner.state.borrow().closed
                {
                    return;
                }
                report(&inner, e);
            }
        }
        let delay = schedule
            .next_delay(retry)
            .unwrap_or(reconnect::MAX_DELAY_MS);
        let wait = sleep(delay).fuse();
        let mut stop = AbortWait::new(signal.clone());
        let stop = stop.fired().fuse();
        pin_mut!(wait, stop);
        select! {
            _ = wait => {},
            _ = stop => return,
        }
    }
}

// ---------------------------------------------------------------- one-way messages and close

/// POSTs a notification (legacy); expects 202 or another 2xx.
pub async fn notify(inner: &Shared, method: &str, params: Option<Value>) -> Result<(), McpError> {
    post_message(inner, &Message::notification(method, params), method).await
}

async fn post_message(inner: &Shared, msg: &Message, what: &str) -> Result<(), McpError> {
    let out = stamp::message(&inner.state.borrow(), msg);
    let controller = new_controller()?;
    let _guard = AbortOnDrop::new(controller.clone());
    let signal = controller.signal();
    let send = inner
        .http
        .send(Method::POST, Some(&out.body), &out.headers, &signal, what);
    let head = within(inner.timeout_ms, what, send).await?;
    if (200..300).contains(&head.status) {
        Ok(())
    } else {
        Err(status_error(inner, &head, what).await)
    }
}

/// Closes the client: fails waiting calls, aborts open streams, DELETEs a legacy session.
pub async fn close(inner: &Shared) {
    let (session, was_open) = {
        let mut st = inner.state.borrow_mut();
        let was_open = !st.closed;
        st.closed = true;
        (
            if st.era == Some(Era::Legacy) {
                st.session_id.clone()
            } else {
                None
            },
            was_open,
        )
    };
    if !was_open {
        return;
    }
    inner.inflight.borrow_mut().fail_all(&McpError::closed(
        "Client was closed while the request was in flight",
    ));
    for (_, c) in inner.active.borrow_mut().drain() {
        c.abort();
    }
    abort_server_requests(inner, |_, _| true);
    if let Some(c) = inner.get_stream.borrow_mut().take() {
        c.abort();
    }
    if session.is_some() {
        if let Ok(controller) = new_controller() {
            let _guard = AbortOnDrop::new(controller.clone());
            let headers = stamp::legacy_headers(&inner.state.borrow());
            let signal = controller.signal();
            let send = inner
                .http
                .send(Method::DELETE, None, &headers, &signal, "session DELETE");
            // Best effort: 405 and failures are fine, a hang is cut after 5 s.
            let _ = within(5_000, "session DELETE", send).await;
        }
    }
}
