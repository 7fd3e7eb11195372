//! The engine's state: one `Engine` per client, shared (in an `Rc`) by every call and task,
//! and the few operations every part of the engine uses.

use super::host::{Cancel, Host, ProgressReceiver};
use super::transport::{Inbox, Transport};
use crate::json::Value;
use crate::protocol::error::McpError;
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::protocol::version::Era;
use crate::session::inflight::InFlight;
use crate::session::lists::Phase;
use crate::session::subscriptions::ListenQueue;
use crate::session::tools::ToolRegistry;
use crate::session::{ClientConfig, SessionState};
use crate::util::small_map::SmallMap;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

/// Limits of one client.
#[derive(Debug, Clone, Copy)]
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

/// A call waiting for `notifications/progress`, registered under its `progressToken`.
pub(super) struct ProgressSlot {
    pub(super) on_progress: ProgressReceiver,
    /// Bumped per notification; the call's timer restarts when it changes.
    pub(super) count: Rc<Cell<u64>>,
}

/// A legacy server request being answered: the call whose stream carried it and the token
/// behind its callback's `context.signal`.
pub(super) struct Answering {
    pub(super) carrier: Option<RequestId>,
    pub(super) cancel: Cancel,
}

/// One client's engine; always held in an `Rc` (tasks it spawns keep it alive).
pub struct Engine {
    /// Fixed configuration.
    pub cfg: ClientConfig,
    /// Limits.
    pub limits: Limits,
    pub(super) host: Rc<dyn Host>,
    pub(super) transport: RefCell<Rc<dyn Transport>>,
    /// Negotiated session state.
    pub state: RefCell<SessionState>,
    /// Requests waiting for a response.
    pub inflight: RefCell<InFlight>,
    pub(super) answering: RefCell<SmallMap<RequestId, Answering>>,
    /// Legacy server requests waiting for, or holding, one of the answering slots.
    pub(super) answers: RefCell<super::answers::AnswerQueue>,
    /// Callbacks in progress, and sign-in pages open (request timers do not run meanwhile).
    pub(super) callbacks_pending: Rc<Cell<u32>>,
    /// Tools seen in listings (2026 `Mcp-Param-*` headers, output schemas).
    pub(super) tools: RefCell<ToolRegistry>,
    /// 2026 list-result cache (`None` when the `cache` option is false; `engine::cache`).
    pub(super) cache: RefCell<Option<Rc<super::cache::Cache>>>,
    /// Legacy `listen()` subscriptions fed from the GET stream.
    pub(super) legacy_listeners: RefCell<Vec<Weak<ListenQueue>>>,
    pub(super) next_listen: Cell<u64>,
    pub(super) progress: RefCell<SmallMap<String, ProgressSlot>>,
    pub(super) next_progress_token: Cell<u64>,
    pub(super) connecting: Cell<bool>,
    /// Tasks being polled, by id: a task notification fires the token to poll at once.
    pub(super) task_wakers: RefCell<Vec<(String, Cancel)>>,
    /// `client.state`, and the error that made it `failed` (`engine::observe`).
    pub(super) phase: Cell<Phase>,
    pub(super) failure: RefCell<Option<McpError>>,
    /// The last complete tools, prompts and resources lists (`ListKind::index`).
    pub(super) lists: RefCell<[Option<Value>; 3]>,
    pub(super) me: Weak<Engine>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("transport", &self.transport.borrow().name())
            .field("state", &self.state.borrow())
            .finish_non_exhaustive()
    }
}

/// Moves the count of callbacks in progress (`Engine::callbacks_pending`): up when one starts
/// (`open`), down when it ends. Request timers pause while it is above zero.
pub(super) fn count_wait(count: &Cell<u32>, open: bool) {
    count.set(if open {
        count.get() + 1
    } else {
        count.get().saturating_sub(1)
    });
}

impl Engine {
    /// How a sign-in page joins the callbacks in progress: told `true` when it opens and `false`
    /// when it closes (request timers pause in between).
    pub fn user_waits(&self) -> Rc<dyn Fn(bool)> {
        let count = self.callbacks_pending.clone();
        Rc::new(move |open| count_wait(&count, open))
    }

    /// [`Engine::user_waits`] told once: a sign-in page opened (`true`) or closed.
    pub fn user_wait(&self, open: bool) {
        count_wait(&self.callbacks_pending, open);
    }

