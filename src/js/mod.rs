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
mod host;
mod http;
mod transports;

pub use api::client::Client;
pub use boundary::error::McpError;

use wasm_bindgen::prelude::*;

/// A method's future as a JS promise. Every method boxes its future into this one
/// `future_to_promise` instantiation (each distinct future type would otherwise get its own copy
/// of the promise machinery).
pub(crate) fn promise(
    f: std::pin::Pin<Box<dyn std::future::Future<Output = Result<JsValue, JsValue>>>>,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(f)
}

/// Runs a background task; like [`promise`], the one `spawn_local` instantiation.
pub(crate) fn spawn(f: std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>) {
    wasm_bindgen_futures::spawn_local(f)
}

/// Runs once when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    boundary::error::install_error_prototype();
    api::group::install_client();
}

/// Bytes of linear memory the wasm instance holds (for memory checks and benchmarks).
#[wasm_bindgen(js_name = wasmMemoryBytes)]
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
