//! The wasm suite in Node (`wasm-pack test --node`).
#![cfg(target_arch = "wasm32")]

#[path = "wasm_suite/mod.rs"]
mod wasm_suite;

crate::wasm_suite!();