    /// An unconnected engine over `transport`.
    pub fn new(
        cfg: ClientConfig,
        limits: Limits,
        host: Rc<dyn Host>,
        transport: Rc<dyn Transport>,
    ) -> Rc<Engine> {
        let tools = match host.pattern_matcher() {
            Some(m) => ToolRegistry::with_pattern_matcher(m),
            None => ToolRegistry::new(),
        };
        let engine = Rc::new_cyclic(|me| Engine {
            cfg,
            limits,
            host,
            transport: RefCell::new(transport),
            state: RefCell::new(SessionState::new()),
            inflight: RefCell::new(InFlight::new()),
            answering: RefCell::new(SmallMap::new()),
            answers: RefCell::default(),
            callbacks_pending: Rc::new(Cell::new(0)),
            tools: RefCell::new(tools),
            cache: RefCell::new(limits.cache.then(|| Rc::new(super::cache::Cache::memory()))),
            legacy_listeners: RefCell::new(Vec::new()),
            next_listen: Cell::new(0),
            progress: RefCell::new(SmallMap::new()),
            next_progress_token: Cell::new(0),
            connecting: Cell::new(false),
            task_wakers: RefCell::new(Vec::new()),
            phase: Cell::new(Phase::Idle),
            failure: RefCell::new(None),
            lists: RefCell::new([None, None, None]),
            me: me.clone(),
        });
        let weak: Weak<Engine> = Rc::downgrade(&engine);
        let inbox: Weak<dyn Inbox> = weak;
        engine.transport().attach(inbox);
        engine
    }

    /// The negotiated era, once connected.
    pub fn era(&self) -> Option<Era> {
        self.state.borrow().era
    }

    /// The transport in use (`"streamable-http"`, or `"http+sse"` after falling back...).
    pub fn transport_name(&self) -> &'static str {
        self.transport.borrow().name()
    }

    pub(super) fn transport(&self) -> Rc<dyn Transport> {
        self.transport.borrow().clone()
    }

    pub(super) fn rc(&self) -> Rc<Engine> {
        // `me` points at the Rc this engine lives in; `&self` proves it is alive.
        self.me
            .upgrade()
            .expect("an Engine is only reachable through its Rc")
    }

    pub(super) fn inbox(&self) -> Rc<dyn Inbox> {
        self.rc()
    }

    /// Errors unless connected and not closed.
    pub fn ensure_connected(&self) -> Result<(), McpError> {
        let st = self.state.borrow();
        if st.closed {
            Err(McpError::closed("Client is closed"))
        } else if st.era.is_none() {
            Err(McpError::not_connected())
        } else {
            Ok(())
        }
    }

    /// Hands an error no call would see to `messageHandler`.
    pub fn surface_error(&self, error: McpError) {
        self.host.surface_error(error);
    }

    /// Sends a message that gets no response, stamped for the session (legacy).
    pub async fn post(&self, message: &Message, what: &str) -> Result<(), McpError> {
        let out = crate::session::stamp::message(&self.state.borrow(), message);
        let transport = self.transport();
        let sent = transport.post(&out, what);
        self.within(self.limits.timeout_ms, what, sent).await
    }

    /// Sends a notification (legacy).
    pub async fn notify(&self, method: &str, params: Option<Value>) -> Result<(), McpError> {
        self.post(&Message::notification(method, params), method)
            .await
    }

    /// Runs `work`, or fails with a timeout naming `what` after `ms` milliseconds.
    pub fn within<'a, T: 'a>(
        &'a self,
        ms: u64,
        what: &'a str,
        work: impl std::future::Future<Output = Result<T, McpError>> + 'a,
    ) -> impl std::future::Future<Output = Result<T, McpError>> + 'a {
        // The request timer: it pauses while a callback or a sign-in page waits for a person.
        super::host::within(Box::pin(self.call_timer(ms, None)), ms, what, work)
    }

    /// Closes: fails waiting calls, stops callbacks and streams, ends a legacy session.
    pub async fn close(&self) {
        let session_headers = {
            let mut st = self.state.borrow_mut();
            if st.closed {
                return;
            }
            st.closed = true;
            (st.era == Some(Era::Legacy) && st.session_id.is_some())
                .then(|| crate::session::stamp::legacy_headers(&st))
        };
        self.set_phase(Phase::Closed, None);
        self.inflight
            .borrow_mut()
            .fail_all(&McpError::closed_while("the request was in flight"));
        self.cancel_answering(None);
        for q in self.legacy_listeners.borrow_mut().drain(..) {
            if let Some(q) = q.upgrade() {
                q.finish();
            }
        }
        let transport = self.transport();
        transport.close(session_headers).await;
    }

    /// Fires the cancel tokens of the server requests being answered: those carried by the
    /// stream of the call `carrier`, or (`None`) all of them.
    pub(super) fn cancel_answering(&self, carrier: Option<&RequestId>) {
        let selected: Vec<Cancel> = self
            .answering
            .borrow()
            .values()
            .filter(|a| carrier.is_none() || a.carrier.as_ref() == carrier)
            .map(|a| a.cancel.clone())
            .collect();
        for c in selected {
            c.fire(None);
        }
    }
}
