//! `McpError`, the JS class every rejection uses: `instanceof Error`, numeric `code`, `message`,
//! `data`; constructible from JS as `new McpError(code, message, data?)`.

use crate::protocol::error::McpError as CoreError;
use crate::protocol::error::{ErrorParts, INTERNAL_ERROR};
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// An MCP error as seen from JavaScript.
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct McpError {
    code: f64,
    message: String,
    data: JsValue,
}

#[wasm_bindgen]
impl McpError {
    /// `new McpError(code, message, data?)`: `code` as by `Number(code)` (-32603 when that is
    /// not a number), `message` as by `String(message)` like `Error` (empty when absent).
    // Returns the wrapped object so the stack trace is captured on construction.
    #[allow(clippy::new_ret_no_self)]
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number")] code: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] message: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] data: Option<JsValue>,
    ) -> JsValue {
        let data = data.unwrap_or(JsValue::UNDEFINED);
        wrap(McpError {
            code: coerce_code(&code),
            message: coerce_message(&message),
            data,
        })
    }

    /// The numeric JSON-RPC error code.
    #[wasm_bindgen(getter)]
    pub fn code(&self) -> f64 {
        self.code
    }

    /// The error message.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }

    /// Structured detail (`undefined` when none); local errors carry `{ local: true, kind }`.
    #[wasm_bindgen(getter, unchecked_return_type = "unknown")]
    pub fn data(&self) -> JsValue {
        self.data.clone()
    }

    /// Always `"McpError"`.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        "McpError".to_string()
    }
}

/// `Number(code)` without throwing (a Symbol or an object whose conversion throws is NaN);
/// NaN becomes -32603, like an error of unknown cause.
fn coerce_code(code: &JsValue) -> f64 {
    let n = code
        .as_f64()
        .or_else(|| (!code.is_symbol()).then(|| js_number(code).ok()).flatten())
        .unwrap_or(f64::NAN);
    if n.is_nan() {
        INTERNAL_ERROR as f64
    } else {
        n
    }
}

/// `String(message)` as `Error` does (empty when absent); a value that cannot be made a
/// string (its `toString` throws) reads `"[unprintable]"`.
fn coerce_message(message: &JsValue) -> String {
    if message.is_undefined() {
        return String::new();
    }
    message
        .as_string()
        .or_else(|| js_string(message).ok())
        .unwrap_or_else(|| "[unprintable]".into())
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Number, catch)]
    fn js_number(v: &JsValue) -> Result<f64, JsValue>;
    #[wasm_bindgen(js_name = String, catch)]
    fn js_string(v: &JsValue) -> Result<String, JsValue>;
    #[wasm_bindgen(js_namespace = Error, js_name = captureStackTrace, catch)]
    fn capture_stack_trace(target: &JsValue) -> Result<(), JsValue>;
}

thread_local! {
    static PROTOTYPE_INSTALLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn wrap(e: McpError) -> JsValue {
    install_error_prototype();
    let value: JsValue = e.into();
    // V8 (Node, Chromium, Deno) gives the object a `stack`; elsewhere this is a no-op.
    let _ = capture_stack_trace(&value);
    value
}

/// Makes `McpError.prototype` inherit from `Error.prototype`, so `err instanceof Error`
/// (once; also run lazily, since a host may skip the module's start function).
pub fn install_error_prototype() {
    if PROTOTYPE_INSTALLED.with(|p| p.replace(true)) {
        return;
    }
    let sample: JsValue = McpError {
        code: 0.0,
        message: String::new(),
        data: JsValue::UNDEFINED,
    }
    .into();
    let proto = Object::get_prototype_of(&sample);
    let error_proto = js_sys::Error::new("").unchecked_into::<Object>();
    let error_proto = Object::get_prototype_of(&error_proto);
    Object::set_prototype_of(&proto, &error_proto);
}

/// Converts a core error into the JS `McpError` rejection value.
pub fn to_js(e: CoreError) -> JsValue {
    let data = match e.data_json() {
        Some(d) => crate::js::boundary::interop::to_js(&d),
        None => JsValue::UNDEFINED,
    };
    let e = e.into_parts();
    wrap(McpError {
        code: e.code as f64,
        message: e.message,
        data,
    })
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
