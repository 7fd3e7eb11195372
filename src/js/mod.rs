//! The only wasm-bindgen surface: the `Client` class, `McpError`, and the fetch transport.
//! Everything here moves bytes and JS values; protocol rules live in `protocol`/`session`.

mod abort;
mod callbacks;
mod client;
mod driver;
mod error;
mod http;
mod interop;
mod listen;
mod options;

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
