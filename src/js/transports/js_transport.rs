//! A transport written in JavaScript: any object with the TypeScript SDK's `Transport` shape
//! (`start()`, `send(message)`, `close()`, each may return a promise, and the `onmessage`,
//! `onclose`, `onerror` properties the client sets), as an `engine::Transport`. Messages cross
//! as plain objects. A response goes to the request waiting for it, a 2026 listen stream's
//! messages by their `subscriptionId`, everything else to the engine.

use crate::engine::{Exchange, Inbox, Sent, Transport};
use crate::js::boundary::{error as jserr, interop};
use crate::json::{json, Value};
use crate::protocol::error::{ErrorKind, McpError, CONNECTION_CLOSED, INVALID_REQUEST};
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::session::stamp::Outgoing;
use crate::util::oneshot;
use crate::util::small_map::SmallMap;
use futures::future::LocalBoxFuture;
use futures::FutureExt;
use js_sys::{Function, Promise, Reflect};
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// `_meta` key naming the 2026 listen request a message belongs to.
const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// What `windowTransport` / `messagePortTransport` mark a refused message with (`error.code`).
const DROPPED_CODE: &str = "MCP_MESSAGE_DROPPED";

/// A request waiting for its response: where its messages go, and who to wake.
struct Route {
    inbox: Rc<dyn Inbox>,
    done: Option<oneshot::Sender<crate::session::inflight::Outcome>>,
}

/// Where `start()` is: not called yet, called (its promise), or settled.
enum Start {
    Idle,
    Pending(Promise),
    Done(Result<(), McpError>),
}

struct Inner {
    object: JsValue,
    start: Function,
    send: Function,
    close: Function,
    engine: RefCell<Option<Weak<dyn Inbox>>>,
    routes: RefCell<SmallMap<RequestId, Route>>,
    started: RefCell<Start>,
    /// Why the transport is closed (by the client, or its `onclose`), once it is.
    closed: RefCell<Option<McpError>>,
    /// The handlers set on the object (kept alive here; unset when dropped).
    on_message: Closure<dyn FnMut(JsValue)>,
    on_close: Closure<dyn FnMut()>,
    on_error: Closure<dyn FnMut(JsValue)>,
    closing: Cell<bool>,
    /// `maxMessageBytes`: the longest JSON text of one message handed to `onmessage`.
    max_bytes: Cell<usize>,
}

/// The engine's transport over a JS object of the TypeScript SDK's `Transport` shape.
pub struct JsTransport {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for JsTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsTransport").finish_non_exhaustive()
    }
}

/// The text of a thrown JS value (an `Error`'s message, or the value as a string).
fn thrown_text(e: &JsValue) -> String {
    jserr::from_js(e).into_parts().message
}

fn transport_closed(message: String) -> McpError {
    McpError::local(
        CONNECTION_CLOSED,
        ErrorKind::TransportClosed,
        message,
        Value::Null,
    )
}

fn method_of(f: &JsValue, name: &str) -> Option<Function> {
    Reflect::get(f, &name.into())
        .ok()
        .and_then(|m| m.dyn_into::<Function>().ok())
}

/// Calls `f` on `object` (with `arg`): a promise of what it returns (a value, a promise or a
/// thenable), rejected with what it throws.
fn call(f: &Function, object: &JsValue, arg: Option<&JsValue>) -> Promise {
    let returned = match arg {
        Some(a) => f.call1(object, a),
        None => f.call0(object),
    };
    match returned {
        Ok(v) => Promise::resolve(&v),
        Err(e) => Promise::reject(&e),
    }
}

