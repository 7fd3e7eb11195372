//! `testPanic(mode)`: a panic on demand, for tests/js/panic.test.mjs. Only in a build with the
//! `test-panic` Cargo feature (off by default; `scripts/test.sh` builds pkg/nodejs-panic with it,
//! the package never has it).

use crate::js::api::client::Client;
use crate::js::api::settle::promise_for;
use crate::js::boundary::error as jserr;
use js_sys::Promise;
use wasm_bindgen::prelude::*;

/// Panics in the call (`"sync"`: a synchronous export, which throws) or inside its future after a
/// turn of the event loop (`"async"`); any other mode resolves to `mode` (a call that works).
#[wasm_bindgen(js_name = testPanic, skip_typescript)]
pub fn test_panic(mode: String) -> Result<Promise, JsValue> {
    match mode.as_str() {
        "sync" => jserr::guarded(&JsValue::UNDEFINED, || panic!("testPanic")),
        _ => Ok(promise_for(Ok(mode), |mode| async move {
            let tick = Promise::resolve(&JsValue::UNDEFINED);
            let _ = wasm_bindgen_futures::JsFuture::from(tick).await;
            if mode == "async" {
                panic!("testPanic");
            }
            Ok(JsValue::from(mode))
        })),
    }
}

/// `client.testPanicSync()`: a `Client` method that panics in its synchronous part (before it
/// makes its promise), which the facade (`client.js`) turns into an `internal` McpError.
#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// Panics at once (a trap in release builds), never returning its promise.
    #[wasm_bindgen(js_name = testPanicSync, skip_typescript)]
    pub fn test_panic_sync(&self) -> Promise {
        panic!("testPanicSync")
    }
}
