//! The only wasm-bindgen surface, in wings with one job each: the exported API ([`api`]), the
//! JS boundary ([`boundary`]: reading options, `McpError`, JSON ↔ JS), the engine's host
//! ([`host`]: callbacks, timers, abort), HTTP ([`http`]: fetch, Streamable HTTP, HTTP+SSE, SSE
//! bodies), transports written in JavaScript ([`transports`]) and the authorization host
//! (`auth`, only with the `auth` feature). Everything here moves bytes and JS values; protocol
//! rules live in `protocol`/`session`, sequencing in `engine`.

mod api;
#[cfg(feature = "auth")]
mod auth;
mod boundary;
pub(crate) mod host;
mod http;
mod transports;

pub use api::client::Client;
pub use boundary::error::McpError;

use wasm_bindgen::prelude::*;

/// A method's future as a JS promise. Every method boxes its future into this one
/// `future_to_promise` instantiation (each distinct future type would otherwise get its own copy
/// of the promise machinery). Tracked, so a trap elsewhere settles it too (see [`promise_at`]).
pub(crate) fn promise(f: LocalFuture<Result<JsValue, JsValue>>) -> js_sys::Promise {
    let none = JsValue::UNDEFINED;
    boundary::error::track(&promise_at(f, none.clone()), &none)
}

/// [`promise`] of a call begun at `site` (a `boundary::error::call_site`): a trap while polling
/// it rejects it as that call's failure.
pub(crate) fn promise_at(
    f: LocalFuture<Result<JsValue, JsValue>>,
    site: JsValue,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(Guarded {
        inner: Some(f),
        site,
        fail: Err,
    })
}

/// Runs a background task; like [`promise`], the one `spawn_local` instantiation.
pub(crate) fn spawn(f: LocalFuture<()>) {
    wasm_bindgen_futures::spawn_local(Guarded {
        inner: Some(f),
        site: JsValue::UNDEFINED,
        fail: drop,
    })
}

type LocalFuture<T> = std::pin::Pin<Box<dyn std::future::Future<Output = T>>>;

/// A future each poll of which runs in `boundary::error::guarded`, so a panic in it (a trap)
/// poisons the instance instead of escaping into wasm-bindgen-futures' queue (which it would
/// leave stuck, the call's promise never settling): it then ends with `fail` of the error. Once
/// the instance is poisoned, the inner future is neither polled nor dropped (its state may be
/// half done; dropping it could trap again): it is leaked.
struct Guarded<T> {
    inner: Option<LocalFuture<T>>,
    site: JsValue,
    fail: fn(JsValue) -> T,
}

impl<T> std::future::Future for Guarded<T> {
    type Output = T;
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<T> {
        let this = &mut *self;
        let Some(inner) = this.inner.as_mut() else {
            return std::task::Poll::Pending;
        };
        match boundary::error::guarded(&this.site, || inner.as_mut().poll(cx)) {
            Ok(poll) => poll,
            Err(e) => {
                std::mem::forget(this.inner.take());
                std::task::Poll::Ready((this.fail)(e))
            }
        }
    }
}

impl<T> Drop for Guarded<T> {
    fn drop(&mut self) {
        if boundary::error::poisoned() {
            std::mem::forget(self.inner.take());
        }
    }
}

/// Runs once when the module is instantiated. wasm-bindgen exports it too: internal, so not in
/// the declarations (nor in the npm entries: scripts/package.sh's INTERNAL).
#[wasm_bindgen(start, skip_typescript)]
pub fn start() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    boundary::error::install_error_prototype();
    api::group::install_client();
}

/// Bytes of linear memory the wasm instance holds (for memory checks and benchmarks: internal,
/// in the raw glue only, not in the declarations nor the npm entries).
#[wasm_bindgen(js_name = wasmMemoryBytes, skip_typescript)]
pub fn wasm_memory_bytes() -> f64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|m| {
            m.buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length() as f64
        })
        .unwrap_or(0.0)
}