impl JsTransport {
    /// Reads `options.transport`: an object with `start`, `send` and `close` functions.
    pub fn new(object: JsValue) -> Result<JsTransport, McpError> {
        if !object.is_object() {
            return Err(McpError::input(
                "options.transport must be an object with the TypeScript SDK's Transport shape: start(), send(message), close()",
            ));
        }
        let names = ["start", "send", "close"];
        let methods = names.map(|m| method_of(&object, m));
        let missing: Vec<&str> = names
            .into_iter()
            .zip(&methods)
            .filter_map(|(n, m)| m.is_none().then_some(n))
            .collect();
        let [Some(start), Some(send), Some(close)] = methods else {
            return Err(McpError::input(format!(
                "options.transport must have the TypeScript SDK's Transport shape (start(), send(message), close() functions); missing: {}",
                missing.join(", ")
            )));
        };
        let inner = Rc::new_cyclic(|me: &Weak<Inner>| {
            let (m, c, e) = (me.clone(), me.clone(), me.clone());
            Inner {
                object: object.clone(),
                start,
                send,
                close,
                engine: RefCell::new(None),
                routes: RefCell::new(SmallMap::new()),
                started: RefCell::new(Start::Idle),
                closed: RefCell::new(None),
                // a message is decoded and delivered here, outside any method's future: a
                // panic in it poisons the instance as one in a future does (its error reaches
                // the calls through the poison, so it is dropped here)
                on_message: Closure::new(move |v: JsValue| {
                    if let Some(i) = m.upgrade() {
                        let _ = jserr::guarded(&JsValue::UNDEFINED, || i.receive(&v));
                    }
                }),
                on_close: Closure::new(move || {
                    if let Some(i) = c.upgrade() {
                        i.peer_closed();
                    }
                }),
                on_error: Closure::new(move |v: JsValue| {
                    if let Some(i) = e.upgrade() {
                        i.report_error(&v);
                    }
                }),
                closing: Cell::new(false),
                max_bytes: Cell::new(usize::MAX),
            }
        });
        inner.install();
        Ok(JsTransport { inner })
    }

    /// Refuses messages whose JSON text is longer than `max_bytes` (`maxMessageBytes`).
    pub fn with_max_message_bytes(self, max_bytes: usize) -> Self {
        self.inner.max_bytes.set(max_bytes);
        self
    }
}

impl Inner {
    /// Sets `onmessage`, `onclose`, `onerror` on the object.
    fn install(&self) {
        let set = |key: &str, f: &JsValue| {
            let _ = Reflect::set(&self.object, &key.into(), f);
        };
        set("onmessage", self.on_message.as_ref());
        set("onclose", self.on_close.as_ref());
        set("onerror", self.on_error.as_ref());
    }

    fn engine(&self) -> Option<Rc<dyn Inbox>> {
        self.engine.borrow().as_ref().and_then(Weak::upgrade)
    }

    fn surface(&self, error: McpError) {
        if let Some(engine) = self.engine() {
            engine.surface_error(error);
        }
    }

    /// `onmessage(message)`: one JSON-RPC message as a plain object.
    fn receive(&self, value: &JsValue) {
        if self.closed.borrow().is_some() {
            return;
        }
        if !value.is_object() || js_sys::Array::is_array(value) {
            let shown = if value.is_string() {
                "a string (JSON text? the transport must parse it)".to_string()
            } else {
                format!("a {}", value.js_typeof().as_string().unwrap_or_default())
            };
            self.surface(McpError::protocol(
                INVALID_REQUEST,
                format!("The transport's onmessage received {shown}, not a JSON-RPC message object; ignored"),
            ));
            return;
        }
        let json = match interop::from_js_capped(value, self.max_bytes.get()) {
            Ok(v) => v,
            Err(Some(length)) => return self.refuse_too_large(value, length),
            Err(None) => {
                let e = interop::from_js(value).err().unwrap_or_default();
                self.surface(McpError::protocol(
                    INVALID_REQUEST,
                    format!("The transport's onmessage received an object that is not JSON ({e}); ignored"),
                ));
                return;
            }
        };
        let raw_id = json.get("id").and_then(RequestId::from_value);
        match Message::from_value(json) {
            Ok(message) => self.route(message),
            Err(error) => {
                // A broken reply to a waiting request fails that request, not only a report.
                if let Some(route) = raw_id.and_then(|id| self.routes.borrow_mut().remove(&id)) {
                    if let Some(done) = route.done {
                        let _ = done.send(Err(error));
                    }
                } else {
                    self.surface(error);
                }
            }
        }
    }

