//! `listen()`: change notifications as one subscription in either era. 2026: a
//! `subscriptions/listen` request whose response stream carries them; legacy: the GET
//! stream's notifications, plus `resources/subscribe` for each requested URI.

use super::core::Engine;
use super::host::{unless, Cancel};
use super::request::RequestOptions;
use super::transport::{Exchange, Inbox};
use crate::json::{json, Value};
use crate::protocol::error::{ErrorKind, McpError, CONNECTION_CLOSED, INVALID_REQUEST};
use crate::protocol::jsonrpc::{Message, RequestId};
use crate::protocol::model::subscription::Acknowledged;
use crate::protocol::model::{view, Field};
use crate::protocol::version::Era;
use crate::session::stamp;
use crate::session::subscriptions::{legacy_honoured, normalize_filter, ListenQueue};
use crate::util::oneshot;
use futures::FutureExt;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// One open subscription.
#[derive(Debug)]
pub struct Subscription {
    /// Its notifications, in order.
    pub queue: Rc<ListenQueue>,
    /// 2026: ends the listen stream; the listen request's id.
    stream: Option<(Cancel, RequestId)>,
    /// Legacy: the URIs `resources/subscribe` accepted (unsubscribed on close).
    legacy_uris: RefCell<Vec<String>>,
    closed_by_client: Rc<Cell<bool>>,
}

/// The 2026 listen stream's inbox: the acknowledgement, notifications for the queue (applied
/// to the engine too), and the final response or error.
struct ListenInbox {
    engine: Rc<Engine>,
    id: RequestId,
    queue: Rc<ListenQueue>,
    ack: RefCell<Option<oneshot::Sender<crate::session::inflight::Outcome>>>,
    graceful: Cell<bool>,
}

impl Inbox for ListenInbox {
    fn deliver(&self, message: Message, _carrier: Option<&RequestId>) -> bool {
        match message {
            Message::Notification { method, params }
                if method == "notifications/subscriptions/acknowledged" =>
            {
                if let Some(tx) = self.ack.borrow_mut().take() {
                    let ack = params.as_ref().and_then(view::<Acknowledged>);
                    let honoured = match ack.map(|a| a.notifications) {
                        Some(Field::Is(n) | Field::Wrong(n)) => n,
                        _ => Value::Null,
                    };
                    let _ = tx.send(Ok(honoured));
                }
                false
            }
            Message::Notification { method, params } => {
                self.engine.on_notification(&method, params.clone());
                let mut n = json!({ "method": method });
                if let Some(p) = params {
                    n["params"] = p;
                }
                self.queue.push(Ok(n));
                false
            }
            Message::Result { id, .. } if id == self.id => {
                self.graceful.set(true);
                true
            }
            Message::Error { error, .. } => {
                self.queue.push(Err(error));
                true
            }
            _ => false,
        }
    }

    fn surface_error(&self, error: McpError) {
        self.engine.surface_error(error);
    }

    fn lost(&self, error: McpError) {
        self.engine.surface_error(error);
    }
}

impl Engine {
    /// Opens a subscription; resolves once the server acknowledged it (2026) or the legacy
    /// `resources/subscribe` calls returned.
    pub async fn listen(
        &self,
        filter: &Value,
        opts: &RequestOptions,
    ) -> Result<Subscription, McpError> {
        let filter = normalize_filter(filter)?;
        match self.era() {
            Some(Era::Modern) => self.listen_modern(filter, opts).await,
            Some(Era::Legacy) => Ok(self.listen_legacy(&filter, opts).await),
            None => Err(McpError::not_connected()),
        }
    }

