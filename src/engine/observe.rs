//! What a UI watches: the connection state (`client.state`) and the last complete tools,
//! prompts and resources lists, refetched after their `list_changed` unless the
//! `listChanged: { autoRefresh: false }` option turned that off. Each change is told to the host
//! (`Host::phase_changed`, `Host::list_changed`), which turns it into an event.

use super::core::Engine;
use super::request::RequestOptions;
use crate::json::Value;
use crate::protocol::error::McpError;
use crate::session::lists::{complete_list, ListKind, Phase};
use futures::FutureExt;

/// The page cap of a refetch (as `listTools({ all: true })`).
const REFETCH_MAX_PAGES: u32 = 64;

impl Engine {
    /// `client.state`.
    pub fn phase(&self) -> Phase {
        self.phase.get()
    }

    /// The error that made the state `failed` (cleared by a new `connect()`).
    pub fn failure(&self) -> Option<McpError> {
        self.failure.borrow().clone()
    }

    /// The last complete `kind` list, once one was listed.
    pub fn list(&self, kind: ListKind) -> Option<Value> {
        self.lists.borrow()[kind.index()].clone()
    }

    /// Moves the state (nothing leaves `closed`) and tells the host.
    pub(super) fn set_phase(&self, to: Phase, error: Option<&McpError>) {
        let from = self.phase.get();
        if !from.moves_to(to) {
            return;
        }
        self.phase.set(to);
        *self.failure.borrow_mut() = error.cloned();
        self.host.phase_changed(to, from, error);
    }

    /// `connect()` was called: `connecting` at once (the handshake runs later), unless
    /// connected, closed or connecting already.
    pub fn connect_called(&self) {
        let idle = {
            let st = self.state.borrow();
            !st.closed && st.era.is_none()
        };
        if idle && !self.connecting.get() {
            self.set_phase(Phase::Connecting, None);
        }
    }

    /// The connection is gone for good (lost, or its session could not be renewed): `failed`.
    pub(super) fn gone(&self, error: &McpError) {
        if !self.state.borrow().closed {
            self.set_phase(Phase::Failed, Some(error));
        }
    }

    /// Keeps `result` as the `method` list when it is the complete one (see [`complete_list`]),
    /// and tells the host when it differs from the kept one: the same list again (a listener that
    /// lists on every change) changes nothing and tells nothing.
    pub(super) fn keep_listing(&self, method: &str, params: Option<&Value>, result: &Value) {
        let Some(kind) = ListKind::from_method(method) else {
            return;
        };
        let Some(items) = complete_list(kind, params, result) else {
            return;
        };
        {
            let mut lists = self.lists.borrow_mut();
            let kept = &mut lists[kind.index()];
            if kept.as_ref() == Some(&items) {
                return;
            }
            *kept = Some(items.clone());
        }
        self.host.list_changed(kind, &items);
    }

    /// After a `list_changed`: fetches the whole list again in the background (unless the
    /// option turned it off); a failed refetch reaches `messageHandler`.
    pub(super) fn list_announced(&self, method: &str) {
        let Some(kind) = ListKind::from_notification(method) else {
            return;
        };
        if !self.cfg.refresh_lists || self.state.borrow().closed {
            return;
        }
        let engine = self.rc();
        let task = async move {
            let opts = RequestOptions::with_timeout(engine.limits.timeout_ms);
            let pages = Some((kind.key(), REFETCH_MAX_PAGES));
            if let Err(e) = engine
                .request_pages(kind.method(), None, pages, &opts)
                .await
            {
                if !engine.state.borrow().closed {
                    engine.surface_error(e.with_context(format!(
                        "Could not fetch the {} list after its list_changed",
                        kind.key()
                    )));
                }
            }
        };
        self.host.spawn(task.boxed_local());
    }
}
