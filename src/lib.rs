//! mcp-wasm-client: a Model Context Protocol client compiled to WebAssembly.
//!
//! Everything MCP means lives in pure Rust (`protocol`, `session`, `transport::sse`) and is
//! tested natively; the `js` module (wasm32 only) is the thin wasm-bindgen surface.

#![warn(missing_docs, missing_debug_implementations)]

pub mod auth;
pub mod engine;
pub mod protocol;
pub mod session;
pub mod transport;

#[cfg(target_arch = "wasm32")]
pub mod js;
