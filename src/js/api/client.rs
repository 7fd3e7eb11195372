//! The exported `Client` class: arguments checked synchronously, then one generic path from
//! the engine's future to a promise of plain wire-shape objects.

use crate::engine::Engine;
use crate::js::api::settle::{settle, Call};
use crate::js::boundary::interop;
use crate::js::boundary::options::{self, non_empty, optional_object};
use crate::json::{json, Value};
use crate::protocol::error::{McpError, METHOD_NOT_FOUND};
use crate::protocol::version::Era;
use crate::session::lists::{ListKind, Phase};
use js_sys::Promise;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

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

/// What a method call does once its arguments are read.
enum Op {
    /// A request with these params; a list method with its result key and a page cap reads
    /// every page.
    Request(String, Option<Value>, Option<(&'static str, u32)>),
    /// `callTool`: `tools/call` with these params, waiting for a task if one is made.
    CallTool(Value, crate::engine::TaskCall),
    /// A legacy notification.
    Notify(&'static str),
    /// `connect()`, with the `_meta` for its handshake request.
    Connect(Option<Value>),
    /// `close()`.
    Close,
    /// `listen(filter)`, the filter as JSON.
    Listen(Value),
}

/// An MCP client over Streamable HTTP or a transport written in JavaScript, speaking the legacy and the 2026 protocol eras:
/// the core behind the exported `Client`, a JavaScript `EventTarget` (`client.js`) that forwards
/// every method and getter here. (Its TypeScript declaration is hand-written in `js::types`; its
/// constructor is in `api::new_client`, and the sign-in methods are in `api::sign_in`, or
/// `api::without_auth` in a build without the `auth` feature.)
#[wasm_bindgen(skip_typescript, js_name = ClientCore)]
#[derive(Debug)]
pub struct Client {
    pub(super) engine: Rc<Engine>,
    /// The `auth` option's flow (`api::sign_in` has the methods that use it).
    #[cfg(feature = "auth")]
    pub(super) auth: Option<Rc<crate::js::auth::JsAuthorizer>>,
    /// As a lean client's authorization part: its requests' open operations.
    #[cfg(feature = "auth")]
    pub(super) part_ops: Rc<crate::js::auth::part::PartOperations>,
    /// The lean module's authorization part (`js::host::auth_part`), for a client with `auth`.
    #[cfg(not(feature = "auth"))]
    pub(super) part: Option<crate::js::host::auth_part::AuthorizationPart>,
    /// The skill entries `client.skills` has listed or got (`api::skills` has the methods).
    #[cfg(feature = "skills")]
    pub(super) skills: Rc<std::cell::RefCell<Vec<crate::session::skills::entry::Skill>>>,
    /// The `loggingCallback` option, handed back by the getter of that name.
    pub(super) logging_callback: Option<js_sys::Function>,
}

#[wasm_bindgen(js_class = ClientCore)]
impl Client {
    /// Connects: probes the era (`auto`), initializes (`legacy`), or adopts a pinned version;
    /// `options._meta` (a tracer's trace context, from tracing.js) goes in the handshake's
    /// `params._meta` (other keys are ignored, as any argument was before).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn connect(&self, options: JsValue) -> Promise {
        let op = options::call_meta(&options).map(Op::Connect);
        if op.is_ok() {
            self.engine.connect_called();
        }
        self.run(op, &JsValue::UNDEFINED)
    }

    /// `"idle"`, `"connecting"`, `"connected"`, `"closed"` or `"failed"`.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> String {
        self.engine.phase().name().to_string()
    }

    /// Why the state is `"failed"` (`undefined` otherwise).
    #[wasm_bindgen(getter, unchecked_return_type = "McpError | undefined")]
    pub fn error(&self) -> JsValue {
        self.engine
            .failure()
            .filter(|_| self.engine.phase() == Phase::Failed)
            .map_or(JsValue::UNDEFINED, crate::js::boundary::error::to_js)
    }

    /// The last complete tools list (`undefined` until one was listed).
    #[wasm_bindgen(getter, unchecked_return_type = "Tool[] | undefined")]
    pub fn tools(&self) -> JsValue {
        self.kept(ListKind::Tools)
    }

    /// The last complete prompts list (`undefined` until one was listed).
    #[wasm_bindgen(getter, unchecked_return_type = "Prompt[] | undefined")]
    pub fn prompts(&self) -> JsValue {
        self.kept(ListKind::Prompts)
    }

    /// The last complete resources list (`undefined` until one was listed).
    #[wasm_bindgen(getter, unchecked_return_type = "Resource[] | undefined")]
    pub fn resources(&self) -> JsValue {
        self.kept(ListKind::Resources)
    }

    /// The `loggingCallback` option (`undefined` without one): where `<mcp-app-frame>` sends its app's log messages.
    #[wasm_bindgen(getter, js_name = loggingCallback)]
    pub fn logging_callback(&self) -> Option<js_sys::Function> {
        self.logging_callback.clone()
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

    /// The 2026 `server/discover` result (adopted or probed), or `null` on a legacy session
    /// and before connecting: store it and pass it back as the `discoverResult` option.
    #[wasm_bindgen(getter, js_name = discoverResult, unchecked_return_type = "DiscoverResult | null")]
    pub fn discover_result(&self) -> JsValue {
        let st = self.engine.state.borrow();
        match (&st.era, &st.discover_result) {
            (Some(Era::Modern), Some(d)) => interop::to_js(d),
            _ => JsValue::NULL,
        }
    }

    /// The server's instructions, if any.
    #[wasm_bindgen(getter, unchecked_return_type = "string | undefined")]
    pub fn instructions(&self) -> JsValue {
        text(self.engine.state.borrow().instructions.as_deref())
    }

    /// `client.tasks`: `get`, `result`, `cancel`, `list` of the server's tasks.
    #[wasm_bindgen(getter, unchecked_return_type = "Tasks")]
    pub fn tasks(&self) -> super::tasks::Tasks {
        super::tasks::Tasks::new(self.engine.clone())
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

    /// `callTool(name, args, { signal, timeoutMs, task, onTask })` → `CallToolResult` (wire
    /// shape), the final one when the server runs the call as a task.
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
            let task = crate::js::boundary::task_options::task_call(&options)?;
            Ok(Op::CallTool(params, task))
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

    /// Closes the client: pending calls fail, a legacy session is DELETEd.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> Promise {
        self.run(Ok(Op::Close), &JsValue::UNDEFINED)
    }

    /// `await using client = new Client(…)`: closes the client as `close()` does.
    #[wasm_bindgen(
        js_name = "[Symbol.asyncDispose]",
        unchecked_return_type = "Promise<void>"
    )]
    pub fn async_dispose(&self) -> Promise {
        self.close()
    }
}

