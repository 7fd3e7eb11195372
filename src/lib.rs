//! mcp-wasm-client: a Model Context Protocol client compiled to WebAssembly.
//!
//! Everything MCP means lives in pure Rust (`protocol`, `session`, `transport::sse`) and is
//! tested natively; the `js` module (wasm32 only) is the thin wasm-bindgen surface.
//!
//! Authorization (`auth`, and `js::auth` in wasm) is the `auth` Cargo feature, on by default;
//! without it the crate is the npm package's `mcp-wasm-client/core` entry.

#![warn(missing_docs, missing_debug_implementations)]

// The wasm heap: Talc instead of std's dlmalloc (smaller; see Cargo.toml).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "auth")]
pub mod auth;
/// OAuth authorization without the `auth` feature: the `WWW-Authenticate` parser (a 401's
/// `unauthorized` error still names the challenge's `resource_metadata` and `scope`, its valid
/// scope-tokens by `scopes`) and the seam HTTP sends through (with no flow to implement it, no
/// request ever takes that path).
#[cfg(not(feature = "auth"))]
pub mod auth {
    pub mod challenge;
    pub mod scopes;
    pub mod seam;
}
pub mod engine;
pub mod json;
pub mod parts;
pub mod protocol;
pub mod session;
pub mod transport;
pub mod util;
pub mod validate;

#[cfg(target_arch = "wasm32")]
pub mod js;
