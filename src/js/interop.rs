//! Every JSON ↔ JS value conversion. A value crosses the boundary once, as JSON text, and the
//! host's own `JSON.parse` / `JSON.stringify` build or read the JS objects (plain objects, never
//! `Map`s): one copy and one native parse instead of a call per field.

use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> JsValue;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// A JSON value as a plain JS value (objects, arrays, numbers, strings, null).
pub fn to_js(v: &Value) -> JsValue {
    match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::String(s) => JsValue::from_str(s),
        // serde_json writes only valid JSON, which JSON.parse cannot reject.
        _ => json_parse(&v.to_string()),
    }
}

/// A JS value as JSON (what `JSON.stringify` makes of it: `toJSON` is honoured, functions and
/// `undefined` members are left out); the error names what could not be converted.
pub fn from_js(v: &JsValue) -> Result<Value, String> {
    if v.is_undefined() || v.is_null() {
        return Ok(Value::Null);
    }
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    let text = match json_stringify(v) {
        Ok(t) => t.as_string(),
        Err(e) => {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "JSON.stringify threw".into());
            return Err(format!("not JSON-serializable: {why}"));
        }
    };
    let Some(text) = text else {
        return Err(format!("not JSON-serializable: a {}", type_name(v)));
    };
    serde_json::from_str(&text).map_err(|e| format!("not JSON-serializable: {e}"))
}

/// `typeof v`, for errors.
fn type_name(v: &JsValue) -> String {
    v.js_typeof().as_string().unwrap_or_else(|| "value".into())
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
