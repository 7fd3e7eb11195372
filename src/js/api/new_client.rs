//! `new Client(...)`: its arguments read into a running engine: the target (a Streamable HTTP URL
//! or a transport object), the options (every error through one reader, in option order), the
//! HTTP side and, with the `auth` feature, the authorization flow.

use super::client::Client;
use crate::engine::{Engine, Limits, Transport};
use crate::js::boundary::options::{self, url_text, DEFAULT_TIMEOUT_MS};
use crate::js::host::{cache_store, JsHost};
use crate::js::http::fetch::Http;
use crate::js::http::streamable_http::StreamableHttp;
#[cfg(feature = "js-transport")]
use crate::js::transports::js_transport::JsTransport;
use crate::json::Value;
use crate::protocol::capabilities::{Declared, Registered};
use crate::protocol::error::McpError;
use crate::protocol::version::Mode;
use crate::session::negotiate::stored_discover_version;
use crate::session::reconnect::{Backoff, RECONNECTION_KEYS};
use crate::session::ClientConfig;
use crate::transport::sse::DEFAULT_MAX_EVENT_BYTES;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How long the `server/discover` probe (and opening a fallback stream) may take at most.
const OPEN_TIMEOUT_MS: u64 = 10_000;

/// What the client talks to: a Streamable HTTP URL, or a transport object written in JS.
enum Target {
    Url(String),
    #[cfg(feature = "js-transport")]
    Transport(JsTransport),
}

/// Every option of `new Client(...)`: a key outside this list is refused, with the closest
/// name (`timeout` → "did you mean timeoutMs?").
const CLIENT_OPTIONS: [&str; 25] = [
    "transport",
    "mode",
    "clientInfo",
    "logLevel",
    "elicitationCallback",
    "samplingCallback",
    "listRootsCallback",
    "messageHandler",
    "loggingCallback",
    "samplingCapabilities",
    "capabilities",
    "extensions",
    "tasks",
    "apps",
    "discoverResult",
    "timeoutMs",
    "maxMessageBytes",
    "reconnection",
    "inputRequiredMaxRounds",
    "cache",
    // spans per request (the facade's tracing.js), the steps inside them as `trace` events
    "tracer",
    "listChanged",
    "headers",
    "fetch",
    "auth",
];

/// Options that only mean something over HTTP.
const HTTP_ONLY: [&str; 4] = ["headers", "fetch", "auth", "reconnection"];

/// Reads `new Client(url, options)` or `new Client({ transport, ...options }, moreOptions)`:
/// the target and the one options object (the two merged; a key given twice is refused). An
/// error is kept in `r`, with an empty URL and no options in its place: later reads read nothing.
fn read_target(r: &mut options::Reader, first: &JsValue, second: &JsValue) -> (Target, JsValue) {
    let refused = |r: &mut options::Reader, e: McpError| {
        r.fail(e);
        (Target::Url(String::new()), JsValue::UNDEFINED)
    };
    let options_first =
        first.is_object() && !js_sys::Array::is_array(first) && url_text(first).is_none();
    if !options_first {
        let Some(url) = url_text(first) else {
            return refused(
                r,
                McpError::input(
                    "Client needs a URL (a string or URL object: an absolute http: or https: URL) or an options object with transport",
                ),
            );
        };
        if options::present(second, "transport") {
            return refused(r, McpError::input(
                "options.transport cannot be combined with a URL: pass new Client({ transport, ...options })",
            ));
        }
        if !second.is_null_or_undefined() && !second.is_object() {
            return refused(r, McpError::input("Client options must be an object"));
        }
        return (Target::Url(url), second.clone());
    }
    if !options::present(first, "transport") {
        return refused(r, McpError::input(
            "Client options without a URL need transport: new Client({ transport: messagePortTransport(port) }) or new Client(url, options)",
        ));
    }
    let merged = if second.is_null_or_undefined() {
        first.clone()
    } else {
        if !second.is_object() || js_sys::Array::is_array(second) {
            return refused(r, McpError::input("Client options must be an object"));
        }
        let more: &js_sys::Object = second.unchecked_ref();
        for key in js_sys::Object::keys(more)
            .iter()
            .filter_map(|k| k.as_string())
        {
            if options::present(first, &key) {
                return refused(r, McpError::input(format!(
                    "Client option {key} is given twice (in the first and the second argument); give it once"
                )));
            }
        }
        let merged = js_sys::Object::new();
        js_sys::Object::assign(&merged, more);
        js_sys::Object::assign(&merged, first.unchecked_ref());
        merged.into()
    };
    for key in HTTP_ONLY {
        if options::present(&merged, key) {
            return refused(r, McpError::input(format!(
                "options.{key} applies to Streamable HTTP only; a transport object carries the messages itself"
            )));
        }
    }
    let object = js_sys::Reflect::get(&merged, &"transport".into()).unwrap_or(JsValue::UNDEFINED);
    match transport(object) {
        Ok(t) => (t, merged),
        Err(e) => refused(r, e),
    }
}