    /// A message over `maxMessageBytes`, never copied into wasm memory: the request it answers
    /// (by its `id`) fails with the error, else it is reported.
    fn refuse_too_large(&self, value: &JsValue, length: u32) {
        let max = self.max_bytes.get();
        let error = McpError::local(
            INVALID_REQUEST,
            ErrorKind::Protocol,
            format!("The transport's onmessage received a message of {length} characters of JSON, larger than maxMessageBytes ({max}); refused"),
            json!({ "maxMessageBytes": max }),
        );
        // Only a string or number id is copied (a request id is small).
        let id = Reflect::get(value, &"id".into())
            .ok()
            .filter(|id| id.is_string() || id.as_f64().is_some())
            .and_then(|id| interop::from_js(&id).ok());
        let route = id
            .as_ref()
            .and_then(RequestId::from_value)
            .and_then(|id| self.routes.borrow_mut().remove(&id));
        match route.and_then(|r| r.done) {
            Some(done) => {
                let _ = done.send(Err(error));
            }
            None => self.surface(error),
        }
    }

    /// Delivers a message to the request (or listen stream) it belongs to, else the engine.
    fn route(&self, message: Message) {
        let key = match &message {
            Message::Result { id, .. } | Message::Error { id: Some(id), .. } => Some(id.clone()),
            Message::Notification {
                params: Some(params),
                ..
            } => params
                .get("_meta")
                .and_then(|m| m.get(META_SUBSCRIPTION_ID))
                .and_then(RequestId::from_value),
            _ => None,
        };
        let routed = key
            .as_ref()
            .and_then(|k| self.routes.borrow().get(k).map(|r| r.inbox.clone()));
        match (key, routed) {
            (Some(key), Some(inbox)) => {
                if inbox.deliver(message, Some(&key)) {
                    let route = self.routes.borrow_mut().remove(&key);
                    if let Some(done) = route.and_then(|r| r.done) {
                        let _ = done.send(Ok(Value::Null));
                    }
                }
            }
            _ => {
                if let Some(engine) = self.engine() {
                    engine.deliver(message, None);
                }
            }
        }
    }

    /// `onclose()`: fails what waits, unless the client closed it.
    fn peer_closed(&self) {
        if self.closing.get() || self.closed.borrow().is_some() {
            return;
        }
        let error = transport_closed(
            "The transport closed (its onclose) while the client was using it".into(),
        );
        *self.closed.borrow_mut() = Some(error.clone());
        self.fail_routes(&error);
        if let Some(engine) = self.engine() {
            engine.lost(error);
        }
    }

    fn fail_routes(&self, error: &McpError) {
        let mut routes = std::mem::take(&mut *self.routes.borrow_mut());
        for (_, r) in routes.drain() {
            if let Some(done) = r.done {
                let _ = done.send(Err(error.clone()));
            }
        }
    }

