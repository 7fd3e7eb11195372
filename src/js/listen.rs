//! `client.listen(filter)`: an async iterable of change notifications. 2026: a
//! `subscriptions/listen` request whose SSE response is the stream; legacy: the GET stream's
//! notifications (plus `resources/subscribe`), so application code does not care which era.

use crate::js::abort::sleep;
use crate::js::driver::{self, Call, Shared};
use crate::js::{error as jserr, interop};
use crate::protocol::error::{McpError, CONNECTION_CLOSED, INVALID_REQUEST};
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::protocol::version::Era;
use crate::session::subscriptions::{legacy_honoured, matches, normalize_filter};
use futures::channel::oneshot;
use futures::{pin_mut, select, FutureExt};
use js_sys::{Function, Object, Promise, Reflect};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortController;

#[wasm_bindgen(inline_js = "export function asyncIterable(next, close, honoured) {
  return {
    honoured,
    next,
    close,
    return: async () => { await close(); return { value: undefined, done: true }; },
    [Symbol.asyncIterator]() { return this; },
  };
}")]
extern "C" {
    #[wasm_bindgen(js_name = asyncIterable)]
    fn async_iterable(next: &Function, close: &Function, honoured: &JsValue) -> JsValue;
}

/// One subscription's queue of notifications.
#[derive(Default)]
pub struct ListenState {
    queue: RefCell<VecDeque<Result<Value, McpError>>>,
    waiter: RefCell<Option<oneshot::Sender<()>>>,
    done: Cell<bool>,
    closed_by_client: Cell<bool>,
    /// What the server will deliver.
    pub honoured: RefCell<Value>,
    controller: Option<AbortController>,
    legacy_uris: RefCell<Vec<String>>,
}

impl ListenState {
    /// Queues a notification (or the error that ends the stream).
    pub fn push(&self, item: Result<Value, McpError>) {
        if self.done.get() {
            return;
        }
        self.queue.borrow_mut().push_back(item);
        self.wake();
    }

    /// No more items will come.
    pub fn finish(&self) {
        self.done.set(true);
        self.wake();
    }

    fn wake(&self) {
        if let Some(w) = self.waiter.borrow_mut().take() {
            let _ = w.send(());
        }
    }

    /// True when a legacy notification falls under this subscription.
    pub fn wants(&self, method: &str, params: &Value) -> bool {
        !self.done.get() && matches(&self.honoured.borrow(), method, params)
    }

    async fn next(&self) -> Result<Option<Value>, McpError> {
        loop {
            if let Some(item) = self.queue.borrow_mut().pop_front() {
                return item.map(Some);
            }
            if self.done.get() {
                return Ok(None);
            }
            let (tx, rx) = oneshot::channel();
            *self.waiter.borrow_mut() = Some(tx);
            let _ = rx.await;
        }
    }
}

/// Opens a subscription; resolves once the server acknowledged it (2026) or the legacy
/// `resources/subscribe` calls returned.
pub async fn listen(
    inner: &Shared,
    filter: &Value,
    call: Call,
) -> Result<Rc<ListenState>, McpError> {
    let filter = normalize_filter(filter)?;
    let era = inner.state.borrow().era;
    match era {
        Some(Era::Modern) => {}
        Some(Era::Legacy) => {
            return Ok(listen_legacy(inner, &filter, &call).await);
        }
        None => {
            return Err(McpError::closed(
                "Client is not connected: await client.connect() first",
            ))
        }
    }
    let n = inner.next_listen.get() + 1;
    inner.next_listen.set(n);
    let id = RequestId::Str(format!("listen-{n}"));
    let controller =
        AbortController::new().map_err(|_| McpError::closed("AbortController unavailable"))?;
    let state = Rc::new(ListenState {
        controller: Some(controller.clone()),
        ..Default::default()
    });
    let head = driver::open_stream(
        inner,
        id.clone(),
        "subscriptions/listen",
        json!({ "notifications": filter }),
        &controller,
        call.timeout_ms,
    )
    .await?;
    let (ack_tx, ack_rx) = oneshot::channel::<Value>();
    let task_state = state.clone();
    let task_inner = inner.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let mut ack = Some(ack_tx);
        let mut graceful = false;
        let read = driver::read_stream_messages(
            &head,
            "subscriptions/listen",
            task_inner.max_message_bytes,
            |m| match m {
                Message::Notification { method, params }
                    if method == "notifications/subscriptions/acknowledged" =>
                {
                    if let Some(tx) = ack.take() {
                        let _ = tx.send(
                            params
                                .as_ref()
                                .and_then(|p| p.get("notifications"))
                                .cloned()
                                .unwrap_or(Value::Null),
                        );
                    }
                    false
                }
                Message::Notification { method, params } => {
                    driver::on_notification(&task_inner, &method, params.clone());
                    let mut n = json!({ "method": method });
                    if let Some(p) = params {
                        n["params"] = p;
                    }
                    task_state.push(Ok(n));
                    false
                }
                Message::Result { id: rid, .. } if rid == id => {
                    graceful = true;
                    true
                }
                Message::Error { error, .. } => {
                    task_state.push(Err(error));
                    true
                }
                _ => false,
            },
        )
        .await;
        if !graceful && !task_state.closed_by_client.get() {
            let why = read
                .err()
                .map(|e| e.message)
                .unwrap_or_else(|| "the stream ended".into());
            task_state.push(Err(McpError::local(
                CONNECTION_CLOSED,
                crate::protocol::error::ErrorKind::Network,
                format!("Subscription lost: the listen stream closed without its final response ({why}); listen again and refetch"),
                json!({}),
            )));
        }
        task_state.finish();
    });
    let timer = sleep(call.timeout_ms).fuse();
    let ack_rx = ack_rx.fuse();
    pin_mut!(timer, ack_rx);
    let honoured = select! {
        a = ack_rx => a.map_err(|_| {
            state.queue.borrow_mut().pop_front().and_then(Result::err).unwrap_or_else(|| McpError::protocol(INVALID_REQUEST, "The listen stream ended before notifications/subscriptions/acknowledged"))
        }),
        _ = timer => Err(McpError::timeout("subscriptions/listen (acknowledgement)", call.timeout_ms)),
    };
    match honoured {
        Ok(h) => {
            *state.honoured.borrow_mut() = h;
            Ok(state)
        }
        Err(e) => {
            state.closed_by_client.set(true);
            controller.abort();
            Err(e)
        }
    }
}

