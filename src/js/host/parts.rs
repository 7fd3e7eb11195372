//! What the lean module's part loader (`__wasm_split.js`, finished by scripts/split-loader.mjs)
//! knows of a part that could not be loaded.

use js_sys::Reflect;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

#[wasm_bindgen(raw_module = "./__wasm_split.js")]
extern "C" {
    #[wasm_bindgen(js_name = partFailure)]
    fn part_failure(part: &str) -> JsValue;
}

/// The URL and the reason of the last failed load of `part` (its `#[wasm_split]` name).
pub fn failure(part: &str) -> Option<(String, String)> {
    let record = part_failure(part);
    if record.is_undefined() {
        return None;
    }
    // Read here, not through boundary::options::get: that module reaches the parts back (a
    // cycle tests/layering.rs refuses).
    let text = |key: &str| {
        Reflect::get(&record, &JsValue::from_str(key))
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    Some((text("url"), text("cause")))
}
