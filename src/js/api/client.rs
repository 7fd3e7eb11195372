//! The exported `Client` class: arguments checked synchronously, then one generic path from
//! the engine's future to a promise of plain wire-shape objects.

use crate::auth::flow::SignOut;
use crate::engine::{Engine, Limits, RequestOptions, Transport};
use crate::js::auth::JsAuthorizer;
use crate::js::boundary::options::{
    self, non_empty, optional_object, url_text, DEFAULT_TIMEOUT_MS,
};
use crate::js::boundary::{error as jserr, interop};
use crate::js::host::abort::SignalLink;
use crate::js::host::JsHost;
use crate::js::http::fetch::Http;
use crate::js::http::streamable_http::StreamableHttp;
use crate::js::promise;
use crate::js::transports::js_transport::JsTransport;
use crate::json::{json, Value};
use crate::protocol::error::{McpError, METHOD_NOT_FOUND};
use crate::protocol::version::{Era, Mode};
use crate::session::ClientConfig;
use crate::transport::sse::DEFAULT_MAX_EVENT_BYTES;
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `{ key: value }`: the params of most methods start as one string member.
fn one(key: &str, value: String) -> Value {
    let mut m = crate::json::Map::new();
    m.insert(key.to_string(), Value::String(value));
    Value::Object(m)
}

/// A string getter's value: the JS string, or `undefined`.
fn text(s: Option<&str>) -> JsValue {
    s.map_or(JsValue::UNDEFINED, JsValue::from_str)
}

/// How long the `server/discover` probe (and opening a fallback stream) may take at most.
const OPEN_TIMEOUT_MS: u64 = 10_000;