    /// `onerror(error)`: told to `messageHandler`; a message a transport refused (another
    /// origin or source) as `data.kind === "dropped"`.
    fn report_error(&self, e: &JsValue) {
        let field = |k: &str| Reflect::get(e, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let error = if field("code").as_string().as_deref() == Some(DROPPED_CODE) {
            let text = |k: &str| field(k).as_string().map_or(Value::Null, Value::String);
            McpError::local(
                INVALID_REQUEST,
                ErrorKind::Dropped,
                thrown_text(e),
                json!({ "origin": text("origin"), "reason": text("reason") }),
            )
        } else {
            McpError::local(
                CONNECTION_CLOSED,
                ErrorKind::Network,
                format!("The transport reported an error: {}", thrown_text(e)),
                Value::Null,
            )
        };
        self.surface(error);
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // The object may outlive the client: leave no handler pointing at freed closures.
        for key in ["onmessage", "onclose", "onerror"] {
            let _ = Reflect::set(&self.object, &key.into(), &JsValue::UNDEFINED);
        }
    }
}

impl JsTransport {
    fn check_open(&self) -> Result<(), McpError> {
        match self.inner.closed.borrow().as_ref() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// `start()`, once, on the first message sent; every sender awaits it.
    async fn started(&self) -> Result<(), McpError> {
        let pending = match &*self.inner.started.borrow() {
            Start::Done(r) => return r.clone(),
            Start::Pending(p) => Some(p.clone()),
            Start::Idle => None,
        };
        let promise = pending.unwrap_or_else(|| {
            let p = call(&self.inner.start, &self.inner.object, None);
            *self.inner.started.borrow_mut() = Start::Pending(p.clone());
            p
        });
        let r = JsFuture::from(promise).await.map(|_| ()).map_err(|e| {
            McpError::local(
                CONNECTION_CLOSED,
                ErrorKind::Network,
                format!("The transport's start() failed: {}", thrown_text(&e)),
                Value::Null,
            )
        });
        *self.inner.started.borrow_mut() = Start::Done(r.clone());
        r
    }

    /// Starts if needed, then hands `out`'s message to `send()` as a plain object.
    async fn send(&self, out: &Outgoing, what: &str) -> Result<(), McpError> {
        self.check_open()?;
        self.started().await?;
        self.check_open()?;
        // The body as a plain object in one native parse (it is crate::json's own JSON text).
        let message = interop::json_text_to_js(&out.body);
        JsFuture::from(call(&self.inner.send, &self.inner.object, Some(&message)))
            .await
            .map(|_| ())
            .map_err(|e| {
                McpError::local(
                    CONNECTION_CLOSED,
                    ErrorKind::Network,
                    format!("{what}: the transport's send() failed: {}", thrown_text(&e)),
                    Value::Null,
                )
            })
    }
}

/// Removes a request's route when its exchange ends or is dropped.
struct RouteGuard<'a> {
    inner: &'a Inner,
    id: RequestId,
}

impl Drop for RouteGuard<'_> {
    fn drop(&mut self) {
        self.inner.routes.borrow_mut().remove(&self.id);
    }
}

impl Transport for JsTransport {
    fn name(&self) -> &'static str {
        "javascript"
    }

    fn message_based(&self) -> bool {
        true
    }

    fn attach(&self, inbox: Weak<dyn Inbox>) {
        *self.inner.engine.borrow_mut() = Some(inbox);
    }

    fn request<'a>(
        &'a self,
        exchange: Exchange<'a>,
        inbox: Rc<dyn Inbox>,
    ) -> LocalBoxFuture<'a, Result<Sent, McpError>> {
        async move {
            self.check_open()?;
            let (done, answered) = oneshot::channel();
            let id = exchange.id.clone();
            self.inner.routes.borrow_mut().insert(
                id.clone(),
                Route {
                    inbox,
                    done: Some(done),
                },
            );
            let _guard = RouteGuard {
                inner: &self.inner,
                id,
            };
            self.send(exchange.out, exchange.what).await?;
            match answered.await {
                Ok(outcome) => outcome.map(|_| Sent::Answered),
                Err(_) => Err(transport_closed(format!(
                    "{}: the transport closed before the response",
                    exchange.what
                ))),
            }
        }
        .boxed_local()
    }

    fn post<'a>(
        &'a self,
        out: &'a Outgoing,
        what: &'a str,
    ) -> LocalBoxFuture<'a, Result<(), McpError>> {
        self.send(out, what).boxed_local()
    }

    fn close(&self, _session: Option<Vec<(String, String)>>) -> LocalBoxFuture<'_, ()> {
        async move {
            if self.inner.closed.borrow().is_some() {
                return;
            }
            self.inner.closing.set(true);
            let error = McpError::closed_while("the request was in flight");
            *self.inner.closed.borrow_mut() = Some(McpError::closed("Client is closed"));
            self.inner.fail_routes(&error);
            let closing = call(&self.inner.close, &self.inner.object, None);
            if let Err(e) = JsFuture::from(closing).await {
                self.inner.surface(McpError::warning(format!(
                    "The transport's close() failed: {}",
                    thrown_text(&e)
                )));
            }
        }
        .boxed_local()
    }
}
