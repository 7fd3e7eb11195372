//! `new Client(...)`: its arguments read into a running engine: the target (a Streamable HTTP URL
//! or a transport object), the options (every error through one reader, in option order), the
//! HTTP side and, with the `auth` feature, the authorization flow.

use super::client::Client;
use crate::engine::{Engine, Limits, Transport};
use crate::js::boundary::options::{self, DEFAULT_TIMEOUT_MS};
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
use crate::session::reconnect::Backoff;
use crate::session::ClientConfig;
use crate::transport::sse::DEFAULT_MAX_EVENT_BYTES;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// How long the `server/discover` probe (and opening a fallback stream) may take at most.
const OPEN_TIMEOUT_MS: u64 = 10_000;

/// What the client talks to: a Streamable HTTP URL, or a transport object written in JS.
enum Target {
    Url(String),
    #[cfg(feature = "js-transport")]
    Transport(JsTransport),
}

/// The target and options of the core's arguments, as the facade (client.js `clientArgs`) checked
/// and passes them: a URL string and its options, or the one options object with `transport`.
fn read_target(first: &JsValue, second: &JsValue) -> Result<(Target, JsValue), McpError> {
    if let Some(url) = first.as_string() {
        return Ok((Target::Url(url), second.clone()));
    }
    transport(options::get(first, "transport")).map(|t| (t, first.clone()))
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

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// The core of `new Client(url, { mode, clientInfo, headers, fetch, timeoutMs, ... })`, or of
    /// `new Client({ transport, ...options })`; the facade (`client.js`) makes it with the
    /// arguments it checked (`clientArgs`: the URL as a string, the headers as pairs)
    /// and passes its `observer(type, detail)`.
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

/// The core's `(first, second)`: the client, or the first error in its arguments. The facade
/// checked the target, every option's name and the shapes of `listChanged`, `reconnection`,
/// `cache` and `headers`; the values are read and checked here, in option order.
pub(super) fn read(
    first: &JsValue,
    second: &JsValue,
    observer: Option<js_sys::Function>,
) -> Result<Client, McpError> {
    let (target, options) = read_target(first, second)?;
    let options = &options;
    // One exit for every error: each read keeps the first in the reader.
    let r = &mut options::Reader::new("options");
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
    let Some(v) = r.checked_object(options, "listChanged") else {
        return true;
    };
    let mut inner = options::Reader::new("options.listChanged");
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
    let Some(v) = r.checked_object(options, "reconnection") else {
        return Backoff::default();
    };
    let field = |key| {
        let f = options::get(&v, key);
        (!f.is_null_or_undefined()).then(|| f.as_f64().unwrap_or(f64::NAN))
    };
    match Backoff::from_option(field("initialDelayMs"), field("maxDelayMs")) {
        Ok(b) => b,
        Err(e) => {
            r.fail(e);
            Backoff::default()
        }
    }
}

/// `fetch` and `headers`: the HTTP side (`None` once an error is kept).
fn read_http(r: &mut options::Reader, options: &JsValue, url: &str) -> Option<Http> {
    let fetch = r.function(options, "fetch");
    let headers = r.headers(options);
    if r.ok() {
        Http::new(r, url.to_string(), fetch, headers)
    } else {
        None
    }
}
