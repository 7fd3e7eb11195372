//! A JS promise as a future, for the promises every call awaits (the `fetch`, its body's text,
//! a body reader's chunks): one call into JS per promise (error.js `settleInto`), its outcome
//! handed back through one closure made once, where `wasm_bindgen_futures::JsFuture` makes two
//! closures per promise (each a wasm allocation and an entry in the glue's
//! FinalizationRegistry) and calls `then` itself. The outcome is delivered inside error.js's
//! `guard`, as every poll of a method's future is.

use crate::util::oneshot::{self, Waiting};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/js/boundary/error.js")]
extern "C" {
    #[wasm_bindgen(js_name = settleInto)]
    fn settle_into(promise: &JsValue, id: u32, settle: &js_sys::Function);
}

/// A promise's outcome: its value, or what it rejected with.
type Outcome = Result<JsValue, JsValue>;

thread_local! {
    /// The promises awaited now, by id (a few: one or two per call in flight).
    static WAITING: Waiting<Outcome> = const { Waiting::new() };
    /// What `settleInto` calls with each outcome.
    static SETTLE: Closure<dyn Fn(u32, bool, JsValue)> = Closure::new(settle);
}

fn settle(id: u32, fulfilled: bool, value: JsValue) {
    // None: its future was dropped first (the call ended another way).
    if let Some(tx) = WAITING.with(|w| w.take(id)) {
        let _ = tx.send(if fulfilled { Ok(value) } else { Err(value) });
    }
}

/// `promise` as a future (a value that is not a promise resolves to itself, as `await` has it).
pub fn awaited(promise: &JsValue) -> Awaited {
    let (id, rx) = WAITING.with(Waiting::open);
    SETTLE.with(|settle| settle_into(promise, id, settle.as_ref().unchecked_ref()));
    Awaited { id, rx }
}

/// The future of [`awaited`]; dropped before its promise settles, it forgets the promise.
#[derive(Debug)]
pub struct Awaited {
    id: u32,
    rx: oneshot::Receiver<Outcome>,
}

impl Future for Awaited {
    type Output = Outcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Outcome> {
        match Pin::new(&mut self.rx).poll(cx) {
            Poll::Ready(Ok(outcome)) => Poll::Ready(outcome),
            // Not reached: only `settle` (after sending) and `drop` let go of the sender.
            Poll::Ready(Err(oneshot::Canceled)) => Poll::Ready(Err(JsValue::UNDEFINED)),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Drop for Awaited {
    fn drop(&mut self) {
        drop(WAITING.with(|w| w.take(self.id)));
    }
}
