//! The snippets `client.js` imports only when used (`import("./tracing.js")`, for a client with a
//! `tracer`), named here so that wasm-bindgen writes them beside `client.js` in every build, a
//! plain `wasm-pack build` too: an import of the module that no Rust code calls makes wasm-bindgen
//! copy the file (an empty `extern` block does not), and the linker drops the unused import, so
//! the glue imports nothing of it and a page without a tracer never fetches it.
//! (`scripts/build-wasm.sh` checks both.)

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/api/tracing.js")]
extern "C" {
    /// tracing.js's `traceContext` (never called from Rust: naming it is what writes the file).
    #[allow(dead_code)]
    #[wasm_bindgen(js_name = traceContext)]
    fn trace_context(span: &JsValue) -> JsValue;
}