/// The target of `{ transport }`: the JS transport object as an engine transport.
#[cfg(feature = "js-transport")]
fn transport(object: JsValue) -> Result<Target, McpError> {
    JsTransport::new(object).map(Target::Transport)
}

/// A build without the `js-transport` feature (the default entry's lean module, whose facade makes
/// every client over a transport in the full module) refuses `{ transport }`.
#[cfg(not(feature = "js-transport"))]
fn transport(_object: JsValue) -> Result<Target, McpError> {
    Err(McpError::input(
        "options.transport: this module has no JS transports; mcp-wasm-client's default entry makes a client over a transport in its full module (import Client from mcp-wasm-client)",
    ))
}

/// Checks a Streamable HTTP URL: absolute, http: or https: (the error kept in `r`).
fn check_http_url(r: &mut options::Reader, url: &str) {
    let scheme = web_sys::Url::new(url)
        .ok()
        .map(|u| crate::js::http::fetch::text_field(&u, "protocol"));
    let why = match scheme.as_deref() {
        Some("http:" | "https:") => return,
        Some(other) => ["must be http: or https:, not ", other].concat(),
        None => "is not an absolute URL".to_string(),
    };
    r.fail(McpError::input(
        ["Client url ", &crate::util::quote::quoted(url), " ", &why].concat(),
    ));
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// The core of `new Client(url, { mode, clientInfo, headers, fetch, timeoutMs, ... })` (`url`
    /// a string or a `URL`), or of `new Client({ transport, ...options }, moreOptions?)`; the
    /// facade (`client.js`) makes it and passes its `observer(type, detail)`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string | URL | ClientOptions")] url: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: Option<JsValue>,
        observer: Option<js_sys::Function>,
    ) -> Result<Client, JsValue> {
        read(&url, &options.unwrap_or(JsValue::UNDEFINED), observer)
            .map_err(crate::js::boundary::error::to_js)
    }
}

