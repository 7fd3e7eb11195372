//! Every JSON ↔ JS value conversion: plain objects, never `Map`s.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// A JSON value as a plain JS value (objects, arrays, numbers, strings, null).
pub fn to_js(v: &Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
}

/// A JS value as JSON; the error names what could not be converted.
pub fn from_js(v: &JsValue) -> Result<Value, String> {
    if v.is_undefined() {
        return Ok(Value::Null);
    }
    serde_wasm_bindgen::from_value(v.clone()).map_err(|e| e.to_string())
}

/// ECMA-262 `pattern` test with the host's `RegExp` (`u` flag); `None` for an invalid pattern.
pub fn regex_test(pattern: &str, text: &str) -> Option<bool> {
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"RegExp".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let args = js_sys::Array::of2(&pattern.into(), &"u".into());
    let re: js_sys::RegExp = js_sys::Reflect::construct(&ctor, &args)
        .ok()?
        .dyn_into()
        .ok()?;
    Some(re.test(text))
}