/// Legacy: a subscription fed from the GET stream. It is registered first (list_changed flags
/// the server offers are delivered at once), then `resources/subscribe` runs for each requested
/// URI and the honoured set keeps those the server accepted.
async fn listen_legacy(inner: &Shared, filter: &Value, call: &Call) -> Rc<ListenState> {
    let caps = inner
        .state
        .borrow()
        .server_capabilities
        .clone()
        .unwrap_or(Value::Null);
    let state = Rc::new(ListenState::default());
    *state.honoured.borrow_mut() = legacy_honoured(filter, &caps, &[]);
    {
        let mut listeners = inner.listeners.borrow_mut();
        listeners.retain(|w| w.upgrade().is_some_and(|l| !l.done.get()));
        listeners.push(Rc::downgrade(&state));
    }
    let requested = filter
        .get("resourceSubscriptions")
        .and_then(Value::as_array);
    let mut accepted = Vec::new();
    for uri in requested.into_iter().flatten().filter_map(Value::as_str) {
        let params = Some(json!({ "uri": uri }));
        if driver::request(inner, "resources/subscribe", params, call.clone())
            .await
            .is_ok()
        {
            accepted.push(uri.to_string());
        }
    }
    *state.honoured.borrow_mut() = legacy_honoured(filter, &caps, &accepted);
    *state.legacy_uris.borrow_mut() = accepted;
    state
}

/// Ends a subscription from the client side: aborts the 2026 stream, or (legacy) stops
/// delivery and unsubscribes its URIs.
pub async fn close(inner: &Shared, state: &Rc<ListenState>, call: Call) {
    if state.closed_by_client.replace(true) {
        return;
    }
    if let Some(c) = &state.controller {
        c.abort();
    }
    state.finish();
    let uris = std::mem::take(&mut *state.legacy_uris.borrow_mut());
    for uri in uris {
        let _ = driver::request(
            inner,
            "resources/unsubscribe",
            Some(json!({ "uri": uri })),
            call.clone(),
        )
        .await;
    }
}

/// The JS object handed to the caller: `{ honoured, next(), close(), return(), [Symbol.asyncIterator] }`.
pub fn to_js(inner: &Shared, state: Rc<ListenState>, call: Call) -> JsValue {
    let next_state = state.clone();
    let next = Closure::<dyn FnMut() -> Promise>::new(move || {
        let st = next_state.clone();
        future_to_promise(async move {
            let item = st.next().await.map_err(jserr::to_js)?;
            let out = Object::new();
            let _ = Reflect::set(&out, &"done".into(), &JsValue::from_bool(item.is_none()));
            let _ = Reflect::set(
                &out,
                &"value".into(),
                &item.as_ref().map_or(JsValue::UNDEFINED, interop::to_js),
            );
            Ok(out.into())
        })
    });
    let close_inner = inner.clone();
    let close_state = state.clone();
    let close_fn = Closure::<dyn FnMut() -> Promise>::new(move || {
        let (inner, st, call) = (close_inner.clone(), close_state.clone(), call.clone());
        future_to_promise(async move {
            close(&inner, &st, call).await;
            Ok(JsValue::UNDEFINED)
        })
    });
    let honoured = interop::to_js(&state.honoured.borrow());
    async_iterable(
        next.into_js_value().unchecked_ref(),
        close_fn.into_js_value().unchecked_ref(),
        &honoured,
    )
}
