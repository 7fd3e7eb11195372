//! Every JSON ↔ JS value conversion, and which path each takes:
//!
//! * Scalars cross directly: `null`, booleans, strings and numbers as themselves (a number as
//!   an `f64`; in, a safe integer stays an integer, NaN and the infinities become `null`, as
//!   `JSON.stringify` writes them).
//! * Objects and arrays cross once, as JSON text, and the host's own `JSON.parse` /
//!   `JSON.stringify` build or read the JS objects: one copy and one native parse instead of a
//!   call per field, and the semantics the API documents. Out, a member named `__proto__` stays a
//!   member (JSON.parse defines members; serde-wasm-bindgen's serializer assigns them, which would
//!   set the prototype of a server's object). In, what `JSON.stringify` makes of a value: `toJSON`
//!   honoured, `undefined` members left out (serde-wasm-bindgen's deserializer reads them as
//!   `null` and a `Date` as `{}`). serde-wasm-bindgen is therefore not used for JSON values; it
//!   carries the typed records of fixed fields the authorization helpers exchange with Rust
//!   (`js::auth::outcome`: `authFetch`'s request and answer, a helper's failure).
//! * Strings of 16 KiB or more cross on their own (one UTF-8 decode) instead of inside JSON text,
//!   and strings a large body left in JS (`held`) are put back into what goes out.

use crate::js::boundary::held;
use crate::json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> JsValue;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// Strings at least this long cross on their own (one UTF-8 decode) instead of inside JSON text,
/// where they would be escaped in Rust and unescaped again by `JSON.parse`.
const LONG_STRING: usize = 16 * 1024;

/// A JSON value as a plain JS value (objects, arrays, numbers, strings, null).
pub fn to_js(v: &Value) -> JsValue {
    match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::String(s) if held::is_mark(s) => held::restore(JsValue::from_str(s)),
        Value::String(s) => JsValue::from_str(s),
        Value::Number(n) => number_to_js(n),
        _ if !has_long_string(v) => json_text_to_js(&v.to_string()),
        Value::Array(items) => items.iter().map(to_js).collect::<js_sys::Array>().into(),
        Value::Object(members) => {
            let o = js_sys::Object::new();
            for (k, x) in members {
                // Defined, not assigned: a "__proto__" member stays a member, as with JSON.parse.
                let d = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&d, &"value".into(), &to_js(x));
                for flag in ["writable", "enumerable", "configurable"] {
                    let _ = js_sys::Reflect::set(&d, &flag.into(), &JsValue::TRUE);
                }
                let _ = js_sys::Reflect::define_property(&o, &k.into(), &d);
            }
            o.into()
        }
    }
}

/// A number as a JS number (a `u64` beyond 2^53 rounded, as `JSON.parse` would).
fn number_to_js(n: &crate::json::Number) -> JsValue {
    n.as_f64().map_or(JsValue::NULL, JsValue::from_f64)
}

/// A JS number as JSON: a safe integer as an integer, NaN and the infinities as `null`.
fn number_from_js(n: f64) -> Value {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if n.fract() == 0.0 && n.abs() <= MAX_SAFE {
        Value::from(n as i64)
    } else {
        Value::from(n)
    }
}

/// JSON text that serde_json wrote (which `JSON.parse` cannot reject) as a plain JS value, in one
/// native parse, held strings put back.
pub fn json_text_to_js(text: &str) -> JsValue {
    if held::has_marks(text) {
        held::restore(json_parse(text))
    } else {
        json_parse(text)
    }
}

/// JSON text the client wrote itself (a `fetch` init: no held strings in it) as a plain JS value,
/// in one native parse, made once while the text stays the same: the last text and its value
/// (every request of a session sends the same headers).
#[derive(Default)]
pub struct ParsedOnce(std::cell::RefCell<Option<(String, JsValue)>>);

impl ParsedOnce {
    /// `text` as a JS value: the last one's when it is the same text, else parsed now.
    pub fn get(&self, text: String) -> JsValue {
        let mut last = self.0.borrow_mut();
        match &*last {
            Some((made_from, value)) if *made_from == text => value.clone(),
            _ => {
                let value = json_parse(&text);
                *last = Some((text, value.clone()));
                value
            }
        }
    }
}

/// Whether `v` holds a string of [`LONG_STRING`] bytes or more.
fn has_long_string(v: &Value) -> bool {
    match v {
        Value::String(s) => s.len() >= LONG_STRING,
        Value::Array(a) => a.iter().any(has_long_string),
        Value::Object(o) => o.values().any(has_long_string),
        _ => false,
    }
}

/// A JS value as JSON (what `JSON.stringify` makes of it: `toJSON` is honoured, functions and
/// `undefined` members are left out); the error names what could not be converted.
pub fn from_js(v: &JsValue) -> Result<Value, String> {
    if v.is_null_or_undefined() {
        return Ok(Value::Null);
    }
    if let Some(s) = v.as_string() {
        return Ok(Value::String(s));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = v.as_f64() {
        return Ok(number_from_js(n));
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
    crate::json::from_str(&text).map_err(|e| format!("not JSON-serializable: {e}"))
}

/// A JS object as JSON, refused (`Err(Some(length))`) when its JSON text is longer than
/// `max_bytes` UTF-16 units: checked on the JS string, before it is copied into wasm memory
/// (the UTF-8 copy is at most 3 times that). `Err(None)`: not JSON (see [`from_js`]). (For JS
/// transports' messages: the `js-transport` feature.)
#[cfg(feature = "js-transport")]
pub fn from_js_capped(v: &JsValue, max_bytes: usize) -> Result<Value, Option<u32>> {
    let text = json_stringify(v).map_err(|_| None)?;
    let length = text.dyn_ref::<js_sys::JsString>().map_or(0, |s| s.length());
    if length as usize > max_bytes {
        return Err(Some(length));
    }
    let text = text.as_string().ok_or(None)?;
    crate::json::from_str(&text).map_err(|_| None)
}

/// A JS value as text for an error message: its JSON (`42`, `{"a":1}`), or `undefined`, or what
/// kept it from being JSON. (Not `{:?}`: JsValue's Debug brings wasm-bindgen's debugString glue.)
pub fn describe(v: &JsValue) -> String {
    match from_js(v) {
        Ok(Value::Null) if v.is_undefined() => "undefined".into(),
        Ok(json) => json.to_string(),
        Err(why) => why,
    }
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
