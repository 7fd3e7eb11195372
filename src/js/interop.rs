//! Every JSON ↔ JS value conversion: plain objects, never `Map`s.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsValue;

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