    async fn listen_modern(
        &self,
        filter: Value,
        opts: &RequestOptions,
    ) -> Result<Subscription, McpError> {
        self.ensure_connected()?;
        let n = self.next_listen.get() + 1;
        self.next_listen.set(n);
        let id = RequestId::Str(format!("listen-{n}"));
        let listen_id = id.clone();
        let method = "subscriptions/listen";
        let out = stamp::request(
            &self.cfg,
            &self.state.borrow(),
            id.clone(),
            method,
            Some(json!({ "notifications": filter })),
        );
        let queue = Rc::new(ListenQueue::default());
        let closed_by_client = Rc::new(Cell::new(false));
        let stop = Cancel::new();
        let (ack_tx, ack_rx) = oneshot::channel();
        let inbox = Rc::new(ListenInbox {
            engine: self.rc(),
            id: id.clone(),
            queue: queue.clone(),
            ack: RefCell::new(Some(ack_tx)),
            graceful: Cell::new(false),
        });
        let transport = self.transport();
        let (task_queue, task_closed, task_stop) =
            (queue.clone(), closed_by_client.clone(), stop.clone());
        self.host.spawn(
            async move {
                let exchange = Exchange {
                    id: &id,
                    out: &out,
                    what: method,
                    resume_headers: None,
                };
                let read = transport.request(exchange, inbox.clone());
                let outcome = unless(read, task_stop.fired()).await.ok();
                // The acknowledgement never comes now: listen() reads why from the queue.
                let unacknowledged = inbox.ack.borrow_mut().take().is_some();
                match outcome {
                    // Refused before it started (an HTTP status, a JSON error): that error.
                    Some(Err(e)) if unacknowledged => task_queue.push(Err(e)),
                    Some(outcome) if !inbox.graceful.get() && !task_closed.get() => {
                        let why = outcome
                            .err()
                            .map(|e| e.into_parts().message)
                            .unwrap_or_else(|| "the stream ended".into());
                        task_queue.push(Err(McpError::local(
                            CONNECTION_CLOSED,
                            ErrorKind::Network,
                            format!("Subscription lost: the listen stream closed without its final response ({why}); listen again and refetch"),
                            Value::Null,
                        )));
                    }
                    _ => {}
                }
                task_queue.finish();
            }
            .boxed_local(),
        );
        let acked = self.within(
            opts.timeout_ms,
            "subscriptions/listen (acknowledgement)",
            ack_rx.map(|a| {
                a.unwrap_or_else(|_| {
                    Err(queue.pop().and_then(Result::err).unwrap_or_else(|| {
                        McpError::protocol(
                            INVALID_REQUEST,
                            "The listen stream ended before notifications/subscriptions/acknowledged",
                        )
                    }))
                })
            }),
        );
        match acked.await {
            Ok(honoured) => {
                *queue.honoured.borrow_mut() = honoured;
                Ok(Subscription {
                    queue,
                    stream: Some((stop, listen_id)),
                    legacy_uris: RefCell::new(Vec::new()),
                    closed_by_client,
                })
            }
            Err(e) => {
                closed_by_client.set(true);
                stop.fire(None);
                Err(e)
            }
        }
    }

    /// Legacy: a subscription fed from the GET stream. It is registered first (list_changed
    /// flags the server offers are delivered at once), then `resources/subscribe` runs for
    /// each requested URI and the honoured set keeps those the server accepted.
    async fn listen_legacy(&self, filter: &Value, opts: &RequestOptions) -> Subscription {
        let caps = self
            .state
            .borrow()
            .server_capabilities
            .clone()
            .unwrap_or(Value::Null);
        let queue = Rc::new(ListenQueue::default());
        *queue.honoured.borrow_mut() = legacy_honoured(filter, &caps, &[]);
        {
            let mut listeners = self.legacy_listeners.borrow_mut();
            listeners.retain(|w| w.upgrade().is_some_and(|l| !l.is_done()));
            listeners.push(Rc::downgrade(&queue));
        }
        let requested = filter
            .get("resourceSubscriptions")
            .and_then(Value::as_array);
        let mut accepted = Vec::new();
        for uri in requested.into_iter().flatten().filter_map(Value::as_str) {
            let params = Some(json!({ "uri": uri }));
            if self
                .request("resources/subscribe", params, opts)
                .await
                .is_ok()
            {
                accepted.push(uri.to_string());
            }
        }
        *queue.honoured.borrow_mut() = legacy_honoured(filter, &caps, &accepted);
        Subscription {
            queue,
            stream: None,
            legacy_uris: RefCell::new(accepted),
            closed_by_client: Rc::new(Cell::new(false)),
        }
    }

    /// Ends a subscription from the client side: stops the 2026 stream, or (legacy) stops
    /// delivery and unsubscribes its URIs.
    pub async fn unlisten(&self, sub: &Subscription, opts: &RequestOptions) {
        if sub.closed_by_client.replace(true) {
            return;
        }
        if let Some((stop, id)) = &sub.stream {
            stop.fire(None);
            // Over a message transport there is no stream to close: say so (spec: stdio).
            if self.era() == Some(Era::Modern) {
                self.cancel_on_server(id, "the client closed the subscription");
            }
        }
        sub.queue.finish();
        let uris = std::mem::take(&mut *sub.legacy_uris.borrow_mut());
        for uri in uris {
            let params = Some(json!({ "uri": uri }));
            let _ = self.request("resources/unsubscribe", params, opts).await;
        }
    }
}
