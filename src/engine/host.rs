//! What the engine needs from the place it runs: a clock and timers, a way to spawn tasks,
//! the user's callbacks and handlers, and cancellation. The wasm build implements [`Host`]
//! with JS timers and functions (`js::host`); tests implement it natively.

use crate::json::Value;
use crate::protocol::error::McpError;
use crate::session::lists::{ListKind, Phase};
use crate::session::server_requests::Answerer;
use crate::validate::output_schema::PatternMatcher;
use futures::future::LocalBoxFuture;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// Receives a call's `notifications/progress` params.
pub type ProgressReceiver = Rc<dyn Fn(&Value)>;

/// The engine's environment.
pub trait Host {
    /// Resolves after `ms` milliseconds (the timer is cleared when the future is dropped).
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;
    /// Milliseconds since the epoch.
    fn now_ms(&self) -> f64;
    /// Runs `task` to completion in the background.
    fn spawn(&self, task: LocalBoxFuture<'static, ()>);
    /// Calls the user's callback for `answerer` with `params` (nothing for roots) and a context
    /// of `request_id`, `meta` and a signal that fires with `cancel`; resolves with its value.
    fn call_back(
        &self,
        answerer: Answerer,
        params: &Value,
        request_id: &Value,
        cancel: &Cancel,
    ) -> LocalBoxFuture<'static, Result<Value, McpError>>;
    /// Hands a server notification (`{ method, params? }`) to `messageHandler`.
    fn notification(&self, message: &Value);
    /// Hands `notifications/message` params to `loggingCallback`.
    fn log(&self, params: &Value);
    /// Hands an error no call would see (transport faults, warnings) to `messageHandler`.
    fn surface_error(&self, error: McpError);
    /// The `pattern` matcher for output schemas (the host's regular expressions), if any.
    fn pattern_matcher(&self) -> Option<PatternMatcher>;
    /// `client.state` moved from `from` to `to` (`error`: why it is `failed`).
    fn phase_changed(&self, _to: Phase, _from: Phase, _error: Option<&McpError>) {}
    /// The complete `kind` list is now `items` (a refetch after `list_changed`, or a listing).
    fn list_changed(&self, _kind: ListKind, _items: &Value) {}
    /// True when a tracer listens for the steps inside requests (`engine::trace`).
    fn tracing(&self) -> bool {
        false
    }
    /// A step inside a request began or ended (`engine::trace::step_event`).
    fn trace(&self, _event: &Value) {}
}

/// A cancellation token: fired once, with an optional reason; futures wait for it, hooks run
/// when it fires (the JS host aborts an `AbortController` there).
#[derive(Clone, Default)]
pub struct Cancel(Rc<CancelState>);

#[derive(Default)]
struct CancelState {
    reason: RefCell<Option<Option<String>>>,
    wakers: RefCell<Vec<Waker>>,
    hooks: RefCell<Vec<Box<dyn FnOnce()>>>,
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancel")
            .field("fired", &self.is_fired())
            .finish()
    }
}

impl Cancel {
    /// A token that has not fired.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fires the token (once; later calls do nothing): wakes waiters, runs hooks.
    pub fn fire(&self, reason: Option<String>) {
        if self.is_fired() {
            return;
        }
        *self.0.reason.borrow_mut() = Some(reason);
        for w in self.0.wakers.borrow_mut().drain(..) {
            w.wake();
        }
        let hooks = std::mem::take(&mut *self.0.hooks.borrow_mut());
        for h in hooks {
            h();
        }
    }

    /// True once fired.
    pub fn is_fired(&self) -> bool {
        self.0.reason.borrow().is_some()
    }

    /// Runs `hook` when the token fires (at once if it already has).
    pub fn on_fire(&self, hook: impl FnOnce() + 'static) {
        if self.is_fired() {
            hook();
        } else {
            self.0.hooks.borrow_mut().push(Box::new(hook));
        }
    }

    /// Resolves with the reason once the token fires.
    pub fn fired(&self) -> Fired {
        Fired(self.clone())
    }
}

/// The future of [`Cancel::fired`].
#[derive(Debug)]
pub struct Fired(Cancel);

impl Future for Fired {
    type Output = Option<String>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<String>> {
        let state = &(self.0).0;
        if let Some(reason) = state.reason.borrow().as_ref() {
            return Poll::Ready(reason.clone());
        }
        let mut wakers = state.wakers.borrow_mut();
        if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
            wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

/// Runs `work`, or fails with a timeout naming `what` once `timer` (a sleep of `ms`) ends;
/// the one timeout race of the engine and the JS transports.
pub async fn within<T>(
    timer: LocalBoxFuture<'_, ()>,
    ms: u64,
    what: &str,
    work: impl Future<Output = Result<T, McpError>>,
) -> Result<T, McpError> {
    unless(work, timer)
        .await
        .unwrap_or_else(|()| Err(McpError::timeout(what, ms)))
}

/// Runs `work` to its end (`Ok`), unless `stop` resolves first (`Err` with its output);
/// `work` is polled first.
pub async fn unless<T, S>(
    work: impl Future<Output = T>,
    stop: impl Future<Output = S>,
) -> Result<T, S> {
    futures::pin_mut!(work, stop);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(t) = work.as_mut().poll(cx) {
            return Poll::Ready(Ok(t));
        }
        stop.as_mut().poll(cx).map(Err)
    })
    .await
}

/// Waits for `cancel` to fire, or forever when there is none.
pub async fn fired_or_never(cancel: Option<&Cancel>) -> Option<String> {
    match cancel {
        Some(c) => c.fired().await,
        None => futures::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn fires_once_with_its_reason_and_runs_hooks() {
        let c = Cancel::new();
        let ran = Rc::new(Cell::new(0));
        let r = ran.clone();
        c.on_fire(move || r.set(r.get() + 1));
        assert!(!c.is_fired());
        c.fire(Some("stop".into()));
        c.fire(Some("again".into()));
        assert_eq!(ran.get(), 1);
        assert_eq!(futures::executor::block_on(c.fired()), Some("stop".into()));
        let r = ran.clone();
        c.on_fire(move || r.set(r.get() + 10));
        assert_eq!(ran.get(), 11);
    }
}
