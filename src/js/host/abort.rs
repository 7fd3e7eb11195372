//! JS time and cancellation for the engine: a timer future, a link from a caller's
//! `AbortSignal` to an engine [`Cancel`], a controller that aborts a fetch when dropped, and
//! [`new_controller`].

use crate::engine::Cancel;
use crate::js::boundary::error::error_text;
use crate::json::Value;
use crate::protocol::error::{ErrorKind, McpError, INVALID_REQUEST};
use crate::util::oneshot::Waiting;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{AbortController, AbortSignal};

#[wasm_bindgen]
extern "C" {
    /// `setTimeout(handler, timeout, id)`: the handler is called with `id`.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &js_sys::Function, timeout: i32, id: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(handle: &JsValue);
}

thread_local! {
    /// The timers running now, by id (a few: about one per call in flight).
    static TIMERS: Waiting<()> = const { Waiting::new() };
    /// Every timer's handler, made once (a closure per timer is a wasm allocation and an entry
    /// in the glue's FinalizationRegistry, and every request runs one).
    static FIRE: Closure<dyn Fn(u32)> = Closure::new(|id| {
        if let Some(tx) = TIMERS.with(|t| t.take(id)) {
            let _ = tx.send(());
        }
    });
}

/// A `setTimeout` handle, cleared (and forgotten) when dropped.
struct Timer {
    handle: JsValue,
    id: u32,
}

impl Drop for Timer {
    fn drop(&mut self) {
        clear_timeout(&self.handle);
        drop(TIMERS.with(|t| t.take(self.id)));
    }
}

/// Sleeps `ms` milliseconds on the JS event loop (cleared when dropped). The timer wakes the
/// crate's own oneshot channel: no gloo-timers, no futures channel.
pub async fn sleep(ms: u64) {
    let (id, rx) = TIMERS.with(Waiting::open);
    let handle = FIRE.with(|fire| {
        set_timeout(
            fire.as_ref().unchecked_ref(),
            ms.min(u32::MAX as u64) as u32 as i32,
            id,
        )
    });
    let _timer = Timer { handle, id };
    let _ = rx.await;
}

/// Keeps a caller's `AbortSignal` linked to a [`Cancel`]; removes its listener when dropped,
/// so one signal reused for many calls collects no listeners.
#[derive(Debug)]
pub struct SignalLink {
    signal: AbortSignal,
    listener: Option<Closure<dyn FnMut()>>,
}

impl SignalLink {
    /// A token that fires (with the signal's reason as text) when `signal` aborts.
    pub fn new(signal: AbortSignal) -> (Cancel, SignalLink) {
        let cancel = Cancel::new();
        if signal.aborted() {
            cancel.fire(reason_text(&signal.reason()));
            let link = SignalLink {
                signal,
                listener: None,
            };
            return (cancel, link);
        }
        let (c, s) = (cancel.clone(), signal.clone());
        let listener = Closure::<dyn FnMut()>::new(move || c.fire(reason_text(&s.reason())));
        let _ = signal.add_event_listener_with_callback("abort", listener.as_ref().unchecked_ref());
        let link = SignalLink {
            signal,
            listener: Some(listener),
        };
        (cancel, link)
    }
}

impl Drop for SignalLink {
    fn drop(&mut self) {
        if let Some(l) = self.listener.take() {
            let _ = self
                .signal
                .remove_event_listener_with_callback("abort", l.as_ref().unchecked_ref());
        }
    }
}

/// An `AbortSignal` that aborts when `cancel` fires (a callback's `context.signal`).
pub fn signal_for(cancel: &Cancel) -> Option<AbortSignal> {
    let controller = AbortController::new().ok()?;
    let signal = controller.signal();
    cancel.on_fire(move || controller.abort());
    Some(signal)
}

fn reason_text(reason: &JsValue) -> Option<String> {
    if reason.is_null_or_undefined() {
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

/// Aborts its controller when dropped: ends the fetch and its body stream with the exchange.
#[derive(Debug)]
pub struct AbortOnDrop {
    controller: AbortController,
    armed: bool,
}

impl AbortOnDrop {
    /// Aborts `controller` when dropped, unless disarmed.
    pub fn new(controller: AbortController) -> Self {
        AbortOnDrop {
            controller,
            armed: true,
        }
    }

    /// The signal of the guarded controller.
    pub fn signal(&self) -> AbortSignal {
        self.controller.signal()
    }

    /// The request and its body are finished: nothing to abort (an abort is an event through
    /// the fetch's signals).
    pub fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if self.armed {
            // With one reason made once: `abort()` makes a new DOMException (a stack capture)
            // every time, and an SSE exchange ends here on every call. Nobody sees the reason:
            // its owner (the exchange) is gone, and a fetch it cut short still rejects with an
            // error named "AbortError".
            ENDED.with(|reason| self.controller.abort_with_reason(reason));
        }
    }
}

thread_local! {
    /// The reason [`AbortOnDrop`] aborts with: an `Error` named "AbortError", made once.
    static ENDED: JsValue = {
        let e = js_sys::Error::new("The exchange ended");
        e.set_name("AbortError");
        e.into()
    };
}

/// A new `AbortController`, or the error saying the host has none.
pub fn new_controller() -> Result<AbortController, McpError> {
    AbortController::new().map_err(|e| {
        McpError::local(
            INVALID_REQUEST,
            ErrorKind::Network,
            format!("AbortController unavailable: {}", error_text(&e)),
            Value::Null,
        )
    })
}
