//! The wasm suite in headless Chromium (`wasm-pack test --headless --chrome`).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "wasm_suite/mod.rs"]
mod wasm_suite;

crate::wasm_suite!();
