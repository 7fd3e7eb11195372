//! `McpError`, the JS class every rejection uses: a real `Error` subclass written in JavaScript
//! (`error.js`) with own `code`, `message` and `data`; constructible from JS as
//! `new McpError(code, message, data?)`, rebuilt after structured clone by `McpError.from(obj)`.
//! The glue exports a class of that name (below) that `error.js` makes stand for the JS one.

use crate::protocol::error::McpError as CoreError;
use crate::protocol::error::{ErrorParts, INTERNAL_ERROR};
use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/boundary/error.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    fn make_error(code: &JsValue, message: &JsValue, data: &JsValue, site: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = callSite)]
    fn js_call_site() -> JsValue;
    fn adopt(exported: &JsValue);
    #[wasm_bindgen(js_name = guard)]
    fn js_guard(f: &mut dyn FnMut(), site: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = track)]
    fn js_track(p: &js_sys::Promise, site: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = isPoisoned)]
    fn js_is_poisoned() -> bool;
}

/// The exported name `McpError`: `error.js` gives it the JS class's `instanceof`, `from` and
/// prototype (without `free()`); `new McpError(...)` returns an instance of the JS class.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct McpError;

#[wasm_bindgen]
impl McpError {
    /// `new McpError(code, message, data?)`: `code` as by `Number(code)` (-32603 when that is
    /// not a number), `message` as by `String(message)` like `Error` (empty when absent).
    #[allow(clippy::new_ret_no_self)]
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] code: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] data: Option<JsValue>,
    ) -> JsValue {
        install_error_prototype();
        let data = data.unwrap_or(JsValue::UNDEFINED);
        make_error(&code, &message, &data, &JsValue::UNDEFINED)
    }
}

thread_local! {
    static PROTOTYPE_INSTALLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes the exported `McpError` stand for the JS class (`error.js`'s `adopt`), once; also run
/// lazily, since a host may skip the module's start function.
pub fn install_error_prototype() {
    if PROTOTYPE_INSTALLED.with(|p| p.replace(true)) {
        return;
    }
    if let Ok(exported) = Reflect::get(&JsValue::from(McpError), &"constructor".into()) {
        adopt(&exported);
    }
}

/// Where a JS call was made, taken when a method starts: its later rejection ([`to_js_at`])
/// shows the caller's frames, not only the wasm's and the glue's.
pub fn call_site() -> JsValue {
    js_call_site()
}

/// Runs `f` through `error.js`'s `guard`, the one place a trap (a panic) is caught: `Err` is the
/// `internal` McpError of the call begun at `site` (`undefined`: a synchronous call, here) when
/// `f` trapped, or when an earlier trap poisoned the instance (then `f` does not run). A
/// synchronous export returns it as its error (the glue throws it).
pub fn guarded<T>(site: &JsValue, f: impl FnOnce() -> T) -> Result<T, JsValue> {
    let (mut f, mut out) = (Some(f), None);
    let failed = js_guard(
        &mut || {
            if let Some(f) = f.take() {
                out = Some(f());
            }
        },
        site,
    );
    match out {
        Some(v) if failed.is_undefined() => Ok(v),
        _ => Err(failed),
    }
}

/// `Err`: the `internal` McpError refusing a call begun at `site`, a trap having poisoned the
/// instance (one check, not a guard: a method's synchronous part only builds its future).
pub fn usable(site: &JsValue) -> Result<(), JsValue> {
    if poisoned() {
        guarded(site, || ())
    } else {
        Ok(())
    }
}

/// Whether a trap poisoned the instance (then nothing more runs or is dropped: see [`guarded`]).
/// `error.js` holds the one flag: `guard` sets it, and so does `client.js` on a trap in a
/// `Client` method's synchronous part.
pub fn poisoned() -> bool {
    js_is_poisoned()
}

/// A method's promise `p` (begun at `site`) as the caller gets it: rejected at once, with the
/// others in flight, should a trap poison the instance before it settles.
pub fn track(p: &js_sys::Promise, site: &JsValue) -> js_sys::Promise {
    js_track(p, site)
}

/// Converts a core error into the JS `McpError` rejection value.
pub fn to_js(e: CoreError) -> JsValue {
    to_js_at(e, &JsValue::UNDEFINED)
}

/// [`to_js`] for a call that began at `site` (a [`call_site`]; `undefined`: here).
pub fn to_js_at(e: CoreError, site: &JsValue) -> JsValue {
    install_error_prototype();
    let data = match e.data_json() {
        Some(d) => crate::js::boundary::interop::to_js(&d),
        None => JsValue::UNDEFINED,
    };
    let e = e.into_parts();
    make_error(&(e.code as f64).into(), &e.message.into(), &data, site)
}

/// Reads whatever JS threw into a core error: an `McpError` (or any object with a numeric
/// `code` and string `message`) keeps its code and data; anything else is -32603.
#[allow(dead_code)] // used by the callback bridge
pub fn from_js(v: &JsValue) -> CoreError {
    let code = Reflect::get(v, &"code".into())
        .ok()
        .and_then(|c| c.as_f64());
    let message = Reflect::get(v, &"message".into())
        .ok()
        .and_then(|m| m.as_string());
    if let (Some(code), Some(message)) = (code, message.clone()) {
        if code.fract() == 0.0 && code.abs() < 1e15 {
            let data = Reflect::get(v, &"data".into())
                .ok()
                .filter(|d| !d.is_undefined());
            let data = data.and_then(|d| crate::js::boundary::interop::from_js(&d).ok());
            return CoreError::from(ErrorParts {
                code: code as i64,
                message,
                data,
                kind: None,
            });
        }
    }
    let text = message
        .or_else(|| v.as_string())
        .unwrap_or_else(|| crate::js::boundary::interop::describe(v));
    CoreError::new(INTERNAL_ERROR, text)
}

/// Message of a JS error, with its `cause` (Node's fetch puts ECONNREFUSED there).
pub fn error_text(e: &JsValue) -> String {
    let msg = Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into());
    let cause = Reflect::get(e, &"cause".into())
        .ok()
        .filter(|c| c.is_object());
    match cause
        .and_then(|c| Reflect::get(&c, &"message".into()).ok())
        .and_then(|m| m.as_string())
    {
        Some(c) if !c.is_empty() => format!("{msg} ({c})"),
        _ => msg,
    }
}
