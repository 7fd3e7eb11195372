//! The only wasm-bindgen surface: the `Client` class, `McpError`, the engine's JS host, the
//! fetch transports, and transports written in JavaScript. Everything here moves bytes and JS values; protocol rules live in
//! `protocol`/`session`, sequencing in `engine`.

mod abort;
mod auth;
mod client;
mod error;
mod forms;
mod host;
mod http;
mod http_sse;
mod interop;
mod js_transport;
mod listen;
mod options;
mod sse_body;
mod streamable_http;
mod transports;
mod types;

pub use client::Client;
pub use error::McpError;

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    error::install_error_prototype();
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
