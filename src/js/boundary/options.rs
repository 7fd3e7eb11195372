//! Reading the options objects JS passes (`new Client(url, options)`, per-call options), with
//! errors that name the offending option.

use crate::engine::RequestOptions;
use crate::js::boundary::interop;
use crate::js::host::abort::SignalLink;
use crate::js::host::call_handler;
use crate::json::Value;
use crate::protocol::error::McpError;
use crate::session::cache_store::CacheMode;
use crate::util::quote::{join, quoted};
use js_sys::{Array, Function, Object, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/js/boundary/error.js")]
extern "C" {
    /// The error text refusing the option `key` of `of`, with the closest of `known` (its names
    /// comma-separated): `options.timeOut is not an option of a call: did you mean timeoutMs?`.
    #[wasm_bindgen(js_name = unknownOption)]
    fn unknown_option(scope: &str, key: &str, known: &str, of: &str) -> String;
}

/// What a reader says of an option whose shape `new Client` (the facade, client.js) checks and
/// the core takes as given: met, the core was made without the facade.
const UNCHECKED: &str = " is not what new Client passes: make clients with new Client";

/// Default per-request timeout.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// `obj[key]`, or `undefined` when `obj` is not an object or reading it throws.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() {
        Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// True when `obj` is an object whose `key` is neither undefined nor null.
#[cfg(not(feature = "auth"))]
pub fn present(obj: &JsValue, key: &str) -> bool {
    !get(obj, key).is_null_or_undefined()
}

/// A URL argument: a string, or an object with a string `href` (a `URL`).
#[cfg(feature = "auth")]
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
pub fn string(obj: &JsValue, key: &str, scope: &'static str) -> Result<Option<String>, McpError> {
    let mut r = Reader::new(scope);
    let v = r.string(obj, key);
    r.check().map(|()| v)
}

/// Reads an optional positive number (milliseconds, bytes, a count), rounded up.
pub fn positive_number(
    obj: &JsValue,
    key: &str,
    scope: &'static str,
) -> Result<Option<u64>, McpError> {
    let mut r = Reader::new(scope);
    let v = r.positive_number(obj, key);
    r.check().map(|()| v)
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

/// Reads an optional boolean option.
pub fn boolean(obj: &JsValue, key: &str, scope: &'static str) -> Result<Option<bool>, McpError> {
    let mut r = Reader::new(scope);
    let v = r.boolean(obj, key);
    r.check().map(|()| v)
}

/// Reads the options of one object after another, keeping the first error: once one is met,
/// later reads read nothing (no getter runs) and return `None`, so the error is the one a
/// `?` after every read would give, with one exit instead of one per option.
pub struct Reader {
    /// The prefix of error messages, e.g. `options.auth`.
    pub scope: &'static str,
    error: Option<McpError>,
}

impl Reader {
    /// A reader whose errors start with `scope`.
    pub fn new(scope: &'static str) -> Self {
        Reader { scope, error: None }
    }

    /// Keeps `e` unless an error was met before.
    #[inline(never)]
    pub fn fail(&mut self, e: McpError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Fails with the message `text`.
    pub fn fail_with(&mut self, text: &str) {
        self.fail(McpError::input(text));
    }

    /// True while no error was met.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// The first error met, if any.
    pub fn check(&mut self) -> Result<(), McpError> {
        self.error.take().map_or(Ok(()), Err)
    }

    #[inline(never)]
    fn wrong(&mut self, key: &str, what: &str) {
        self.fail(McpError::input(format!("{}.{key}{what}", self.scope)));
    }

    /// `obj[key]` unless `obj` is not an object, an error was met, or it is undefined or null.
    #[inline(never)]
    pub fn value(&mut self, obj: &JsValue, key: &str) -> Option<JsValue> {
        if self.error.is_some() {
            return None;
        }
        let v = get(obj, key);
        (!v.is_null_or_undefined()).then_some(v)
    }

    /// An optional string option.
    #[inline(never)]
    pub fn string(&mut self, obj: &JsValue, key: &str) -> Option<String> {
        let v = self.value(obj, key)?;
        let s = v.as_string();
        if s.is_none() {
            self.wrong(key, " must be a string");
        }
        s
    }

    /// An optional `cacheMode` (the call's) or `mode` (the `cache` option's).
    pub fn cache_mode(&mut self, obj: &JsValue, key: &str) -> Option<CacheMode> {
        let text = self.string(obj, key)?;
        let mode = CacheMode::parse(&text);
        if mode.is_none() {
            let names = join(&CacheMode::NAMES.map(quoted), ", ");
            self.wrong(
                key,
                &format!(" must be one of {names}, got {}", quoted(&text)),
            );
        }
        mode
    }

    /// An optional function option.
    #[inline(never)]
    pub fn function(&mut self, obj: &JsValue, key: &str) -> Option<Function> {
        let v = self.value(obj, key)?;
        match v.dyn_into::<Function>() {
            Ok(f) => Some(f),
            Err(_) => {
                self.wrong(key, " must be a function");
                None
            }
        }
    }

    /// An optional positive number (milliseconds, bytes, a count), rounded up.
    #[inline(never)]
    pub fn positive_number(&mut self, obj: &JsValue, key: &str) -> Option<u64> {
        let v = self.value(obj, key)?;
        match v.as_f64() {
            Some(n) if n.is_finite() && n > 0.0 => Some(n.ceil() as u64),
            _ => {
                self.wrong(key, " must be a positive number");
                None
            }
        }
    }

    /// An optional boolean option.
    #[inline(never)]
    pub fn boolean(&mut self, obj: &JsValue, key: &str) -> Option<bool> {
        let v = self.value(obj, key)?;
        let b = v.as_bool();
        if b.is_none() {
            self.wrong(key, " must be a boolean");
        }
        b
    }

    /// `headers` as the facade hands them over: `[name, value]` string pairs (`new Client`
    /// takes an object, a `Headers` or pairs, and checks them: client.js `headerPairs`).
    #[inline(never)]
    pub fn headers(&mut self, obj: &JsValue) -> Vec<(String, String)> {
        let Some(v) = self.value(obj, "headers") else {
            return Vec::new();
        };
        let pairs = Array::is_array(&v).then(|| {
            Array::from(&v)
                .iter()
                .map(|p| {
                    let p = p.dyn_into::<Array>().ok()?;
                    Some((p.get(0).as_string()?, p.get(1).as_string()?))
                })
                .collect::<Option<Vec<_>>>()
        });
        pairs.flatten().unwrap_or_else(|| {
            self.wrong("headers", UNCHECKED);
            Vec::new()
        })
    }

    /// An optional object option whose keys `new Client` checked (`listChanged`,
    /// `reconnection`, `cache`'s object).
    pub fn checked_object(&mut self, obj: &JsValue, key: &str) -> Option<JsValue> {
        let v = self.value(obj, key)?;
        if !v.is_object() {
            self.wrong(key, UNCHECKED);
            return None;
        }
        Some(v)
    }

    /// Fails on the first own key of `obj` that none of the `known` lists has, naming it and the
    /// closest known name (`options.timeOut is not an option of a call: did you mean
    /// timeoutMs?`; the text is error.js's `unknownOption`, which `new Client`'s options use
    /// too): a misspelt option is an error, never silently ignored.
    #[inline(never)]
    pub fn refuse_unknown(&mut self, obj: &JsValue, known: &[&[&str]], of: &str) {
        if !self.ok() || !obj.is_object() {
            return;
        }
        let keys = Object::keys(obj.unchecked_ref::<Object>());
        let unknown = keys
            .iter()
            .filter_map(|k| k.as_string())
            .find(|k| !known.iter().any(|list| list.contains(&k.as_str())));
        if let Some(key) = unknown {
            let known = known.concat().join(",");
            self.fail_with(&unknown_option(self.scope, &key, &known, of));
        }
    }

    /// An optional JSON-able object option.
    #[inline(never)]
    pub fn json_object(&mut self, obj: &JsValue, key: &str) -> Option<Value> {
        let v = self.value(obj, key)?;
        match interop::from_js(&v) {
            Ok(Value::Object(o)) => return Some(Value::Object(o)),
            Ok(_) => self.wrong(key, " must be an object"),
            Err(e) => self.wrong(key, &format!(" is not JSON-serializable: {e}")),
        }
        None
    }
}

/// Every per-call option of every method (one options type, `CallOptions` and its
/// extensions) but callTool's task options (`session::tasks::TASK_CALL_OPTIONS`): a key
/// outside these lists is refused.
pub const CALL_OPTIONS: [&str; 11] = [
    "signal",
    "timeoutMs",
    "onProgress",
    "resetTimeoutOnProgress",
    "maxTotalTimeoutMs",
    // listTools and the other lists
    "cursor",
    "all",
    "maxPages",
    // how a cacheable request uses the cache: "use", "refresh" or "bypass"
    "cacheMode",
    // keys merged into the request's params._meta (they win over the 2026 envelope's)
    "_meta",
    // skills.list: keep the entries that break the rules in `invalid` instead of throwing
    "skipInvalid",
];

/// The per-call `_meta` option: keys merged into the request's `params._meta`.
pub fn call_meta(obj: &JsValue) -> Result<Option<Value>, McpError> {
    let r = &mut Reader::new("options");
    let meta = r.json_object(obj, "_meta");
    r.check().map(|()| meta)
}

/// What [`call_options`] reads from `undefined`: every option's default (each read of an option
/// is a call into the host; a call without options makes none).
pub fn default_call(default_timeout_ms: u64) -> (RequestOptions, Option<SignalLink>) {
    (RequestOptions::with_timeout(default_timeout_ms), None)
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
    let r = &mut Reader::new("options");
    let known: [&[&str]; 2] = [&CALL_OPTIONS, &crate::session::tasks::TASK_CALL_OPTIONS];
    r.refuse_unknown(obj, &known, "a call");
    r.check()?;
    let link = signal(obj, "signal", "options")?.map(SignalLink::new);
    let on_progress = r.function(obj, "onProgress").map(|f| {
        Rc::new(move |params: &Value| call_handler(&f, &interop::to_js(params)))
            as Rc<dyn Fn(&Value)>
    });
    let defaults = RequestOptions::with_timeout(default_timeout_ms);
    let opts = RequestOptions {
        timeout_ms: r
            .positive_number(obj, "timeoutMs")
            .unwrap_or(defaults.timeout_ms),
        cancel: link.as_ref().map(|(c, _)| c.clone()),
        on_progress,
        reset_timeout_on_progress: r
            .boolean(obj, "resetTimeoutOnProgress")
            .unwrap_or(defaults.reset_timeout_on_progress),
        max_total_timeout_ms: r.positive_number(obj, "maxTotalTimeoutMs"),
        cache_mode: r.cache_mode(obj, "cacheMode"),
    };
    r.check()?;
    Ok((opts, link.map(|(_, l)| l)))
}