/// `new Client(first, second)`: the client, or the first error in its arguments.
pub(super) fn read(
    first: &JsValue,
    second: &JsValue,
    observer: Option<js_sys::Function>,
) -> Result<Client, McpError> {
    // One exit for every error: read_target's too are kept in the reader.
    let r = &mut options::Reader::new("options");
    let (target, options) = read_target(r, first, second);
    // (An options object that is not an object was refused by read_target.)
    let options = &options;
    r.refuse_unknown(options, &[&CLIENT_OPTIONS], "new Client()");
    let cfg = read_config(r, options);
    let host = JsHost {
        observer,
        ..read_host(r, options)
    };
    let steps = host.steps_hook();
    let sampling_caps = r.json_object(options, "samplingCapabilities");
    let tasks = r.boolean(options, "tasks").unwrap_or(false);
    let registered = Registered {
        tasks,
        ..host.registered(sampling_caps)
    };
    let declared = read_declared(r, options, &registered);
    let cfg = ClientConfig {
        registered,
        declared,
        ..cfg
    };
    let limits = read_limits(r, options);
    let cache = cache_store::read(r, options);
    // The Streamable HTTP options are read by the same reader: one exit for every error,
    // in the order a `?` per option would give.
    let http = match &target {
        Target::Url(url) => read_http(r, options, url).map(|mut h| {
            h.steps = steps;
            h
        }),
        #[cfg(feature = "js-transport")]
        Target::Transport(_) => None,
    };
    let backoff = read_reconnection(r, options);
    #[cfg(feature = "auth")]
    let auth = http
        .as_ref()
        .and_then(|h| super::sign_in::read_option(r, options, h));
    #[cfg(not(feature = "auth"))]
    let part = super::without_auth::read_option(r, options);
    r.check()?;
    #[cfg(feature = "auth")]
    let http = http.map(|mut h| {
        h.auth = auth.clone().map(crate::js::auth::for_http);
        h
    });
    #[cfg(not(feature = "auth"))]
    let http = http.map(|mut h| {
        h.auth = part.clone().map(crate::js::host::auth_part::for_http);
        h
    });
    let transport: Rc<dyn Transport> = match (target, http) {
        (_, Some(http)) => {
            let open_timeout = OPEN_TIMEOUT_MS.min(limits.timeout_ms);
            Rc::new(StreamableHttp::new(
                http,
                limits.max_message_bytes,
                backoff,
                open_timeout,
            ))
        }
        #[cfg(feature = "js-transport")]
        (Target::Transport(t), _) => Rc::new(t.with_max_message_bytes(limits.max_message_bytes)),
        // A URL without an Http: an error was met and returned above.
        (Target::Url(_), None) => return Err(McpError::input("Client options must be an object")),
    };
    let logging_callback = host.logging_callback.clone();
    let engine = Engine::new(cfg, limits, Rc::new(host), transport);
    if cache.is_some() {
        engine.use_cache(cache);
    }
    #[cfg(feature = "auth")]
    if let Some(a) = &auth {
        super::sign_in::attach(&engine, a);
    }
    Ok(Client {
        engine,
        #[cfg(feature = "auth")]
        auth,
        #[cfg(feature = "auth")]
        part_ops: Default::default(),
        #[cfg(not(feature = "auth"))]
        part,
        #[cfg(feature = "skills")]
        skills: Default::default(),
        logging_callback,
    })
}

/// `mode`, `clientInfo` and `logLevel`.
fn read_config(r: &mut options::Reader, options: &JsValue) -> ClientConfig {
    let mut cfg = ClientConfig {
        mode: match r.string(options, "mode") {
            None => Mode::Auto,
            Some(m) => Mode::parse(&m).unwrap_or_else(|e| {
                r.fail(McpError::input(["options.", &e].concat()));
                Mode::Auto
            }),
        },
        ..Default::default()
    };
    if let Some(info) = r.json_object(options, "clientInfo") {
        if info.get("name").and_then(Value::as_str).is_none()
            || info.get("version").and_then(Value::as_str).is_none()
        {
            r.fail_with("options.clientInfo needs string name and version");
        }
        cfg.client_info = info;
    }
    cfg.log_level = r.string(options, "logLevel");
    cfg.refresh_lists = read_list_changed(r, options);
    cfg.stored_discover = r.json_object(options, "discoverResult");
    if let Some(stored) = &cfg.stored_discover {
        if cfg.mode == Mode::Legacy {
            r.fail_with("options.discoverResult is a 2026 server/discover result: it cannot be adopted with mode \"legacy\"");
        } else if let Err(why) = stored_discover_version(stored) {
            r.fail(McpError::input(["options.", &why].concat()));
        }
    }
    cfg
}