/// What a method call does once its arguments are read.
enum Op {
    /// A request with these params; a list method with its result key and a page cap reads
    /// every page.
    Request(String, Option<Value>, Option<(&'static str, u32)>),
    /// A legacy notification.
    Notify(&'static str),
    /// `connect()`.
    Connect,
    /// `close()`.
    Close,
    /// `listen(filter)`, the filter as JSON.
    Listen(Value),
    /// `finishAuthorization(callbackUrl)`.
    FinishAuthorization(Rc<JsAuthorizer>, String),
    /// `signOut({ all })`.
    SignOut(Rc<JsAuthorizer>, SignOut),
}

/// An MCP client over Streamable HTTP or a transport written in JavaScript, speaking the legacy and the 2026 protocol eras.
/// (Its TypeScript declaration is hand-written in `js::types`.)
#[wasm_bindgen(skip_typescript)]
#[derive(Debug)]
pub struct Client {
    engine: Rc<Engine>,
    auth: Option<Rc<JsAuthorizer>>,
}

/// What the client talks to: a Streamable HTTP URL, or a transport object written in JS.
enum Target {
    Url(String),
    Transport(JsTransport),
}

/// Options that only mean something over HTTP.
const HTTP_ONLY: [&str; 3] = ["headers", "fetch", "auth"];

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
    match JsTransport::new(object) {
        Ok(t) => (Target::Transport(t), merged),
        Err(e) => refused(r, e),
    }
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

fn read_client(first: &JsValue, second: &JsValue) -> Result<Client, McpError> {
    // One exit for every error: read_target's too are kept in the reader.
    let r = &mut options::Reader::new("options");
    let (target, options) = read_target(r, first, second);
    // (An options object that is not an object was refused by read_target.)
    let options = &options;
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
    let host = JsHost {
        elicitation: r.function(options, "elicitationCallback"),
        sampling: r.function(options, "samplingCallback"),
        roots: r.function(options, "listRootsCallback"),
        message_handler: r.function(options, "messageHandler"),
        logging_callback: r.function(options, "loggingCallback"),
    };
    let sampling_caps = r.json_object(options, "samplingCapabilities");
    cfg.registered = host.registered(sampling_caps);
    let limits = Limits {
        timeout_ms: r
            .positive_number(options, "timeoutMs")
            .unwrap_or(DEFAULT_TIMEOUT_MS),
        max_message_bytes: r
            .positive_number(options, "maxMessageBytes")
            .map_or(DEFAULT_MAX_EVENT_BYTES, |n| n as usize),
        max_rounds: r
            .positive_number(options, "inputRequiredMaxRounds")
            .map_or(10, |n| n.min(u32::MAX as u64) as u32),
        cache: r.boolean(options, "cache").unwrap_or(true),
    };
    // The Streamable HTTP options are read by the same reader: one exit for every error,
    // in the order a `?` per option would give.
    let mut http = None;
    let mut auth = None;
    if let Target::Url(url) = &target {
        if r.ok() {
            check_http_url(r, url);
        }
        let fetch = r.function(options, "fetch");
        let headers = r.headers(options);
        if r.ok() {
            http = Http::new(r, url.clone(), fetch, headers);
        }
        if let Some(h) = &http {
            auth =
                crate::js::auth::options::read(r, options, url, h.fetch_function(), h.in_browser);
        }
    }
    r.check()?;
    let transport: Rc<dyn Transport> = match (target, http) {
        (_, Some(mut http)) => {
            http.auth = auth.clone().map(crate::js::auth::for_http);
            let open_timeout = OPEN_TIMEOUT_MS.min(limits.timeout_ms);
            Rc::new(StreamableHttp::new(
                http,
                limits.max_message_bytes,
                open_timeout,
            ))
        }
        (Target::Transport(t), _) => Rc::new(t),
        // A URL without an Http: an error was met and returned above.
        (Target::Url(_), None) => return Err(McpError::input("Client options must be an object")),
    };
    let engine = Engine::new(cfg, limits, Rc::new(host), transport);
    if let Some(a) = &auth {
        *a.host().waits.borrow_mut() = Some(engine.user_waits());
        if a.host().dpop_key_is_ephemeral() {
            engine.surface_error(McpError::warning(
                "options.auth.dpop with webStorage(): Web Storage cannot hold the DPoP key (a CryptoKey), so each new client makes a new key and stored tokens bound to the old one are refused; use indexedDbStorage(name) or pass dpop: { keyPair }",
            ));
        }
        if a.host().confidential_in_page {
            engine.surface_error(McpError::warning(
                "options.auth.grant holds a client secret or private key in a web page, where anyone who loads the page can read it: a browser app is a public client (use the authorization-code flow; keep confidential grants on a server or worker you control)",
            ));
        }
    }
    Ok(Client { engine, auth })
}

#[wasm_bindgen]
impl Client {
    /// `new Client(url, { mode, clientInfo, headers, fetch, timeoutMs, maxMessageBytes, messageHandler, loggingCallback, ... })`
    /// (`url` a string or a `URL`), or `new Client({ transport, ...options }, moreOptions?)`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string | URL | ClientOptions")] url: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: Option<JsValue>,
    ) -> Result<Client, JsValue> {
        read_client(&url, &options.unwrap_or(JsValue::UNDEFINED)).map_err(jserr::to_js)
    }

    /// Connects: probes the era (`auto`), initializes (`legacy`), or adopts a pinned version.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn connect(&self) -> Promise {
        self.run(Ok(Op::Connect), &JsValue::UNDEFINED)
    }

    /// The negotiated protocol version (`undefined` before connect).
    #[wasm_bindgen(getter, js_name = protocolVersion, unchecked_return_type = "string | undefined")]
    pub fn protocol_version(&self) -> JsValue {
        text(self.engine.state.borrow().protocol_version.as_deref())
    }

    /// `"legacy"` or `"modern"` once connected.
    #[wasm_bindgen(getter, unchecked_return_type = "\"legacy\" | \"modern\" | undefined")]
    pub fn era(&self) -> JsValue {
        text(self.engine.era().map(|e| match e {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }))
    }

    /// Requests waiting for a response right now.
    #[wasm_bindgen(getter, js_name = pendingRequests)]
    pub fn pending_requests(&self) -> u32 {
        self.engine.inflight.borrow().len() as u32
    }

    /// `"streamable-http"`, `"http+sse"` after falling back to the deprecated transport, or
    /// `"javascript"` for a transport object.
    #[wasm_bindgen(
        getter,
        unchecked_return_type = "\"streamable-http\" | \"http+sse\" | \"javascript\""
    )]
    pub fn transport(&self) -> JsValue {
        JsValue::from_str(self.engine.transport_name())
    }

    /// The server's `Implementation` (name, version...), when it sent one.
    #[wasm_bindgen(getter, js_name = serverInfo, unchecked_return_type = "Implementation | undefined")]
    pub fn server_info(&self) -> JsValue {
        let st = self.engine.state.borrow();
        st.server_info
            .as_ref()
            .map_or(JsValue::UNDEFINED, interop::to_js)
    }

    /// The server's capabilities.
    #[wasm_bindgen(getter, js_name = serverCapabilities, unchecked_return_type = "JsonObject | undefined")]
    pub fn server_capabilities(&self) -> JsValue {
        let st = self.engine.state.borrow();
        st.server_capabilities
            .as_ref()
            .map_or(JsValue::UNDEFINED, interop::to_js)
    }

    /// The server's instructions, if any.
    #[wasm_bindgen(getter, unchecked_return_type = "string | undefined")]
    pub fn instructions(&self) -> JsValue {
        text(self.engine.state.borrow().instructions.as_deref())
    }

    /// The legacy `Mcp-Session-Id`, if the server issued one.
    #[wasm_bindgen(getter, js_name = sessionId, unchecked_return_type = "string | undefined")]
    pub fn session_id(&self) -> JsValue {
        text(self.engine.state.borrow().session_id.as_deref())
    }

    /// `listTools({ cursor, all, maxPages, signal, timeoutMs })` → `{ tools, nextCursor? }`.
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "Promise<ListToolsResult>")]
    pub fn list_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: JsValue,
    ) -> Promise {
        self.list("tools/list", "tools", options)
    }

    /// `listResources({ cursor, all, ... })` → `{ resources, nextCursor? }`.
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "Promise<ListResourcesResult>")]
    pub fn list_resources(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: JsValue,
    ) -> Promise {
        self.list("resources/list", "resources", options)
    }

    /// `listResourceTemplates({ cursor, all, ... })` → `{ resourceTemplates, nextCursor? }`.
    #[wasm_bindgen(js_name = listResourceTemplates, unchecked_return_type = "Promise<ListResourceTemplatesResult>")]
    pub fn list_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: JsValue,
    ) -> Promise {
        self.list("resources/templates/list", "resourceTemplates", options)
    }

    /// `listPrompts({ cursor, all, ... })` → `{ prompts, nextCursor? }`.
    #[wasm_bindgen(js_name = listPrompts, unchecked_return_type = "Promise<ListPromptsResult>")]
    pub fn list_prompts(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: JsValue,
    ) -> Promise {
        self.list("prompts/list", "prompts", options)
    }

    fn list(&self, method: &'static str, key: &'static str, options: JsValue) -> Promise {
        let op = (|| {
            let cursor = options::string(&options, "cursor", "options")?;
            let all = options::boolean(&options, "all", "options")?.unwrap_or(false);
            let max_pages = options::positive_number(&options, "maxPages", "options")?
                .map_or(64, |n| n.min(u32::MAX as u64) as u32);
            let params = cursor.map(|c| one("cursor", c));
            Ok(Op::Request(
                method.into(),
                params,
                all.then_some((key, max_pages)),
            ))
        })();
        self.run(op, &options)
    }

    /// `readResource(uri, options)` → `{ contents }`.
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "Promise<ReadResourceResult>")]
    pub fn read_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = non_empty(&uri, "readResource", "uri")
            .map(|uri| Op::Request("resources/read".into(), Some(one("uri", uri)), None));
        self.run(op, &options)
    }

    /// `getPrompt(name, args, options)` → `{ description?, messages }`.
    #[wasm_bindgen(js_name = getPrompt, unchecked_return_type = "Promise<GetPromptResult>")]
    pub fn get_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ [name: string]: string }")] args: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = (|| {
            let name = non_empty(&name, "getPrompt", "name")?;
            let mut p = one("name", name);
            if let Some(a) = optional_object(&args, "getPrompt", "arguments")? {
                p["arguments"] = a;
            }
            Ok(Op::Request("prompts/get".into(), Some(p), None))
        })();
        self.run(op, &options)
    }

    /// `complete(ref, argument, context?, options)` → `{ completion: { values, total?, hasMore? } }`.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompleteResult>")]
    pub fn complete(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CompletionReference")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ name: string; value: string }")] argument: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ arguments?: { [name: string]: string } }")]
        context: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = (|| {
            let reference = interop::from_js(&reference).ok().filter(Value::is_object).ok_or_else(|| McpError::input("complete: ref must be { type: \"ref/prompt\", name } or { type: \"ref/resource\", uri }"))?;
            let argument = interop::from_js(&argument)
                .ok()
                .filter(|a| a.get("name").and_then(Value::as_str).is_some())
                .ok_or_else(|| McpError::input("complete: argument must be { name, value }"))?;
            let mut params = json!({ "ref": reference, "argument": argument });
            if let Some(c) = optional_object(&context, "complete", "context")? {
                params["context"] = c;
            }
            Ok(Op::Request(
                "completion/complete".into(),
                Some(params),
                None,
            ))
        })();
        self.run(op, &options)
    }

    /// `listen({ toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions }, options)`
    /// → an async iterable of notifications with `honoured` and `close()`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Subscription>")]
    pub fn listen(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SubscriptionFilter")] filter: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        // The options are read first: their error wins over the filter's.
        let ready =
            options::call_options(&options, self.engine.limits.timeout_ms).and_then(|call| {
                let filter = interop::from_js(&filter)
                    .map_err(|e| McpError::input(format!("listen: the filter is not JSON: {e}")))?;
                Ok((Op::Listen(filter), call))
            });
        self.run_with(ready)
    }

    /// `ping(options)`: legacy only.
    #[wasm_bindgen(unchecked_return_type = "Promise<EmptyResult>")]
    pub fn ping(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = self
            .legacy_only(
                "ping",
                "2026 removed ping; any request shows the server is alive",
            )
            .map(|()| Op::Request("ping".into(), None, None));
        self.run(op, &options)
    }

    /// `subscribeResource(uri, options)`: legacy only; updates reach `messageHandler`.
    #[wasm_bindgen(js_name = subscribeResource, unchecked_return_type = "Promise<EmptyResult>")]
    pub fn subscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.legacy_uri("subscribeResource", "resources/subscribe", uri, options)
    }

    /// `unsubscribeResource(uri, options)`: legacy only.
    #[wasm_bindgen(js_name = unsubscribeResource, unchecked_return_type = "Promise<EmptyResult>")]
    pub fn unsubscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        self.legacy_uri("unsubscribeResource", "resources/unsubscribe", uri, options)
    }

    fn legacy_uri(
        &self,
        what: &'static str,
        method: &'static str,
        uri: JsValue,
        options: JsValue,
    ) -> Promise {
        let op = self
            .legacy_only(what, "use a subscriptions/listen stream (issue: listen())")
            .and_then(|()| non_empty(&uri, what, "uri"))
            .map(|uri| Op::Request(method.into(), Some(one("uri", uri)), None));
        self.run(op, &options)
    }

    /// `callTool(name, args, { signal, timeoutMs })` → `CallToolResult` (wire shape).
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "JsonObject")] args: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = (|| {
            let name = non_empty(&name, "callTool", "name")?;
            let mut params = one("name", name);
            if let Some(a) = optional_object(&args, "callTool", "arguments")? {
                params["arguments"] = a;
            }
            Ok(Op::Request("tools/call".into(), Some(params), None))
        })();
        self.run(op, &options)
    }

    /// `request(method, params, { signal, timeoutMs })`: any method, result as sent.
    #[wasm_bindgen(unchecked_return_type = "Promise<JsonObject>")]
    pub fn request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "JsonObject")] params: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = (|| {
            let method = non_empty(&method, "request", "method")?;
            let params = optional_object(&params, "request", "params")
                .map_err(|_| McpError::input("request: params must be an object"))?;
            Ok(Op::Request(method, params, None))
        })();
        self.run(op, &options)
    }

    /// `setLoggingLevel(level)`: legacy `logging/setLevel` (2026: use the `logLevel` option).
    #[wasm_bindgen(js_name = setLoggingLevel, unchecked_return_type = "Promise<EmptyResult>")]
    pub fn set_logging_level(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LoggingLevel")] level: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: JsValue,
    ) -> Promise {
        let op = self
            .legacy_only("setLoggingLevel", "pass the logLevel option instead")
            .and_then(|()| {
                level
                    .as_string()
                    .ok_or_else(|| McpError::input("setLoggingLevel: level must be a string"))
            })
            .map(|level| Op::Request("logging/setLevel".into(), Some(one("level", level)), None));
        self.run(op, &options)
    }

    /// `sendRootsListChanged()`: legacy `notifications/roots/list_changed`.
    #[wasm_bindgen(js_name = sendRootsListChanged, unchecked_return_type = "Promise<void>")]
    pub fn send_roots_list_changed(&self) -> Promise {
        let op = self
            .legacy_only(
                "sendRootsListChanged",
                "2026 servers ask for roots in each input_required round",
            )
            .map(|()| Op::Notify("notifications/roots/list_changed"));
        self.run(op, &JsValue::UNDEFINED)
    }

    /// `finishAuthorization(callbackUrl)`: redirect mode, on the callback page: checks the
    /// callback against the pending authorization (stored) and redeems its code.
    #[wasm_bindgen(js_name = finishAuthorization, unchecked_return_type = "Promise<void>")]
    pub fn finish_authorization(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | URL")] callback: JsValue,
    ) -> Promise {
        let ready = self.auth_flow("finishAuthorization").and_then(|auth| {
            let url = options::url_text(&callback)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| {
                    McpError::input("finishAuthorization: callbackUrl must be a string or a URL")
                })?;
            Ok(Op::FinishAuthorization(auth, url))
        });
        self.run(ready, &JsValue::UNDEFINED)
    }

    /// `{ issuer, scope, expiresAt }` while signed in, else `null`; never a token.
    #[wasm_bindgen(getter, unchecked_return_type = "AuthorizationStatus | null")]
    pub fn authorization(&self) -> JsValue {
        match self.auth.as_ref().and_then(|a| a.status()) {
            Some(s) => interop::to_js(&json!({
                "issuer": s.issuer,
                "scope": s.scope,
                "expiresAt": s.expires_at_ms,
            })),
            None => JsValue::NULL,
        }
    }

    /// `signOut({ all })`: forgets the tokens (with `all`, the client registrations too).
    #[wasm_bindgen(js_name = signOut, unchecked_return_type = "Promise<void>")]
    pub fn sign_out(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ all?: boolean }")] options: JsValue,
    ) -> Promise {
        let ready = self.auth_flow("signOut").and_then(|auth| {
            let object = options.is_object() && !js_sys::Array::is_array(&options);
            if !(options.is_null_or_undefined() || object) {
                return Err(McpError::input("signOut: options must be an object"));
            }
            let all = options::boolean(&options, "all", "signOut options")?.unwrap_or(false);
            let what = if all {
                SignOut::Everything
            } else {
                SignOut::Tokens
            };
            Ok(Op::SignOut(auth, what))
        });
        self.run(ready, &JsValue::UNDEFINED)
    }

    /// Closes the client: pending calls fail, a legacy session is DELETEd.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        self.run(Ok(Op::Close), &JsValue::UNDEFINED)
    }
}

