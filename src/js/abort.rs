//! Futures for JS time and cancellation: a timer, and an `AbortSignal` that resolves when
//! aborted; both clean up after themselves when dropped.

use crate::protocol::error::McpError;
use futures::channel::oneshot;
use futures::FutureExt;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

/// Sleeps `ms` milliseconds on the JS event loop (cleared when dropped).
pub async fn sleep(ms: u64) {
    gloo_timers::future::TimeoutFuture::new(ms.min(u32::MAX as u64) as u32).await;
}

/// Runs `fut`, or fails with a timeout error naming `what` after `ms` milliseconds (the
/// future is dropped then).
pub async fn within<T>(
    ms: u64,
    what: &str,
    fut: impl std::future::Future<Output = Result<T, McpError>>,
) -> Result<T, McpError> {
    let work = fut.fuse();
    let timer = sleep(ms).fuse();
    futures::pin_mut!(work, timer);
    futures::select! {
        r = work => r,
        _ = timer => Err(McpError::timeout(what, ms)),
    }
}

/// Resolves with the abort reason text when `signal` fires; removes its listener when dropped.
pub struct AbortWait {
    signal: AbortSignal,
    closure: Option<Closure<dyn FnMut()>>,
    rx: oneshot::Receiver<()>,
}

impl AbortWait {
    /// Watches `signal`.
    pub fn new(signal: AbortSignal) -> Self {
        let (tx, rx) = oneshot::channel();
        let tx = Rc::new(RefCell::new(Some(tx)));
        let closure = Closure::<dyn FnMut()>::new(move || {
            if let Some(tx) = tx.borrow_mut().take() {
                let _ = tx.send(());
            }
        });
        let _ = signal.add_event_listener_with_callback("abort", closure.as_ref().unchecked_ref());
        AbortWait {
            signal,
            closure: Some(closure),
            rx,
        }
    }

    /// Waits for the abort; returns the reason as text, if it has one.
    pub async fn fired(&mut self) -> Option<String> {
        if !self.signal.aborted() {
            let _ = (&mut self.rx).await;
        }
        reason_text(&self.signal.reason())
    }
}

impl Drop for AbortWait {
    fn drop(&mut self) {
        if let Some(c) = self.closure.take() {
            let _ = self
                .signal
                .remove_event_listener_with_callback("abort", c.as_ref().unchecked_ref());
        }
    }
}

fn reason_text(reason: &JsValue) -> Option<String> {
    if reason.is_undefined() || reason.is_null() {
        return None;
    }
    if let Some(s) = reason.as_string() {
        return Some(s);
    }
    js_sys::Reflect::get(reason, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
}

/// Aborts its controller when dropped: ends the fetch and its body stream with the call.
pub struct AbortOnDrop {
    controller: web_sys::AbortController,
    armed: bool,
}

impl AbortOnDrop {
    /// Aborts `controller` when dropped, unless disarmed.
    pub fn new(controller: web_sys::AbortController) -> Self {
        AbortOnDrop {
            controller,
            armed: true,
        }
    }

    /// The request and its body are finished: nothing to abort (aborting costs a DOMException).
    pub fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.controller.abort();
        }
    }
}