impl Client {
    /// A kept list as JS (`undefined` before one was listed).
    fn kept(&self, kind: ListKind) -> JsValue {
        self.engine
            .list(kind)
            .map_or(JsValue::UNDEFINED, |v| interop::to_js(&v))
    }

    /// The one path from a method call to its promise: per-call options read now, the
    /// operation run by the engine, the result converted once.
    fn run(&self, op: Result<Op, McpError>, options: &JsValue) -> Promise {
        // The options are read only for a valid call.
        self.run_with(op.and_then(|op| {
            if options.is_undefined() {
                // none given (the usual call): the defaults, without a read of each option
                return Ok((op, options::default_call(self.engine.limits.timeout_ms)));
            }
            let call = options::call_options(options, self.engine.limits.timeout_ms)?;
            Ok((with_meta(op, options::call_meta(options)?), call))
        }))
    }

    /// [`Client::run`] with the per-call options already read.
    fn run_with(&self, ready: Result<(Op, Call), McpError>) -> Promise {
        let engine = self.engine.clone();
        settle(ready, move |op, opts| async move {
            // One exit for every error: each arm yields a JS value or an McpError.
            match op {
                Op::Listen(filter) => crate::parts::listen::get()
                    .await?
                    .listen(&engine, &filter, &opts)
                    .await
                    .map(|sub| crate::js::api::listen::to_js(&engine, sub, opts)),
                Op::Request(method, params, pages) => engine
                    .request_pages(&method, params, pages, &opts)
                    .await
                    .map(|v| interop::to_js(&v)),
                Op::CallTool(params, task) => engine
                    .call_tool(params, &task, &opts)
                    .await
                    .map(|v| interop::to_js(&v)),
                Op::Notify(method) => engine.notify(method, None).await.map(|()| JsValue::NULL),
                Op::Connect(meta) => engine.connect_with(meta).await.map(|()| JsValue::NULL),
                Op::Close => {
                    engine.close().await;
                    Ok(JsValue::NULL)
                }
            }
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

/// A request's params with the `_meta` call option's keys merged into `params._meta`.
fn with_meta(op: Op, meta: Option<Value>) -> Op {
    let Some(Value::Object(keys)) = meta else {
        return op;
    };
    let merged = |params: Option<Value>| {
        let mut params = params.unwrap_or_else(|| json!({}));
        if !params["_meta"].is_object() {
            params["_meta"] = json!({});
        }
        if let Some(into) = params["_meta"].as_object_mut() {
            into.extend(keys);
        }
        params
    };
    match op {
        Op::Request(method, params, pages) => Op::Request(method, Some(merged(params)), pages),
        Op::CallTool(params, task) => Op::CallTool(merged(Some(params)), task),
        op => op,
    }
}