impl Client {
    /// The one path from a method call to its promise: per-call options read now, the
    /// operation run by the engine, the result converted once.
    fn run(&self, op: Result<Op, McpError>, options: &JsValue) -> Promise {
        // The options are read only for a valid call.
        self.run_with(op.and_then(|op| {
            Ok((
                op,
                options::call_options(options, self.engine.limits.timeout_ms)?,
            ))
        }))
    }

    /// [`Client::run`] with the per-call options already read.
    fn run_with(
        &self,
        ready: Result<(Op, (RequestOptions, Option<SignalLink>)), McpError>,
    ) -> Promise {
        // An argument error rejects at once: the future holds only a valid call.
        let (op, (opts, link)) = match ready {
            Ok(r) => r,
            Err(e) => return Promise::reject(&jserr::to_js(e)),
        };
        let engine = self.engine.clone();
        promise(Box::pin(async move {
            let _link = link;
            // One exit for every error: each arm yields a JS value or an McpError.
            let result = match op {
                Op::FinishAuthorization(auth, url) => {
                    auth.finish(&url).await.map(|_| JsValue::UNDEFINED)
                }
                Op::SignOut(auth, what) => auth.sign_out(what).await.map(|_| JsValue::UNDEFINED),
                Op::Listen(filter) => engine
                    .listen(&filter, &opts)
                    .await
                    .map(|sub| crate::js::api::listen::to_js(&engine, sub, opts)),
                Op::Request(method, params, pages) => engine
                    .request_pages(&method, params, pages, &opts)
                    .await
                    .map(|v| interop::to_js(&v)),
                Op::Notify(method) => engine.notify(method, None).await.map(|()| JsValue::NULL),
                Op::Connect => engine.connect().await.map(|()| JsValue::NULL),
                Op::Close => {
                    engine.close().await;
                    Ok(JsValue::NULL)
                }
            };
            result.map_err(jserr::to_js)
        }))
    }

    fn auth_flow(&self, what: &str) -> Result<Rc<JsAuthorizer>, McpError> {
        self.auth.clone().ok_or_else(|| {
            McpError::input(format!(
                "{what} needs the auth option of new Client(url, {{ auth }})"
            ))
        })
    }

    fn legacy_only(&self, what: &str, instead: &str) -> Result<(), McpError> {
        match self.engine.era() {
            Some(Era::Modern) => Err(McpError::local(
                METHOD_NOT_FOUND,
                crate::protocol::error::ErrorKind::Input,
                format!(
                    "{what} exists only in the legacy era; this session speaks 2026-07-28: {instead}"
                ),
                Value::Null,
            )),
            None => Err(McpError::not_connected()),
            Some(Era::Legacy) => Ok(()),
        }
    }
}
