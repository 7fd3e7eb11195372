//! The exported `Client` class: options in, promises of plain wire-shape objects out.

use crate::js::callbacks::Callbacks;
use crate::js::driver::{self, Call, Handlers, Inner, Limits, Shared};
use crate::js::options::{self, CallOptions, DEFAULT_TIMEOUT_MS};
use crate::js::{error as jserr, http::Http, interop};
use crate::protocol::error::McpError;
use crate::session::ClientConfig;
use crate::transport::sse::DEFAULT_MAX_EVENT_BYTES;
use js_sys::Promise;
use serde_json::{json, Value};
use std::future::Future;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// An MCP client over Streamable HTTP, speaking the legacy and the 2026 protocol eras.
/// (Its TypeScript declaration is hand-written in `js::types`.)
#[wasm_bindgen(skip_typescript)]
pub struct Client {
    inner: Shared,
}

fn promise<F>(fut: F) -> Promise
where
    F: Future<Output = Result<Value, McpError>> + 'static,
{
    future_to_promise(async move { fut.await.map(|v| interop::to_js(&v)).map_err(jserr::to_js) })
}

#[wasm_bindgen]
impl Client {
    /// `new Client(url, { mode, clientInfo, headers, fetch, timeoutMs, maxMessageBytes, messageHandler, loggingCallback })`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        url: String,
        #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: Option<JsValue>,
    ) -> Result<Client, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let parsed = web_sys::Url::new(&url).map_err(|_| {
            jserr::to_js(McpError::input(format!(
                "Client url {url:?} is not an absolute URL"
            )))
        })?;
        let scheme = parsed.protocol();
        if scheme != "http:" && scheme != "https:" {
            return Err(jserr::to_js(McpError::input(format!(
                "Client url {url:?} must be http: or https:, not {scheme}"
            ))));
        }
        if !options.is_undefined() && !options.is_null() && !options.is_object() {
            return Err(jserr::to_js(McpError::input(
                "Client options must be an object",
            )));
        }
        let read = || -> Result<Client, McpError> {
            let mode = options::mode(&options)?;
            let mut cfg = ClientConfig {
                mode,
                ..Default::default()
            };
            if let Some(info) = options::json_object(&options, "clientInfo", "options")? {
                if info.get("name").and_then(Value::as_str).is_none()
                    || info.get("version").and_then(Value::as_str).is_none()
                {
                    return Err(McpError::input(
                        "options.clientInfo needs string name and version",
                    ));
                }
                cfg.client_info = info;
            }
            cfg.log_level = options::string(&options, "logLevel", "options")?;
            let callbacks = Callbacks {
                elicitation: options::function(&options, "elicitationCallback", "options")?,
                sampling: options::function(&options, "samplingCallback", "options")?,
                roots: options::function(&options, "listRootsCallback", "options")?,
            };
            let sampling_caps = options::json_object(&options, "samplingCapabilities", "options")?;
            cfg.registered = callbacks.registered(sampling_caps);
            let limits = Limits {
                timeout_ms: options::millis(&options, "timeoutMs", "options")?
                    .unwrap_or(DEFAULT_TIMEOUT_MS),
                max_message_bytes: options::millis(&options, "maxMessageBytes", "options")?
                    .map_or(DEFAULT_MAX_EVENT_BYTES, |n| n as usize),
                max_rounds: options::millis(&options, "inputRequiredMaxRounds", "options")?
                    .map_or(10, |n| n.min(u32::MAX as u64) as u32),
                cache: options::boolean(&options, "cache", "options")?.unwrap_or(true),
            };
            let handlers = Handlers {
                message_handler: options::function(&options, "messageHandler", "options")?,
                logging_callback: options::function(&options, "loggingCallback", "options")?,
            };
            let http = Http::new(
                url.clone(),
                options::function(&options, "fetch", "options")?,
                options::headers(&options, "options")?,
            )?;
            Ok(Client {
                inner: Inner::new(cfg, http, limits, handlers, callbacks),
            })
        };
        read().map_err(jserr::to_js)
    }

    /// Connects: probes the era (`auto`), initializes (`legacy`), or adopts a pinned version.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn connect(&self) -> Promise {
        let inner = self.inner.clone();
        promise(async move { driver::connect(&inner).await.map(|_| Value::Null) })
    }

    /// The negotiated protocol version (`undefined` before connect).
    #[wasm_bindgen(getter, js_name = protocolVersion)]
    pub fn protocol_version(&self) -> Option<String> {
        self.inner.state.borrow().protocol_version.clone()
    }

    /// `"legacy"` or `"modern"` once connected.
    #[wasm_bindgen(getter, unchecked_return_type = "\"legacy\" | \"modern\" | undefined")]
    pub fn era(&self) -> Option<String> {
        self.inner.state.borrow().era.map(|e| match e {
            crate::protocol::Era::Legacy => "legacy".to_string(),
            crate::protocol::Era::Modern => "modern".to_string(),
        })
    }

    /// Requests waiting for a response right now.
    #[wasm_bindgen(getter, js_name = pendingRequests)]
    pub fn pending_requests(&self) -> u32 {
        self.inner.inflight.borrow().len() as u32
    }

    /// `"streamable-http"`, or `"http+sse"` after falling back to the deprecated transport.
    #[wasm_bindgen(getter, unchecked_return_type = "\"streamable-http\" | \"http+sse\"")]
    pub fn transport(&self) -> String {
        if self.inner.http.endpoint().is_some() {
            "http+sse"
        } else {
            "streamable-http"
        }
        .to_string()
    }

    /// The server's `Implementation` (name, version...), when it sent one.
    #[wasm_bindgen(getter, js_name = serverInfo, unchecked_return_type = "Implementation | undefined")]
    pub fn server_info(&self) -> JsValue {
        self.inner
            .state
            .borrow()
            .server_info
            .as_ref()
            .map_or(JsValue::UNDEFINED, interop::to_js)
    }

    /// The server's capabilities.
    #[wasm_bindgen(getter, js_name = serverCapabilities, unchecked_return_type = "JsonObject | undefined")]
    pub fn server_capabilities(&self) -> JsValue {
        self.inner
            .state
            .borrow()
            .server_capabilities
            .as_ref()
            .map_or(JsValue::UNDEFINED, interop::to_js)
    }

    /// The server's instructions, if any.
    #[wasm_bindgen(getter)]
    pub fn instructions(&self) -> Option<String> {
        self.inner.state.borrow().instructions.clone()
    }

    /// The legacy `Mcp-Session-Id`, if the server issued one.
    #[wasm_bindgen(getter, js_name = sessionId)]
    pub fn session_id(&self) -> Option<String> {
        self.inner.state.borrow().session_id.clone()
    }

    /// `listTools({ cursor, all, maxPages, signal, timeoutMs })` → `{ tools, nextCursor? }`.
    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "Promise<ListToolsResult>")]
    pub fn list_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.list("tools/list", "tools", options)
    }

    /// `listResources({ cursor, all, ... })` → `{ resources, nextCursor? }`.
    #[wasm_bindgen(js_name = listResources, unchecked_return_type = "Promise<ListResourcesResult>")]
    pub fn list_resources(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.list("resources/list", "resources", options)
    }

    /// `listResourceTemplates({ cursor, all, ... })` → `{ resourceTemplates, nextCursor? }`.
    #[wasm_bindgen(js_name = listResourceTemplates, unchecked_return_type = "Promise<ListResourceTemplatesResult>")]
    pub fn list_resource_templates(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.list("resources/templates/list", "resourceTemplates", options)
    }

    /// `listPrompts({ cursor, all, ... })` → `{ prompts, nextCursor? }`.
    #[wasm_bindgen(js_name = listPrompts, unchecked_return_type = "Promise<ListPromptsResult>")]
    pub fn list_prompts(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ListOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.list("prompts/list", "prompts", options)
    }

    fn list(&self, method: &'static str, key: &'static str, options: JsValue) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            let call = read_call(&inner, &options)?;
            let cursor = options::string(&options, "cursor", "options")?;
            let all = options::boolean(&options, "all", "options")?.unwrap_or(false);
            let max_pages = options::millis(&options, "maxPages", "options")?
                .map_or(64, |n| n.min(u32::MAX as u64) as u32);
            driver::list(&inner, method, key, cursor, all.then_some(max_pages), call).await
        })
    }

    /// `readResource(uri, options)` → `{ contents }`.
    #[wasm_bindgen(js_name = readResource, unchecked_return_type = "Promise<ReadResourceResult>")]
    pub fn read_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.with_string("readResource", "uri", uri, options, |uri| {
            ("resources/read", json!({ "uri": uri }))
        })
    }

    /// `getPrompt(name, args, options)` → `{ description?, messages }`.
    #[wasm_bindgen(js_name = getPrompt, unchecked_return_type = "Promise<GetPromptResult>")]
    pub fn get_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ [name: string]: string }")] args: Option<JsValue>,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let args = args.unwrap_or(JsValue::UNDEFINED);
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let arguments = interop::from_js(&args);
        self.with_string("getPrompt", "name", name, options, move |name| {
            let mut p = json!({ "name": name });
            if let Ok(a @ Value::Object(_)) = &arguments {
                p["arguments"] = a.clone();
            }
            ("prompts/get", p)
        })
    }

    /// `complete(ref, argument, context?, options)` → `{ completion: { values, total?, hasMore? } }`.
    #[wasm_bindgen(unchecked_return_type = "Promise<CompleteResult>")]
    pub fn complete(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CompletionReference")] reference: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ name: string; value: string }")] argument: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ arguments?: { [name: string]: string } }")]
        context: Option<JsValue>,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let context = context.unwrap_or(JsValue::UNDEFINED);
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let inner = self.inner.clone();
        promise(async move {
            let call = read_call(&inner, &options)?;
            let reference = interop::from_js(&reference).ok().filter(Value::is_object).ok_or_else(|| McpError::input("complete: ref must be { type: \"ref/prompt\", name } or { type: \"ref/resource\", uri }"))?;
            let argument = interop::from_js(&argument)
                .ok()
                .filter(|a| a.get("name").and_then(Value::as_str).is_some())
                .ok_or_else(|| McpError::input("complete: argument must be { name, value }"))?;
            let mut params = json!({ "ref": reference, "argument": argument });
            if let Ok(c @ Value::Object(_)) = interop::from_js(&context) {
                params["context"] = c;
            }
            driver::request(&inner, "completion/complete", Some(params), call).await
        })
    }

    /// `listen({ toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions }, options)`
    /// → an async iterable of notifications with `honoured` and `close()`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Subscription>")]
    pub fn listen(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SubscriptionFilter")] filter: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let inner = self.inner.clone();
        future_to_promise(async move {
            let run = async {
                let call = read_call(&inner, &options)?;
                let filter = interop::from_js(&filter)
                    .map_err(|e| McpError::input(format!("listen: the filter is not JSON: {e}")))?;
                let state = crate::js::listen::listen(&inner, &filter, call.clone()).await?;
                Ok::<_, McpError>(crate::js::listen::to_js(&inner, state, call))
            };
            run.await.map_err(jserr::to_js)
        })
    }

    /// `ping(options)`: legacy only.
    #[wasm_bindgen(unchecked_return_type = "Promise<EmptyResult>")]
    pub fn ping(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let inner = self.inner.clone();
        promise(async move {
            legacy_only(
                &inner,
                "ping",
                "2026 removed ping; any request shows the server is alive",
            )?;
            let call = read_call(&inner, &options)?;
            driver::request(&inner, "ping", None, call).await
        })
    }

    /// `subscribeResource(uri, options)`: legacy only; updates reach `messageHandler`.
    #[wasm_bindgen(js_name = subscribeResource, unchecked_return_type = "Promise<EmptyResult>")]
    pub fn subscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.legacy_uri("subscribeResource", "resources/subscribe", uri, options)
    }

    /// `unsubscribeResource(uri, options)`: legacy only.
    #[wasm_bindgen(js_name = unsubscribeResource, unchecked_return_type = "Promise<EmptyResult>")]
    pub fn unsubscribe_resource(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uri: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.legacy_uri("unsubscribeResource", "resources/unsubscribe", uri, options)
    }

    fn legacy_uri(
        &self,
        what: &'static str,
        method: &'static str,
        uri: JsValue,
        options: JsValue,
    ) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            legacy_only(
                &inner,
                what,
                "use a subscriptions/listen stream (issue: listen())",
            )?;
            let call = read_call(&inner, &options)?;
            let uri = uri.as_string().filter(|u| !u.is_empty()).ok_or_else(|| {
                McpError::input(format!("{what}: uri must be a non-empty string"))
            })?;
            driver::request(&inner, method, Some(json!({ "uri": uri })), call).await
        })
    }

    fn with_string(
        &self,
        what: &'static str,
        arg: &'static str,
        value: JsValue,
        options: JsValue,
        build: impl FnOnce(String) -> (&'static str, Value) + 'static,
    ) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            let call = read_call(&inner, &options)?;
            let v = value.as_string().filter(|v| !v.is_empty()).ok_or_else(|| {
                McpError::input(format!("{what}: {arg} must be a non-empty string"))
            })?;
            let (method, params) = build(v);
            driver::request(&inner, method, Some(params), call).await
        })
    }

    /// `callTool(name, args, { signal, timeoutMs })` → `CallToolResult` (wire shape).
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<CallToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "JsonObject")] args: Option<JsValue>,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let args = args.unwrap_or(JsValue::UNDEFINED);
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let inner = self.inner.clone();
        promise(async move {
            let call = read_call(&inner, &options)?;
            let name = name
                .as_string()
                .filter(|n| !n.is_empty())
                .ok_or_else(|| McpError::input("callTool: name must be a non-empty string"))?;
            let mut params = json!({ "name": name });
            if !args.is_undefined() && !args.is_null() {
                match interop::from_js(&args) {
                    Ok(Value::Object(o)) => params["arguments"] = Value::Object(o),
                    Ok(_) => return Err(McpError::input("callTool: arguments must be an object")),
                    Err(e) => {
                        return Err(McpError::input(format!(
                            "callTool: arguments are not JSON-serializable: {e}"
                        )))
                    }
                }
            }
            driver::request(&inner, "tools/call", Some(params), call).await
        })
    }

    /// `request(method, params, { signal, timeoutMs })`: any method, result as sent.
    #[wasm_bindgen(unchecked_return_type = "Promise<JsonObject>")]
    pub fn request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
        #[wasm_bindgen(unchecked_param_type = "JsonObject")] params: Option<JsValue>,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let params = params.unwrap_or(JsValue::UNDEFINED);
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let inner = self.inner.clone();
        promise(async move {
            let call = read_call(&inner, &options)?;
            let method = method
                .as_string()
                .filter(|m| !m.is_empty())
                .ok_or_else(|| McpError::input("request: method must be a non-empty string"))?;
            let params = match interop::from_js(&params) {
                Ok(Value::Null) => None,
                Ok(v @ Value::Object(_)) => Some(v),
                _ => return Err(McpError::input("request: params must be an object")),
            };
            driver::request(&inner, &method, params, call).await
        })
    }

    /// `setLoggingLevel(level)`: legacy `logging/setLevel` (2026: use the `logLevel` option).
    #[wasm_bindgen(js_name = setLoggingLevel, unchecked_return_type = "Promise<EmptyResult>")]
    pub fn set_logging_level(
        &self,
        #[wasm_bindgen(unchecked_param_type = "LoggingLevel")] level: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CallOptions")] options: Option<JsValue>,
    ) -> Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let inner = self.inner.clone();
        promise(async move {
            legacy_only(
                &inner,
                "setLoggingLevel",
                "pass the logLevel option instead",
            )?;
            let call = read_call(&inner, &options)?;
            let level = level
                .as_string()
                .ok_or_else(|| McpError::input("setLoggingLevel: level must be a string"))?;
            driver::request(
                &inner,
                "logging/setLevel",
                Some(json!({ "level": level })),
                call,
            )
            .await
        })
    }

    /// `sendRootsListChanged()`: legacy `notifications/roots/list_changed`.
    #[wasm_bindgen(js_name = sendRootsListChanged, unchecked_return_type = "Promise<void>")]
    pub fn send_roots_list_changed(&self) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            legacy_only(
                &inner,
                "sendRootsListChanged",
                "2026 servers ask for roots in each input_required round",
            )?;
            driver::notify(&inner, "notifications/roots/list_changed", None)
                .await
                .map(|_| Value::Null)
        })
    }

    /// Closes the client: pending calls fail, a legacy session is DELETEd.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        let inner = self.inner.clone();
        promise(async move {
            driver::close(&inner).await;
            Ok(Value::Null)
        })
    }
}

fn legacy_only(inner: &Inner, what: &str, instead: &str) -> Result<(), McpError> {
    match inner.state.borrow().era {
        Some(crate::protocol::Era::Modern) => Err(McpError::local(
            crate::protocol::error::METHOD_NOT_FOUND,
            crate::protocol::error::ErrorKind::Input,
            format!(
                "{what} exists only in the legacy era; this session speaks 2026-07-28: {instead}"
            ),
            Value::Null,
        )),
        None => Err(McpError::closed(
            "Client is not connected: await client.connect() first",
        )),
        _ => Ok(()),
    }
}

fn read_call(inner: &Inner, options: &JsValue) -> Result<Call, McpError> {
    let o = CallOptions::read(options)?;
    Ok(Call {
        timeout_ms: o.timeout_ms.unwrap_or(inner.timeout_ms),
        signal: o.signal,
        on_progress: o.on_progress,
        reset_timeout_on_progress: o.reset_timeout_on_progress,
        max_total_timeout_ms: o.max_total_timeout_ms,
        progress_bump: None,
    })
}