/// `listChanged: { autoRefresh }`: whether a list is fetched again after its `list_changed`.
fn read_list_changed(r: &mut options::Reader, options: &JsValue) -> bool {
    let Some(v) = r.value(options, "listChanged") else {
        return true;
    };
    if !v.is_object() || js_sys::Array::is_array(&v) {
        r.fail_with("options.listChanged must be an object: { autoRefresh: boolean }");
        return true;
    }
    let mut inner = options::Reader::new("options.listChanged");
    inner.refuse_unknown(&v, &[&["autoRefresh"]], "listChanged");
    let auto = inner.boolean(&v, "autoRefresh");
    if let Err(e) = inner.check() {
        r.fail(e);
    }
    auto.unwrap_or(true)
}

/// `capabilities`, `extensions` and `apps`: what the caller declares beyond its callbacks.
fn read_declared(r: &mut options::Reader, options: &JsValue, registered: &Registered) -> Declared {
    let capabilities = r.json_object(options, "capabilities");
    let extensions = r.json_object(options, "extensions");
    let apps = r.boolean(options, "apps").unwrap_or(false);
    if !r.ok() {
        return Declared::default();
    }
    match Declared::new(capabilities, extensions, apps)
        .and_then(|d| d.check_against(registered).map(|()| d))
    {
        Ok(d) => d,
        Err(why) => {
            r.fail(McpError::input(["options.", &why].concat()));
            Declared::default()
        }
    }
}

/// The callbacks and handlers: what the engine's host calls.
fn read_host(r: &mut options::Reader, options: &JsValue) -> JsHost {
    JsHost {
        elicitation: r.function(options, "elicitationCallback"),
        sampling: r.function(options, "samplingCallback"),
        roots: r.function(options, "listRootsCallback"),
        message_handler: r.function(options, "messageHandler"),
        logging_callback: r.function(options, "loggingCallback"),
        observer: None,
        tracing: r.value(options, "tracer").is_some(),
    }
}

/// `timeoutMs`, `maxMessageBytes`, `inputRequiredMaxRounds` and `cache`.
fn read_limits(r: &mut options::Reader, options: &JsValue) -> Limits {
    Limits {
        timeout_ms: r
            .positive_number(options, "timeoutMs")
            .unwrap_or(DEFAULT_TIMEOUT_MS),
        max_message_bytes: r
            .positive_number(options, "maxMessageBytes")
            .map_or(DEFAULT_MAX_EVENT_BYTES, |n| n as usize),
        max_rounds: r
            .positive_number(options, "inputRequiredMaxRounds")
            .map_or(10, |n| n.min(u32::MAX as u64) as u32),
        cache: cache_store::enabled(r, options),
    }
}

/// `reconnection: { initialDelayMs, maxDelayMs }`: the backoff of a broken stream's reconnects
/// (absent: the defaults). Each field goes to `session::reconnect` as read (a non-number as
/// NaN), which checks it.
fn read_reconnection(r: &mut options::Reader, options: &JsValue) -> Backoff {
    let Some(v) = r.value(options, "reconnection") else {
        return Backoff::default();
    };
    if !v.is_object() || js_sys::Array::is_array(&v) {
        r.fail_with("options.reconnection must be an object: { initialDelayMs?, maxDelayMs? }");
        return Backoff::default();
    }
    let mut inner = options::Reader::new("options.reconnection");
    inner.refuse_unknown(&v, &[&RECONNECTION_KEYS], "reconnection");
    let mut field = |key| inner.value(&v, key).map(|f| f.as_f64().unwrap_or(f64::NAN));
    let (initial, max) = (field("initialDelayMs"), field("maxDelayMs"));
    match inner
        .check()
        .and_then(|()| Backoff::from_option(initial, max))
    {
        Ok(b) => b,
        Err(e) => {
            r.fail(e);
            Backoff::default()
        }
    }
}

/// The URL checked, then `fetch` and `headers`: the HTTP side (`None` once an error is kept).
fn read_http(r: &mut options::Reader, options: &JsValue, url: &str) -> Option<Http> {
    if r.ok() {
        check_http_url(r, url);
    }
    let fetch = r.function(options, "fetch");
    let headers = r.headers(options);
    if r.ok() {
        Http::new(r, url.to_string(), fetch, headers)
    } else {
        None
    }
}
