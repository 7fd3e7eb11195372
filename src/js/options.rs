//! Reading the options objects JS passes (`new Client(url, options)`, per-call options), with
//! errors that name the offending option.

use crate::engine::RequestOptions;
use crate::js::abort::SignalLink;
use crate::js::host::call_handler;
use crate::js::interop;
use crate::protocol::error::McpError;
use crate::protocol::version::Mode;
use js_sys::{Function, Object, Reflect};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

/// Default per-request timeout.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() {
        Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// True when `obj` is an object whose `key` is neither undefined nor null.
pub fn present(obj: &JsValue, key: &str) -> bool {
    !get(obj, key).is_null_or_undefined()
}

/// A URL argument: a string, or an object with a string `href` (a `URL`).
pub fn url_text(v: &JsValue) -> Option<String> {
    v.as_string().or_else(|| {
        v.is_object()
            .then(|| js_sys::Reflect::get(v, &"href".into()).ok())
            .flatten()
            .and_then(|h| h.as_string())
    })
}

/// A non-empty string argument, or the error naming it.
pub fn non_empty(v: &JsValue, what: &str, arg: &str) -> Result<String, McpError> {
    v.as_string()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| McpError::input(format!("{what}: {arg} must be a non-empty string")))
}

/// An optional plain-object argument (absent: `None`), or the error naming it.
pub fn optional_object(v: &JsValue, what: &str, arg: &str) -> Result<Option<Value>, McpError> {
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    match interop::from_js(v) {
        Ok(o @ Value::Object(_)) if !js_sys::Array::is_array(v) => Ok(Some(o)),
        Ok(_) => Err(McpError::input(format!("{what}: {arg} must be an object"))),
        Err(e) => Err(McpError::input(format!(
            "{what}: {arg} are not JSON-serializable: {e}"
        ))),
    }
}

/// Reads an optional string option.
pub fn string(obj: &JsValue, key: &str, scope: &str) -> Result<Option<String>, McpError> {
    let v = get(obj, key);
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    v.as_string()
        .map(Some)
        .ok_or_else(|| McpError::input(format!("{scope}.{key} must be a string")))
}

/// Reads an optional function option.
pub fn function(obj: &JsValue, key: &str, scope: &str) -> Result<Option<Function>, McpError> {
    let v = get(obj, key);
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    v.dyn_into::<Function>()
        .map(Some)
        .map_err(|_| McpError::input(format!("{scope}.{key} must be a function")))
}

/// Reads an optional positive number (milliseconds, bytes, a count), rounded up.
pub fn positive_number(obj: &JsValue, key: &str, scope: &str) -> Result<Option<u64>, McpError> {
    let v = get(obj, key);
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n > 0.0 => Ok(Some(n.ceil() as u64)),
        _ => Err(McpError::input(format!(
            "{scope}.{key} must be a positive number"
        ))),
    }
}

/// Reads an optional JSON-able object option.
pub fn json_object(obj: &JsValue, key: &str, scope: &str) -> Result<Option<Value>, McpError> {
    let v = get(obj, key);
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    match interop::from_js(&v) {
        Ok(Value::Object(o)) => Ok(Some(Value::Object(o))),
        Ok(_) => Err(McpError::input(format!("{scope}.{key} must be an object"))),
        Err(e) => Err(McpError::input(format!(
            "{scope}.{key} is not JSON-serializable: {e}"
        ))),
    }
}

/// Reads an optional `AbortSignal`.
pub fn signal(obj: &JsValue, key: &str, scope: &str) -> Result<Option<AbortSignal>, McpError> {
    let v = get(obj, key);
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    let has_api = get(&v, "addEventListener").is_function() && !get(&v, "aborted").is_undefined();
    if has_api {
        Ok(Some(v.unchecked_into()))
    } else {
        Err(McpError::input(format!(
            "{scope}.{key} must be an AbortSignal"
        )))
    }
}

/// Reads the `headers` option as `fetch` takes it: a plain object of string values, a
/// `Headers`, or any iterable of `[name, value]` pairs.
pub fn headers(obj: &JsValue, scope: &str) -> Result<Vec<(String, String)>, McpError> {
    let v = get(obj, "headers");
    if v.is_null_or_undefined() {
        return Ok(Vec::new());
    }
    let shape = || {
        McpError::input(format!(
            "{scope}.headers must be an object of header names to string values, a Headers, or [name, value] pairs"
        ))
    };
    if !v.is_object() {
        return Err(shape());
    }
    // A Headers, a Map or an array of pairs iterates; a plain object does not.
    let entries: Vec<JsValue> = match js_sys::try_iter(&v) {
        Ok(Some(iter)) => iter.collect::<Result<_, _>>().map_err(|_| shape())?,
        _ => Object::entries(v.unchecked_ref()).iter().collect(),
    };
    let mut out = Vec::new();
    for entry in entries {
        if !js_sys::Array::is_array(&entry) {
            return Err(shape());
        }
        let pair: js_sys::Array = entry.unchecked_into();
        let name = pair.get(0).as_string().unwrap_or_default();
        let Some(value) = pair.get(1).as_string() else {
            return Err(McpError::input(format!(
                "{scope}.headers[{name:?}] must be a string"
            )));
        };
        out.push((name, value));
    }
    Ok(out)
}

/// The `mode` option.
pub fn mode(obj: &JsValue) -> Result<Mode, McpError> {
    match string(obj, "mode", "options")? {
        None => Ok(Mode::Auto),
        Some(m) => Mode::parse(&m).map_err(|e| McpError::input(format!("options.{e}"))),
    }
}

/// Reads an optional boolean option.
pub fn boolean(obj: &JsValue, key: &str, scope: &str) -> Result<Option<bool>, McpError> {
    let v = get(obj, key);
    if v.is_null_or_undefined() {
        return Ok(None);
    }
    v.as_bool()
        .map(Some)
        .ok_or_else(|| McpError::input(format!("{scope}.{key} must be a boolean")))
}

/// Reads per-call options `{ signal, timeoutMs, onProgress, resetTimeoutOnProgress,
/// maxTotalTimeoutMs }`; the link keeps `signal` wired to the call's cancel token while alive.
pub fn call_options(
    obj: &JsValue,
    default_timeout_ms: u64,
) -> Result<(RequestOptions, Option<SignalLink>), McpError> {
    if !obj.is_null_or_undefined() && !obj.is_object() {
        return Err(McpError::input("call options must be an object"));
    }
    let link = signal(obj, "signal", "options")?.map(SignalLink::new);
    let on_progress = function(obj, "onProgress", "options")?.map(|f| {
        Rc::new(move |params: &Value| call_handler(&f, &interop::to_js(params)))
            as Rc<dyn Fn(&Value)>
    });
    let opts = RequestOptions {
        timeout_ms: positive_number(obj, "timeoutMs", "options")?.unwrap_or(default_timeout_ms),
        cancel: link.as_ref().map(|(c, _)| c.clone()),
        on_progress,
        reset_timeout_on_progress: boolean(obj, "resetTimeoutOnProgress", "options")?
            .unwrap_or(true),
        max_total_timeout_ms: positive_number(obj, "maxTotalTimeoutMs", "options")?,
    };
    Ok((opts, link.map(|(_, l)| l)))
}
