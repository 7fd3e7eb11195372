//! Criterion micro-benchmarks of the SSE parser and JSON-RPC decode (native only; the wasm
//! target, built by `cargo clippy --all-targets --target wasm32-unknown-unknown`, gets an empty
//! main).

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
include!("native/parsers.rs");
